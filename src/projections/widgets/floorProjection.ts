// Read models of the floor widgets (issue 25): census counters by status and isolation, the day board's counters per
// (date, location, shift) and the sessions awaiting signature or validation, moved incrementally by membership documents.
import { PATIENT_CATEGORY } from '../../commands/pacientes/patientEvents.js';
import { SESSION_CATEGORY } from '../../commands/dialisis/session/sessionEvents.js';
import { applyFold, sharedString, type Projection, type ProjectionTx } from '../runner/projection.js';
import { aggregateIdOfStream, categoryOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import {
  awaitingOf,
  boardId,
  emptyCounts,
  moved,
  statusAfter,
  COLUMN_OF,
  STATUS_EVENT_TYPES,
  type BoardDoc,
  type CountersDoc,
  type PatientMemberDoc,
  type SessionMemberDoc,
} from './floorDocs.js';

export const FLOOR_PROJECTION = 'widgets-floor';
export const FLOOR_COUNTERS = 'floorCounters';
export const FLOOR_BOARD = 'floorBoard';
export const FLOOR_PATIENTS = 'floorPatients';
export const FLOOR_SESSIONS = 'floorSessions';
export const CENSUS_ID = 'census';
export const AWAITING_ID = 'awaiting';

const PATIENT_EVENT_TYPES = ['PatientRegistered', 'PatientStatusChanged', 'PatientIsolationChanged'] as const;

/** Runs `next` after `first`, without a promise when `first` completed synchronously. */
const after = (first: Promise<void> | void, next: () => Promise<void> | void): Promise<void> | void => (first ? first.then(next) : next());

/** Isolations of an active patient count: the census of who is dialysed on the floor. */
const isolationsCounted = (member: PatientMemberDoc | null): readonly string[] =>
  member && member.status === 'active' ? member.isolation : [];

function foldCensus(tx: ProjectionTx, event: RecordedEvent, tenantId: string, from: PatientMemberDoc | null, to: PatientMemberDoc) {
  const position = Number(event.position);
  return applyFold<CountersDoc>(tx, FLOOR_COUNTERS, tenantId, CENSUS_ID, event, (doc) => {
    const byIsolation = { ...doc?.byIsolation };
    for (const isolation of isolationsCounted(from)) byIsolation[isolation] = (byIsolation[isolation] ?? 0) - 1;
    for (const isolation of isolationsCounted(to)) byIsolation[isolation] = (byIsolation[isolation] ?? 0) + 1;
    return {
      tenantId,
      id: CENSUS_ID,
      total: (doc?.total ?? 0) + (from ? 0 : 1),
      byStatus: moved(doc?.byStatus ?? {}, from?.status ?? null, to.status),
      byIsolation,
      _position: position,
    };
  });
}

function patientEvent(event: RecordedEvent, tx: ProjectionTx): Promise<void> | void {
  const tenantId = tenantOfStream(event.streamName);
  const data = event.data as { status?: string; isolation?: string[] };
  const change: { from: PatientMemberDoc | null; to: PatientMemberDoc | null } = { from: null, to: null };
  const applied = applyFold<PatientMemberDoc>(tx, FLOOR_PATIENTS, tenantId, aggregateIdOfStream(event.streamName), event, (doc) => {
    if (!doc && event.type !== 'PatientRegistered') return doc;
    const status = event.type === 'PatientIsolationChanged' ? doc!.status : (data.status ?? doc?.status ?? 'active');
    const isolation = event.type === 'PatientStatusChanged' ? doc!.isolation : (data.isolation ?? []);
    change.from = doc;
    change.to = { tenantId, id: aggregateIdOfStream(event.streamName), status, isolation, _position: Number(event.position) };
    return change.to;
  });
  return after(applied, () => (change.to ? foldCensus(tx, event, tenantId, change.from, change.to) : undefined));
}

function foldBoard(tx: ProjectionTx, event: RecordedEvent, from: SessionMemberDoc | null, to: SessionMemberDoc) {
  const { tenantId, date, locationId, shiftId } = to;
  const id = boardId(date, locationId, shiftId);
  const position = Number(event.position);
  return applyFold<BoardDoc>(tx, FLOOR_BOARD, tenantId, id, event, (doc) => ({
    tenantId,
    id,
    date,
    locationId,
    shiftId,
    counts: moved(doc?.counts ?? emptyCounts(), from ? COLUMN_OF[from.status] : null, COLUMN_OF[to.status]),
    _position: position,
  }));
}

function foldAwaiting(tx: ProjectionTx, event: RecordedEvent, from: SessionMemberDoc | null, to: SessionMemberDoc) {
  const was = from?.awaiting ?? null;
  if (was === to.awaiting) return;
  const position = Number(event.position);
  return applyFold<CountersDoc>(tx, FLOOR_COUNTERS, to.tenantId, AWAITING_ID, event, (doc) => {
    const counts = moved({ signature: doc?.signature ?? 0, validation: doc?.validation ?? 0 }, was, to.awaiting);
    return { tenantId: to.tenantId, id: AWAITING_ID, ...counts, _position: position };
  });
}

function sessionEvent(event: RecordedEvent, tx: ProjectionTx): Promise<void> | void {
  const status = statusAfter(event.type, event.data);
  if (status === null) return;
  const tenantId = tenantOfStream(event.streamName);
  const id = aggregateIdOfStream(event.streamName);
  const change: { from: SessionMemberDoc | null; to: SessionMemberDoc | null } = { from: null, to: null };
  const applied = applyFold<SessionMemberDoc>(tx, FLOOR_SESSIONS, tenantId, id, event, (doc) => {
    if (!doc) {
      // A session counts from its scheduling on: the board's date, location and shift never change after it.
      if (event.type !== 'SessionScheduled') return doc;
      const data = event.data as { patientId: string; date: string; locationId: string; shiftId: string };
      const base = { tenantId, id, patientId: data.patientId, date: data.date };
      change.to = {
        ...base,
        locationId: sharedString(data.locationId),
        shiftId: sharedString(data.shiftId),
        status,
        awaiting: null,
        _position: 0,
      };
    } else {
      if (doc.status === status) return doc;
      change.from = doc;
      change.to = { ...doc, status, awaiting: null };
    }
    change.to.awaiting = awaitingOf(status);
    change.to._position = Number(event.position);
    return change.to;
  });
  return after(applied, () => {
    const { from, to } = change;
    if (!to) return;
    return after(foldBoard(tx, event, from, to), () => foldAwaiting(tx, event, from, to));
  });
}

export const floorProjection: Projection = {
  name: FLOOR_PROJECTION,
  version: 1,
  collections: {
    // Counters before the memberships: written back first, so a membership (the guard) is never ahead of its counters.
    [FLOOR_COUNTERS]: [],
    [FLOOR_BOARD]: [{ keys: { tenantId: 1, date: 1, locationId: 1, shiftId: 1, id: 1 }, name: 'by_day' }],
    [FLOOR_PATIENTS]: [],
    [FLOOR_SESSIONS]: [{ keys: { tenantId: 1, awaiting: 1, date: 1, id: 1 }, name: 'by_awaiting_date' }],
  },
  eventTypes: [...STATUS_EVENT_TYPES, ...PATIENT_EVENT_TYPES],
  handle(event, tx) {
    const category = categoryOfStream(event.streamName);
    // Sign-in sessions also have a SessionStarted: only the dialysis session streams count here.
    if (category === SESSION_CATEGORY) return sessionEvent(event, tx);
    if (category === PATIENT_CATEGORY) return patientEvent(event, tx);
  },
};
