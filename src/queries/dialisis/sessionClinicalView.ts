// A session with its derived clinical values and flags: the company's thresholds, the patient's access kind and the
// previous session's net post-weight (for the IDWG) are looked up here, the values computed by the pure functions.
import type { TenantScope } from '../tenantScope.js';
import { policies } from '../empresas/readModel.js';
import { DEFAULT_POLICY } from '../../projections/empresas/policyDoc.js';
import { patients } from '../pacientes/readModel.js';
import type { SessionDoc } from '../../projections/dialisis/sessionDoc.js';
import {
  accessKindOf,
  clinicalPolicyOf,
  netPostWeightOf,
  sessionClinical,
  type ClinicalPolicy,
  type SessionClinical,
} from '../../projections/dialisis/sessionClinical.js';
import { sessions, sessionView } from './sessions.js';
import { prescriptionVersions } from './prescriptions.js';

/** The company's thresholds for what is shown (the read model: reading the policy's stream on every answer costs). */
export async function clinicalPolicy(scope: TenantScope): Promise<ClinicalPolicy> {
  const doc = await policies(scope.services).get(scope.auth.tenantId, scope.auth.tenantId);
  return clinicalPolicyOf(doc ? doc.settings : DEFAULT_POLICY);
}

/** The kinetics' access kind of the patient's primary vascular access. */
export async function patientAccessKind(scope: TenantScope, patientId: string): Promise<ReturnType<typeof accessKindOf>> {
  const patient = await patients(scope).get(scope.auth.tenantId, patientId);
  const primary = patient?.vascularAccesses.find((a) => a.primary && a.status === 'active');
  return accessKindOf(primary?.type ?? null);
}

const PREVIOUS_LOOKBACK = 5;

/** Sessions ordered as they happened: by date, then by start. */
export const happenedBefore = (
  a: Pick<SessionDoc, 'date' | 'startedAt' | 'id'>,
  b: Pick<SessionDoc, 'date' | 'startedAt' | 'id'>,
): boolean => a.date < b.date || (a.date === b.date && (a.startedAt ?? '') < (b.startedAt ?? ''));

/** The net post-weight of the patient's session before this one (the IDWG starts from it), or null. */
export async function previousNetPostWeight(scope: TenantScope, doc: SessionDoc): Promise<number | null> {
  const filter = { patientId: doc.patientId, date: { $lte: doc.date }, post: { $ne: null } };
  const projection = { id: 1, date: 1, startedAt: 1, post: 1 } as const;
  const page = (await sessions(scope).find(scope.auth.tenantId, filter, {
    sort: { date: -1 },
    limit: PREVIOUS_LOOKBACK,
    projection,
  })) as unknown as {
    items: Pick<SessionDoc, 'id' | 'date' | 'startedAt' | 'post'>[];
  };
  const earlier = page.items.filter((s) => s.id !== doc.id && happenedBefore(s, doc));
  earlier.sort((a, b) => (happenedBefore(a, b) ? 1 : -1));
  return earlier[0] ? netPostWeightOf(earlier[0]) : null;
}

/**
 * The prescription the session is judged against: its snapshot from the start, or before the needle (the pre block's
 * warnings) the version in force on the session's day.
 */
async function prescriptionOf(scope: TenantScope, doc: SessionDoc): Promise<SessionDoc['prescription']> {
  if (doc.prescription || doc.startedAt) return doc.prescription;
  const { patientId, date } = doc;
  const inForce = await prescriptionVersions(scope).findOne(scope.auth.tenantId, {
    patientId,
    validFrom: { $lte: date },
    $or: [{ effectiveTo: null }, { effectiveTo: { $gte: date } }],
  });
  return inForce ? { version: inForce.version, durationMinutes: inForce.durationMinutes, dryWeightKg: inForce.dryWeightKg } : null;
}

export async function clinicalOf(scope: TenantScope, doc: SessionDoc, policy?: ClinicalPolicy): Promise<SessionClinical> {
  const [previousNetPostWeightKg, accessKind, thresholds, prescription] = await Promise.all([
    previousNetPostWeight(scope, doc),
    patientAccessKind(scope, doc.patientId),
    policy ?? clinicalPolicy(scope),
    doc.pre ? prescriptionOf(scope, doc) : doc.prescription,
  ]);
  return sessionClinical({ ...doc, prescription }, { previousNetPostWeightKg, accessKind }, thresholds);
}

/** What clients see of a session: everything recorded, with the derived values and flags. */
export async function sessionWithClinical(scope: TenantScope, doc: SessionDoc): Promise<Record<string, unknown>> {
  return { ...sessionView(doc), clinical: await clinicalOf(scope, doc) };
}
