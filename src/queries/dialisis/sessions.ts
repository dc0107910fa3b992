// Queries over the session read model: the session record model (read-your-writes: a write waits for the projection
// to apply its events, then reads; if the bounded wait runs out it folds the session's own stream), the board, the lists.
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel } from '../recordModel.js';
import { SESSIONS, SESSIONS_PROJECTION } from '../../projections/dialisis/sessionsProjection.js';
import { foldSession, type SessionDoc } from '../../projections/dialisis/sessionDoc.js';
import { patients } from '../pacientes/readModel.js';
import { SESSION_CATEGORY } from '../../commands/dialisis/session/sessionEvents.js';
import { SESSION_CONSEQUENCES_CATEGORY } from '../../commands/dialisis/consequences/consequenceEvents.js';
import { changedSince } from '../changedSince.js';
import { preparedPage } from '../preparedPages.js';
import { PACIENTES_PROJECTION, PATIENTS } from '../../projections/pacientes/pacientesProjection.js';
import { CLINICAL_PROJECTIONS } from './clinicalSources.js';

/**
 * The session record: get, or404 and the read-after-write latest (the sessions read model, else its stream). Its view's
 * clinical values read the patients, the policy and the prescriptions: a read after a write waits for those too.
 */
export const sessionModel = recordModel<SessionDoc>({
  projection: SESSIONS_PROJECTION,
  collection: SESSIONS,
  category: SESSION_CATEGORY,
  fold: foldSession,
  // Its consequences (machine use, authorization...) are in the session's consequence stream: a past session has them too.
  alsoFolds: [SESSION_CONSEQUENCES_CATEGORY],
  alsoAwait: CLINICAL_PROJECTIONS,
  notFound: 'Session not found',
});
export const sessions = sessionModel.collection;

/** What clients see: the document without its internal keys. */
export function sessionView(doc: SessionDoc): Record<string, unknown> {
  // The judged values are answered as `clinical` (sessionClinicalView.ts).
  const { tenantId: _t, _position, _changedAt: _changed, counts: _c, judged: _j, ...view } = doc;
  // Documents projected before validations could be withdrawn have no list: none was (nor the later fields).
  const later = {
    lateEntryReason: doc.lateEntryReason ?? null,
    backEntry: doc.backEntry ?? false,
    vascularAccess: doc.vascularAccess ?? null,
    dryWeight: doc.dryWeight ?? null,
  };
  return { ...view, ...later, earlierValidations: doc.earlierValidations ?? [] };
}

export type PatientBrief = { id: string; givenNames: string; familyNames: string; documentType: string; documentNumber: string };

/** The patients named by some sessions, by id (one read each, together: a board holds a few dozen). */
export async function patientBriefs(scope: TenantScope, ids: Iterable<string>): Promise<Map<string, PatientBrief | null>> {
  const col = patients(scope);
  const brief = async (id: string): Promise<[string, PatientBrief | null]> => {
    const p = await col.get(scope.auth.tenantId, id);
    if (!p) return [id, null];
    return [
      id,
      { id, givenNames: p.givenNames, familyNames: p.familyNames, documentType: p.documentType, documentNumber: p.documentNumber },
    ];
  };
  return new Map(await Promise.all([...new Set(ids)].map(brief)));
}

const SUMMARY_KEYS = [
  'id',
  'revision',
  'date',
  'shiftId',
  'locationId',
  'kind',
  'status',
  'patientId',
  'checkedInAt',
  'startedAt',
  'endedAt',
  'equipment',
  'counts',
] as const;
/** What a list reads of a session: everything but its entries and blocks. */
export const SUMMARY_FIELDS: Record<string, 1> = Object.fromEntries(SUMMARY_KEYS.map((f) => [f, 1]));
export type SessionSummaryDoc = Pick<SessionDoc, (typeof SUMMARY_KEYS)[number]>;

/** A session as the board lists it: who, where, how far along, with what. */
export function sessionSummary(doc: SessionSummaryDoc, patient: PatientBrief | null): Record<string, unknown> {
  return {
    id: doc.id,
    revision: doc.revision,
    date: doc.date,
    shiftId: doc.shiftId,
    locationId: doc.locationId,
    kind: doc.kind,
    status: doc.status,
    patient: patient ?? { id: doc.patientId },
    checkedInAt: doc.checkedInAt,
    startedAt: doc.startedAt,
    endedAt: doc.endedAt,
    machineId: doc.equipment?.machineId ?? null,
    stationId: doc.equipment?.stationId ?? null,
    readingCount: doc.counts.readings,
    complicationCount: doc.counts.complications,
    refusedConsequences: doc.counts.refusedConsequences,
  };
}

export interface BoardQuery {
  date: string;
  locationId?: string;
  shiftId?: string;
}

const BOARD_MAX = 2000;

/** The day board: the sessions of a date (and location), by shift and status. */
export async function dayBoard(scope: TenantScope, query: BoardQuery): Promise<Record<string, unknown>> {
  const filter: Filter = { date: query.date };
  if (query.locationId) filter.locationId = query.locationId;
  if (query.shiftId) filter.shiftId = query.shiftId;
  const page = (await sessions(scope).find(scope.auth.tenantId, filter, {
    sort: { date: 1, locationId: 1, shiftId: 1 },
    limit: BOARD_MAX,
    projection: SUMMARY_FIELDS,
  })) as unknown as Page<SessionSummaryDoc>;
  const names = await patientBriefs(
    scope,
    page.items.map((s) => s.patientId),
  );
  const shifts = new Map<
    string,
    { shiftId: string; locationId: string; byStatus: Record<string, number>; sessions: Record<string, unknown>[] }
  >();
  for (const doc of page.items) {
    const key = `${doc.locationId}\u0000${doc.shiftId}`;
    let shift = shifts.get(key);
    if (!shift) shifts.set(key, (shift = { shiftId: doc.shiftId, locationId: doc.locationId, byStatus: {}, sessions: [] }));
    shift.byStatus[doc.status] = (shift.byStatus[doc.status] ?? 0) + 1;
    shift.sessions.push(sessionSummary(doc, names.get(doc.patientId) ?? null));
  }
  for (const shift of shifts.values()) shift.sessions.sort(byPatientName);
  return { date: query.date, locationId: query.locationId ?? null, shifts: [...shifts.values()] };
}

/**
 * The caller's answer made of a day board (its JSON), kept while the company's sessions and patients are unchanged: a
 * floor's screens read it every few seconds, a reading changes it every minute or so, and each preparation reads every
 * session of the day.
 */
export function preparedDayBoard<A>(scope: TenantScope, query: BoardQuery, prepare: (board: Record<string, unknown>) => A): Promise<A> {
  // Every reader with dialisis:read sees the same board: one variant.
  const normalized = JSON.stringify([query.date, query.locationId ?? null, query.shiftId ?? null]);
  const key = {
    projection: SESSIONS_PROJECTION,
    collection: SESSIONS,
    query: `board ${normalized}`,
    alsoFrom: [{ projection: PACIENTES_PROJECTION, collection: PATIENTS }],
  };
  return preparedPage(scope, key, async () => prepare(await dayBoard(scope, query)));
}

const nameOf = (s: Record<string, unknown>): string => {
  const p = s.patient as Partial<PatientBrief>;
  return `${p.familyNames ?? ''} ${p.givenNames ?? ''}`.toLocaleLowerCase('es');
};
const byPatientName = (a: Record<string, unknown>, b: Record<string, unknown>): number => nameOf(a).localeCompare(nameOf(b), 'es');

export interface PatientSessionsQuery {
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

/** A patient's sessions, newest first. */
export async function patientSessions(
  scope: TenantScope,
  patientId: string,
  query: PatientSessionsQuery,
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = { patientId };
  const range: Record<string, string> = {};
  if (query.from) range.$gte = query.from;
  if (query.to) range.$lte = query.to;
  if (Object.keys(range).length > 0) filter.date = range;
  const page = await sessions(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { date: -1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  const names = await patientBriefs(scope, [patientId]);
  return { items: page.items.map((d) => sessionSummary(d, names.get(patientId) ?? null)), nextCursor: page.nextCursor };
}
