// The read models of the payer and staff widgets: authorizations and licences watched by date, and the month's
// billing per payer as counters moved by each session's membership (collections prefixed `payers`).
import { AUTHORIZATION_CATEGORY, AUTHORIZATION_EVENT_TYPES } from '../../commands/clientes/authorizationEvents.js';
import type { AuthorizationEvent } from '../../commands/clientes/authorizationEvents.js';
import { CLIENT_CATEGORY, CLIENT_EVENT_TYPES } from '../../commands/clientes/clientEvents.js';
import { STAFF_CATEGORY, STAFF_EVENT_TYPES } from '../../commands/colaboradores/staffEvents.js';
import { SESSION_CATEGORY, SESSION_EVENT_TYPES, type SessionEvent } from '../../commands/dialisis/session/sessionEvents.js';
import { PATIENT_CATEGORY, type PatientEvent } from '../../commands/pacientes/patientEvents.js';
import { applyFold, type ProjectedDoc, type Projection, type ProjectionTx } from '../runner/projection.js';
import { aggregateIdOfStream, categoryOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import { foldClient, type ClientDoc } from '../clientes/clientDoc.js';
import {
  foldAuthorizationWatch,
  foldLicenceWatch,
  moveAuthorizationDay,
  type AuthorizationDayDoc,
  type AuthorizationWatchDoc,
  type LicenceWatchDoc,
} from './payerWatchDocs.js';
import {
  RECENT_SESSIONS,
  billingMonthId,
  bucketsOf,
  countBucket,
  sessionChange,
  type BilledSessionDoc,
  type BillingMonthDoc,
  type CoverageDoc,
} from './payerBillingDocs.js';

export const PAYER_STAFF_PROJECTION = 'widgets-payers';
export const PAYERS_AUTHORIZATIONS = 'payersAuthorizations';
export const PAYERS_AUTHORIZATION_DAYS = 'payersAuthorizationDays';
export const PAYERS_LICENCES = 'payersLicences';
export const PAYERS_BILLING = 'payersBilling';
export const PAYERS_SESSIONS = 'payersSessions';
export const PAYERS_COVERAGES = 'payersCoverages';
export const PAYERS_CLIENTS = 'payersClients';

/** The stream categories whose events change these widgets (what a live dashboard listens to). */
export const AUTHORIZATION_CATEGORIES = [AUTHORIZATION_CATEGORY] as const;
/** A session's status and units, the patient's coverage, the payer's contracts. */
export const BILLING_CATEGORIES = [CLIENT_CATEGORY, AUTHORIZATION_CATEGORY, SESSION_CATEGORY, PATIENT_CATEGORY] as const;
export const STAFF_CATEGORIES = [STAFF_CATEGORY] as const;

const PATIENT_TYPES = ['PatientRegistered', 'CoverageAdded'] as const;

export const payerStaffProjection: Projection = {
  name: PAYER_STAFF_PROJECTION,
  version: 1,
  collections: {
    // Each counter collection before the documents that guard it: a failure in between replays both.
    [PAYERS_AUTHORIZATION_DAYS]: [{ keys: { tenantId: 1, day: 1, id: 1 }, name: 'by_day' }],
    [PAYERS_AUTHORIZATIONS]: [
      { keys: { tenantId: 1, validTo: 1, id: 1 }, name: 'by_valid_to' },
      { keys: { tenantId: 1, low: 1, validTo: 1, id: 1 }, name: 'by_low' },
    ],
    [PAYERS_LICENCES]: [{ keys: { tenantId: 1, watchOn: 1, id: 1 }, name: 'by_expiry' }],
    [PAYERS_COVERAGES]: [],
    [PAYERS_CLIENTS]: [],
    [PAYERS_BILLING]: [{ keys: { tenantId: 1, month: 1, id: 1 }, name: 'by_month' }],
    [PAYERS_SESSIONS]: [],
  },
  eventTypes: [...CLIENT_EVENT_TYPES, ...AUTHORIZATION_EVENT_TYPES, ...STAFF_EVENT_TYPES, ...SESSION_EVENT_TYPES, ...PATIENT_TYPES],
  handle(event, tx) {
    const tenantId = tenantOfStream(event.streamName);
    const id = aggregateIdOfStream(event.streamName);
    switch (categoryOfStream(event.streamName)) {
      case CLIENT_CATEGORY:
        return applyFold<ClientDoc>(tx, PAYERS_CLIENTS, tenantId, id, event, foldClient);
      case STAFF_CATEGORY:
        return applyFold<LicenceWatchDoc>(tx, PAYERS_LICENCES, tenantId, id, event, foldLicenceWatch);
      case PATIENT_CATEGORY:
        return patientEvent(tx, tenantId, id, event);
      case AUTHORIZATION_CATEGORY:
        return authorizationEvent(tx, tenantId, id, event);
      case SESSION_CATEGORY:
        return sessionEvent(tx, tenantId, id, event);
      default:
        return undefined;
    }
  },
};

function foldCoverage(doc: CoverageDoc | null, recorded: RecordedEvent): CoverageDoc | null {
  const event = recorded as unknown as PatientEvent;
  const _position = Number(recorded.position);
  const pick = (c: { clientId?: string; validFrom: string; validTo?: string }) => ({
    clientId: c.clientId,
    validFrom: c.validFrom,
    ...(c.validTo !== undefined ? { validTo: c.validTo } : {}),
  });
  if (event.type === 'PatientRegistered') {
    if (doc) return doc;
    const coverages = event.data.coverages.map(pick);
    return { tenantId: tenantOfStream(recorded.streamName), id: aggregateIdOfStream(recorded.streamName), coverages, _position };
  }
  if (event.type === 'CoverageAdded' && doc) return { ...doc, coverages: [...doc.coverages, pick(event.data)], _position };
  return doc;
}

/** A coverage added after some sessions (back-dated) bills the patient's latest sessions again. */
async function patientEvent(tx: ProjectionTx, tenantId: string, id: string, recorded: RecordedEvent): Promise<void> {
  await applyFold<CoverageDoc>(tx, PAYERS_COVERAGES, tenantId, id, recorded, foldCoverage);
  if (recorded.type !== 'CoverageAdded') return;
  const doc = await load<CoverageDoc>(tx, PAYERS_COVERAGES, tenantId, id);
  for (const sessionId of doc?.sessions ?? []) await rebill(tx, tenantId, sessionId, recorded, {});
}

/** The patient's coverage document remembers the session (a later coverage reaches it). */
const rememberSession =
  (sessionId: string) =>
  (doc: CoverageDoc | null, recorded: RecordedEvent): CoverageDoc | null => {
    if (!doc || doc.sessions?.includes(sessionId)) return doc;
    const sessions = [...(doc.sessions ?? []), sessionId];
    return {
      ...doc,
      sessions: sessions.length > RECENT_SESSIONS ? sessions.slice(-RECENT_SESSIONS) : sessions,
      _position: Number(recorded.position),
    };
  };

async function authorizationEvent(tx: ProjectionTx, tenantId: string, id: string, recorded: RecordedEvent): Promise<void> {
  const position = Number(recorded.position);
  const was = await load<AuthorizationWatchDoc>(tx, PAYERS_AUTHORIZATIONS, tenantId, id);
  const now = was && was._position >= position ? was : foldAuthorizationWatch(was, recorded);
  if (now !== was) {
    // The last day never changes: the authorization moves between the counters of its own day.
    const day = (now ?? was)!.validTo;
    await applyFold<AuthorizationDayDoc>(tx, PAYERS_AUTHORIZATION_DAYS, tenantId, day, recorded, (doc) =>
      moveAuthorizationDay(doc ?? { tenantId, id: day, day, count: 0, low: 0, exhausted: 0, _position: position }, was, now, position),
    );
    if (now) tx.put(PAYERS_AUTHORIZATIONS, now);
    else tx.delete(PAYERS_AUTHORIZATIONS, tenantId, id);
  }
  const event = recorded as unknown as AuthorizationEvent;
  if (event.type === 'AuthorizationConsumed' || event.type === 'AuthorizationReserved')
    await rebill(tx, tenantId, event.data.sessionId, recorded, { authorized: true });
  if (event.type === 'AuthorizationReleased') await rebill(tx, tenantId, event.data.sessionId, recorded, { authorized: false });
}

/** A document from the batch's cache when it holds it (no promise), else from the store. */
const load = async <T extends ProjectedDoc>(tx: ProjectionTx, collection: string, tenantId: string, id: string): Promise<T | null> => {
  const cached = tx.peek?.<T>(collection, tenantId, id);
  return cached !== undefined ? cached : tx.get<T>(collection, tenantId, id);
};

async function sessionEvent(tx: ProjectionTx, tenantId: string, id: string, recorded: RecordedEvent): Promise<void> {
  const event = recorded as unknown as SessionEvent;
  if (event.type === 'SessionScheduled') {
    if (await load<BilledSessionDoc>(tx, PAYERS_SESSIONS, tenantId, id)) return;
    const { patientId, date } = event.data;
    await applyFold<CoverageDoc>(tx, PAYERS_COVERAGES, tenantId, patientId, recorded, rememberSession(id));
    const doc = { tenantId, id, patientId, date, status: 'scheduled', minutes: null, interrupted: false, authorized: false };
    tx.put<BilledSessionDoc>(PAYERS_SESSIONS, { ...doc, buckets: [], _position: Number(recorded.position) });
    return;
  }
  const change = sessionChange(event);
  if (!change) return;
  const current = await load<BilledSessionDoc>(tx, PAYERS_SESSIONS, tenantId, id);
  if (current) await rebill(tx, tenantId, id, recorded, change, current);
}

/** Applies a change to a session's membership and moves it between the month's payer counters. */
async function rebill(
  tx: ProjectionTx,
  tenantId: string,
  sessionId: string,
  recorded: RecordedEvent,
  change: Partial<BilledSessionDoc>,
  known?: BilledSessionDoc,
): Promise<void> {
  const position = Number(recorded.position);
  const current = known ?? (await load<BilledSessionDoc>(tx, PAYERS_SESSIONS, tenantId, sessionId));
  if (!current || current._position >= position) return;
  const next = { ...current, ...change, _position: position };
  const coverage = await load<CoverageDoc>(tx, PAYERS_COVERAGES, tenantId, current.patientId);
  const contracts = new Map<string, ClientDoc['contracts']>();
  for (const c of coverage?.coverages ?? [])
    if (c.clientId && !contracts.has(c.clientId))
      contracts.set(c.clientId, (await load<ClientDoc>(tx, PAYERS_CLIENTS, tenantId, c.clientId))?.contracts ?? []);
  next.buckets = bucketsOf(next, coverage?.coverages ?? [], (clientId) => contracts.get(clientId) ?? []);
  const month = current.date.slice(0, 7);
  const moves = new Map<string, [string, 1 | -1][]>();
  const move = (bucket: string, sign: 1 | -1) => {
    const counterId = billingMonthId(month, bucket.slice(0, bucket.indexOf('\t')));
    moves.set(counterId, [...(moves.get(counterId) ?? []), [bucket, sign]]);
  };
  for (const b of current.buckets) if (!next.buckets.includes(b)) move(b, -1);
  for (const b of next.buckets) if (!current.buckets.includes(b)) move(b, 1);
  for (const [counterId, bucketMoves] of moves) {
    await applyFold<BillingMonthDoc>(tx, PAYERS_BILLING, tenantId, counterId, recorded, (doc) => {
      const clientId = counterId.slice(counterId.indexOf('|') + 1);
      let counted = doc ?? { tenantId, id: counterId, month, clientId, sessions: 0, due: {}, flagged: {}, _position: position };
      for (const [bucket, sign] of bucketMoves) counted = countBucket(counted, bucket, sign);
      return { ...counted, _position: position };
    });
  }
  tx.put<BilledSessionDoc>(PAYERS_SESSIONS, next);
}
