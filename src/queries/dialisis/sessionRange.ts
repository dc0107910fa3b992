// The sessions of a date range with their derived clinical values: each patient's sessions in order, the IDWG of each
// one counted from the net post-weight of the one before (the first from the session before the range).
import type { TenantScope } from '../tenantScope.js';
import type { Filter } from '../../stores/readStore.js';
import type { SessionDoc } from '../../projections/dialisis/sessionDoc.js';
import {
  interdialyticHoursOf,
  netPostWeightOf,
  sessionClinical,
  type SessionClinical,
} from '../../projections/dialisis/sessionClinical.js';
import { sessions } from './sessions.js';
import { clinicalPolicy, happenedBefore, judgedOf, patientAccessKind, previousSession } from './sessionClinicalView.js';
import { accessKindOf } from '../../projections/dialisis/sessionClinical.js';

export interface RangeQuery {
  from: string;
  to: string;
  patientId?: string;
  locationId?: string;
}

const PAGE = 1000;

/** Every session of the range (all statuses), page by page; with `projection` only those top-level fields (and the id). */
export async function sessionsBetween(scope: TenantScope, query: RangeQuery, projection?: Record<string, 1>): Promise<SessionDoc[]> {
  const filter: Filter = { date: { $gte: query.from, $lte: query.to } };
  if (query.patientId) filter.patientId = query.patientId;
  if (query.locationId) filter.locationId = query.locationId;
  const found: SessionDoc[] = [];
  let after: string | null = null;
  do {
    const page = await sessions(scope).find(scope.auth.tenantId, filter, {
      sort: { date: 1 },
      limit: PAGE,
      after,
      ...(projection ? { projection } : {}),
    });
    found.push(...page.items);
    after = page.nextCursor;
  } while (after);
  return found;
}

/** Sessions by patient, each patient's in the order they happened. */
export function byPatient(docs: readonly SessionDoc[]): Map<string, SessionDoc[]> {
  const groups = new Map<string, SessionDoc[]>();
  for (const doc of docs) {
    const list = groups.get(doc.patientId);
    if (list) list.push(doc);
    else groups.set(doc.patientId, [doc]);
  }
  for (const list of groups.values()) list.sort((a, b) => (happenedBefore(a, b) ? -1 : happenedBefore(b, a) ? 1 : 0));
  return groups;
}

export const TREATED_STATUSES = new Set(['ended', 'signed', 'validated', 'interrupted']);

/** The treated sessions of the range with their clinical values. */
export async function treatedWithClinical(
  scope: TenantScope,
  query: RangeQuery,
): Promise<{ doc: SessionDoc; clinical: SessionClinical }[]> {
  const policy = await clinicalPolicy(scope);
  const result: { doc: SessionDoc; clinical: SessionClinical }[] = [];
  for (const list of byPatient(await sessionsBetween(scope, query)).values()) {
    const treated = list.filter((d) => TREATED_STATUSES.has(d.status));
    if (treated.length === 0) continue;
    const patientKind = await patientAccessKind(scope, treated[0]!.patientId);
    let previous = await previousSession(scope, treated[0]!);
    for (const doc of treated) {
      // A signed record answers what was judged at signing; the others the access they used, the interval since the last.
      const accessKind = doc.vascularAccess ? accessKindOf(doc.vascularAccess.type) : patientKind;
      const facts = {
        previousNetPostWeightKg: previous?.netPostWeightKg ?? null,
        accessKind,
        interdialyticHours: interdialyticHoursOf(doc, previous),
      };
      result.push({ doc, clinical: judgedOf(doc) ?? sessionClinical(doc, facts, policy) });
      if (doc.endedAt) previous = { netPostWeightKg: netPostWeightOf(doc), endedAt: doc.endedAt };
    }
  }
  return result;
}
