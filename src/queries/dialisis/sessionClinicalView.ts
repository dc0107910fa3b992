// A session with its derived clinical values and flags: the company's thresholds, the patient's access kind and the
// previous session's net post-weight (for the IDWG) are looked up here, the values computed by the pure functions.
import type { TenantScope } from '../tenantScope.js';
import { policies } from '../empresas/readModel.js';
import { DEFAULT_POLICY } from '../../commands/empresas/shared/policySettings.js';
import { patients } from '../pacientes/readModel.js';
import type { SessionDoc } from '../../projections/dialisis/sessionDoc.js';
import {
  accessKindOf,
  interdialyticHoursOf,
  netPostWeightOf,
  sessionClinical,
  type PreviousSession,
  type SessionClinical,
} from '../../projections/dialisis/sessionClinical.js';
import { clinicalPolicyOf, type ClinicalPolicy } from '../../commands/dialisis/shared/clinicalPolicy.js';
import { sessions, sessionView } from './sessions.js';
import { dryWeightOn, prescriptionVersions } from './prescriptions.js';

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

/** The access kind of the access the session used (recorded at its start); sessions of before: the patient's now. */
export async function sessionAccessKind(scope: TenantScope, doc: SessionDoc): Promise<ReturnType<typeof accessKindOf>> {
  if (doc.vascularAccess) return accessKindOf(doc.vascularAccess.type);
  return patientAccessKind(scope, doc.patientId);
}

/**
 * The patient's last session treated before this one (the IDWG starts from it): its net post-weight (null when it was
 * never weighed: the gain is then unknown, never taken from an older session) and its end.
 */
export async function previousSession(scope: TenantScope, doc: SessionDoc): Promise<PreviousSession | null> {
  const filter = { patientId: doc.patientId, date: { $lte: doc.date }, endedAt: { $ne: null } };
  const projection = { id: 1, date: 1, startedAt: 1, endedAt: 1, post: 1 } as const;
  const page = (await sessions(scope).find(scope.auth.tenantId, filter, {
    sort: { date: -1 },
    limit: PREVIOUS_LOOKBACK,
    projection,
  })) as unknown as {
    items: Pick<SessionDoc, 'id' | 'date' | 'startedAt' | 'endedAt' | 'post'>[];
  };
  const earlier = page.items.filter((s) => s.id !== doc.id && happenedBefore(s, doc));
  earlier.sort((a, b) => (happenedBefore(a, b) ? 1 : -1));
  return earlier[0] ? { netPostWeightKg: netPostWeightOf(earlier[0]), endedAt: earlier[0].endedAt } : null;
}

/** The values as they come out of the record now (the patient's access used, the previous session, the policy given). */
export async function freshClinical(scope: TenantScope, doc: SessionDoc, policy?: ClinicalPolicy): Promise<SessionClinical> {
  const [previous, accessKind, thresholds, prescription] = await Promise.all([
    previousSession(scope, doc),
    sessionAccessKind(scope, doc),
    policy ?? clinicalPolicy(scope),
    doc.pre ? prescriptionOf(scope, doc) : doc.prescription,
  ]);
  const facts = {
    previousNetPostWeightKg: previous?.netPostWeightKg ?? null,
    accessKind,
    interdialyticHours: interdialyticHoursOf(doc, previous),
  };
  return sessionClinical({ ...doc, prescription }, facts, thresholds);
}

/** The values judged at signing (or the last amendment) when the record holds them (issue 21 item 3), else fresh ones. */
export function judgedOf(doc: SessionDoc): SessionClinical | null {
  const judged = doc.judged;
  if (!judged) return null;
  const { derived, flags, judgedAt, policyRevision } = judged;
  return { derived, flags, judgedAt, policyRevision } as unknown as SessionClinical;
}

/**
 * The prescription the session is judged against: its snapshot from the start, or before the needle (the pre block's
 * warnings) the version in force on the session's day.
 */
async function prescriptionOf(scope: TenantScope, doc: SessionDoc): Promise<SessionDoc['prescription']> {
  if (doc.prescription || doc.startedAt) return doc.prescription;
  const { patientId, date } = doc;
  const [inForce, patient] = await Promise.all([
    prescriptionVersions(scope).findOne(scope.auth.tenantId, {
      patientId,
      validFrom: { $lte: date },
      $or: [{ effectiveTo: null }, { effectiveTo: { $gte: date } }],
    }),
    patients(scope).get(scope.auth.tenantId, patientId),
  ]);
  // One dry weight (issue 21 item 4): the patient's in force on the session's day, as the start will take it.
  const dryWeightKg = dryWeightOn(patient, date);
  return inForce && dryWeightKg !== null ? { version: inForce.version, durationMinutes: inForce.durationMinutes, dryWeightKg } : null;
}

export async function clinicalOf(scope: TenantScope, doc: SessionDoc, policy?: ClinicalPolicy): Promise<SessionClinical> {
  return judgedOf(doc) ?? freshClinical(scope, doc, policy);
}

/** What clients see of a session: everything recorded, with the derived values and flags. */
export async function sessionWithClinical(scope: TenantScope, doc: SessionDoc): Promise<Record<string, unknown>> {
  return { ...sessionView(doc), clinical: await clinicalOf(scope, doc) };
}
