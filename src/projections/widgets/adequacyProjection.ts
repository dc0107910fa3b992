// Read models of the clinical quality widgets: per-day alert counters by kind, per-month adequacy counters (all locations
// and per location), small alert items (IDWG and UF-rate outliers among them), kept from the values the session was
// judged with at signing (or its last amendment); a per-session membership doc remembers what the session counts in.
import { SESSION_CATEGORY } from '../../commands/dialisis/session/sessionEvents.js';
import { SESSION_CONSEQUENCES_CATEGORY } from '../../commands/dialisis/consequences/consequenceEvents.js';
import { IDWG_ALERT_PERCENT, MISSED_IN_A_ROW } from '../../commands/dialisis/shared/alertRules.js';
import { aggregateIdOfStream, categoryOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import { applyFold, type ProjectedDoc, type Projection, type ProjectionTx } from '../runner/projection.js';
import {
  alertsOfJudgement,
  bucketOf,
  KTV_BUCKETS,
  measurementOf,
  URR_BUCKETS,
  type AlertEntry,
  type Judged,
  type Measurement,
} from './adequacyRules.js';

export const ADEQUACY_PROJECTION = 'widgets-adequacy';
export const ADEQUACY_DAYS = 'adequacyDays';
export const ADEQUACY_MONTHS = 'adequacyMonths';
export const ADEQUACY_ITEMS = 'adequacyItems';
export const ADEQUACY_PATIENTS = 'adequacyPatients';
export const ADEQUACY_SESSIONS = 'adequacySessions';

/** Alerts of one calendar day, by kind. */
export type DayDoc = ProjectedDoc & { date: string; counts: Record<string, number> };
/** The measured sessions of one month, all locations (`locationId` '') or one. */
export type MonthDoc = ProjectedDoc & {
  month: string;
  locationId: string;
  measured: number;
  atTarget: number;
  ktvSum: number;
  urrSum: number;
  urrCount: number;
  ktvBuckets: number[];
  urrBuckets: number[];
};
/** One alert (an outlier among them): kept while the session's judgement raises it. */
export type ItemDoc = ProjectedDoc & AlertEntry & { date: string; patientId: string; sessionId: string; severity: number };
/** A patient's latest attended or missed sessions, by date (for missed sessions in a row). */
export type PatientDoc = ProjectedDoc & { recent: { s: string; d: string; missed: boolean }[] };
/** What one session counts in. */
export type SessionMemberDoc = ProjectedDoc & {
  patientId: string;
  date: string;
  locationId: string;
  alerts: AlertEntry[];
  measured: Measurement | null;
};

const RECENT_KEPT = 2 * MISSED_IN_A_ROW + 2;

const EVENT_TYPES = [
  'SessionScheduled',
  'PatientCheckedIn',
  'SessionStarted',
  'SessionMarkedNoShow',
  'SessionCancelled',
  'SessionSignedByNurse',
  'SessionAmended',
  'ConsequenceRefused',
];

/** Applies the day counter's changes by kind in one fold (a second fold of the same event would be skipped). */
function countDay(tx: ProjectionTx, tenantId: string, event: RecordedEvent, date: string, delta: Map<string, number>) {
  const position = Number(event.position);
  return applyFold<DayDoc>(tx, ADEQUACY_DAYS, tenantId, date, event, (doc) => {
    const counts = { ...doc?.counts };
    for (const [kind, by] of delta) counts[kind] = Math.max(0, (counts[kind] ?? 0) + by);
    return { tenantId, id: date, date, counts, _position: position };
  });
}

function countMonth(
  tx: ProjectionTx,
  tenantId: string,
  event: RecordedEvent,
  key: { month: string; locationId: string },
  changes: [Measurement, number][],
) {
  const id = key.locationId ? `${key.month}@${key.locationId}` : key.month;
  return applyFold<MonthDoc>(tx, ADEQUACY_MONTHS, tenantId, id, event, (doc) => {
    const next: MonthDoc = doc
      ? { ...doc, ktvBuckets: [...doc.ktvBuckets], urrBuckets: [...doc.urrBuckets], _position: Number(event.position) }
      : {
          tenantId,
          id,
          ...key,
          measured: 0,
          atTarget: 0,
          ktvSum: 0,
          urrSum: 0,
          urrCount: 0,
          ktvBuckets: KTV_BUCKETS.labels.map(() => 0),
          urrBuckets: URR_BUCKETS.labels.map(() => 0),
          _position: Number(event.position),
        };
    for (const [m, by] of changes) {
      next.measured += by;
      next.atTarget += m.atTarget ? by : 0;
      next.ktvSum = Math.round((next.ktvSum + by * m.spKtV) * 100) / 100;
      next.ktvBuckets[bucketOf(KTV_BUCKETS, m.spKtV)]! += by;
      if (m.urrPercent !== null) {
        next.urrSum = Math.round((next.urrSum + by * m.urrPercent) * 10) / 10;
        next.urrCount += by;
        next.urrBuckets[bucketOf(URR_BUCKETS, m.urrPercent)]! += by;
      }
    }
    return next;
  });
}

const itemId = (sessionId: string, key: string): string => `${sessionId}|${key}`;

/** Moves a session from the alerts and measurement it counted in to those of its new state. */
async function moveSession(
  tx: ProjectionTx,
  event: RecordedEvent,
  member: SessionMemberDoc,
  next: { alerts: AlertEntry[]; measured: Measurement | null },
): Promise<void> {
  const { tenantId, id: sessionId, date, patientId, locationId } = member;
  const delta = new Map<string, number>();
  const count = (kind: string, by: number) => delta.set(kind, (delta.get(kind) ?? 0) + by);
  const before = new Set(member.alerts.map((a) => a.key));
  const after = new Set(next.alerts.map((a) => a.key));
  for (const old of member.alerts) {
    if (after.has(old.key)) continue;
    count(old.kind, -1);
    tx.delete(ADEQUACY_ITEMS, tenantId, itemId(sessionId, old.key));
  }
  const position = Number(event.position);
  for (const alert of next.alerts) {
    if (!before.has(alert.key)) count(alert.kind, 1);
    const severity = alert.value !== null && alert.threshold ? Math.round((alert.value / alert.threshold) * 1000) / 1000 : 0;
    const item: ItemDoc = {
      tenantId,
      id: itemId(sessionId, alert.key),
      ...alert,
      date,
      patientId,
      sessionId,
      severity,
      _position: position,
    };
    tx.put(ADEQUACY_ITEMS, item);
  }
  const work: Promise<void>[] = [];
  const later = (step: Promise<void> | void) => step && work.push(step);
  if (delta.size > 0) later(countDay(tx, tenantId, event, date, delta));
  const changes: [Measurement, number][] = [];
  if (member.measured) changes.push([member.measured, -1]);
  if (next.measured) changes.push([next.measured, 1]);
  if (changes.length > 0) {
    // A session's month and location never change: both sides fall in the same two documents.
    const month = date.slice(0, 7);
    later(countMonth(tx, tenantId, event, { month, locationId: '' }, changes));
    later(countMonth(tx, tenantId, event, { month, locationId }, changes));
  }
  await Promise.all(work);
  tx.put(ADEQUACY_SESSIONS, { ...member, alerts: next.alerts, measured: next.measured, _position: position });
}

/** The patient's run of missed sessions ending at this one: an alert when it makes exactly MISSED_IN_A_ROW. */
async function attendance(tx: ProjectionTx, event: RecordedEvent, member: SessionMemberDoc, missed: boolean | null): Promise<boolean> {
  const { tenantId, patientId, id: s, date: d } = member;
  const doc =
    tx.peek?.<PatientDoc>(ADEQUACY_PATIENTS, tenantId, patientId) ?? (await tx.get<PatientDoc>(ADEQUACY_PATIENTS, tenantId, patientId));
  let kept = doc?.recent ?? [];
  // Already applied (a replay after the patient's doc was written): its runs as they stand.
  if (!doc || doc._position < Number(event.position)) {
    const recent = kept.filter((r) => r.s !== s);
    if (missed !== null) recent.push({ s, d, missed });
    recent.sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : 0));
    kept = recent.slice(-RECENT_KEPT);
    tx.put(ADEQUACY_PATIENTS, { tenantId, id: patientId, recent: kept, _position: Number(event.position) });
  }
  if (!missed || member.alerts.some((a) => a.kind === 'missed-sessions')) return false;
  let run = 0;
  for (let i = kept.findIndex((r) => r.s === s); i >= 0 && kept[i]!.missed; i--) run++;
  return run === MISSED_IN_A_ROW;
}

async function handle(event: RecordedEvent, tx: ProjectionTx): Promise<void> {
  const category = categoryOfStream(event.streamName);
  if (category !== SESSION_CATEGORY && category !== SESSION_CONSEQUENCES_CATEGORY) return;
  const tenantId = tenantOfStream(event.streamName);
  const sessionId = aggregateIdOfStream(event.streamName);
  const position = Number(event.position);
  const data = event.data;
  if (event.type === 'SessionScheduled') {
    const { patientId, date, locationId } = data as { patientId: string; date: string; locationId: string };
    const member = { tenantId, id: sessionId, patientId, date, locationId, alerts: [], measured: null, _position: position };
    return applyFold<SessionMemberDoc>(tx, ADEQUACY_SESSIONS, tenantId, sessionId, event, (doc) => doc ?? member);
  }
  const member =
    tx.peek?.<SessionMemberDoc>(ADEQUACY_SESSIONS, tenantId, sessionId) ??
    (await tx.get<SessionMemberDoc>(ADEQUACY_SESSIONS, tenantId, sessionId));
  if (!member || member._position >= position) return;
  switch (event.type) {
    case 'PatientCheckedIn':
    case 'SessionStarted':
    case 'SessionCancelled':
    case 'SessionMarkedNoShow': {
      const missed = event.type === 'SessionMarkedNoShow' ? true : event.type === 'SessionCancelled' ? null : false;
      if (!(await attendance(tx, event, member, missed))) return;
      const alert: AlertEntry = {
        key: 'missed-sessions',
        kind: 'missed-sessions',
        value: MISSED_IN_A_ROW,
        threshold: MISSED_IN_A_ROW,
        detail: `${MISSED_IN_A_ROW} consecutive missed sessions: notify the payer`,
      };
      return moveSession(tx, event, member, { alerts: [...member.alerts, alert], measured: member.measured });
    }
    case 'SessionSignedByNurse':
    case 'SessionAmended': {
      const judged = data.judged as Judged | undefined;
      if (!judged) return;
      // The judgement's alerts replace the earlier judgement's; refused consequences and missed runs stay.
      const kept = member.alerts.filter((a) => a.kind === 'consequence-refused' || a.kind === 'missed-sessions');
      const alerts = [...kept, ...alertsOfJudgement(judged, IDWG_ALERT_PERCENT)];
      return moveSession(tx, event, member, { alerts, measured: measurementOf(judged) });
    }
    case 'ConsequenceRefused': {
      const { kind, itemId: item, code, message } = data as { kind: string; itemId: string; code: string; message: string };
      const key = `consequence-refused:${kind}:${item}`;
      if (member.alerts.some((a) => a.key === key)) return;
      const alert: AlertEntry = {
        key,
        kind: 'consequence-refused',
        value: null,
        threshold: null,
        detail: `${kind} of ${item} refused: ${message ?? code}`,
      };
      return moveSession(tx, event, member, { alerts: [...member.alerts, alert], measured: member.measured });
    }
  }
}

export const adequacyProjection: Projection = {
  name: ADEQUACY_PROJECTION,
  version: 1,
  // Counters and items first, then the patients' runs, then the memberships that guard them (a replay finds them undone).
  collections: {
    [ADEQUACY_DAYS]: [{ keys: { tenantId: 1, date: 1 }, name: 'by_date' }],
    [ADEQUACY_MONTHS]: [{ keys: { tenantId: 1, locationId: 1, month: 1 }, name: 'by_location_month' }],
    [ADEQUACY_ITEMS]: [
      { keys: { tenantId: 1, date: 1, id: 1 }, name: 'by_date' },
      { keys: { tenantId: 1, kind: 1, severity: -1, id: 1 }, name: 'by_kind_severity' },
    ],
    [ADEQUACY_PATIENTS]: [],
    [ADEQUACY_SESSIONS]: [],
  },
  eventTypes: EVENT_TYPES,
  handle,
};
