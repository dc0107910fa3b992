// What a webhook carries: `{type, timestamp, data}` with data the change feed's envelope of the event. Only a company's
// record events go out (no access logs, unique-value claims, snapshots), and never a secret-bearing field.
// TODO(merge): the change feed builds this same envelope in src/queries/sistema/feedEvents.ts; switch to it.
import { SECRET_FIELDS } from '../../commands/sistema/webhooks/webhookEvents.js';
import { aggregateIdOfStream, categoryOfStream, PLATFORM_TENANT, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

/** Bookkeeping of the log, not a record's change. */
const HIDDEN_CATEGORIES = new Set(['accessLog']);
const HIDDEN_TYPES = new Set(['RecordAccessed', 'UniqueValueClaimed', 'UniqueValueReleased', 'AggregateSnapshotTaken']);

/** True for the events a company's integrators may receive: its record events. */
export function isCompanyRecordEvent(event: RecordedEvent): boolean {
  const tenant = tenantOfStream(event.streamName);
  const category = categoryOfStream(event.streamName);
  if (!tenant || tenant === PLATFORM_TENANT || !category) return false;
  return !HIDDEN_CATEGORIES.has(category) && !category.endsWith('Snapshot') && !HIDDEN_TYPES.has(event.type);
}

export interface FeedEnvelope {
  id: string;
  position: string;
  type: string;
  recordType: string;
  recordId: string;
  patientId: string | null;
  occurredAt: string;
  actor: string;
  correlationId: string;
  reason: string | null;
  data: Record<string, unknown>;
}

const secretFields = new Set<string>(SECRET_FIELDS);

export function feedEnvelope(event: RecordedEvent): FeedEnvelope {
  const recordType = categoryOfStream(event.streamName);
  const recordId = aggregateIdOfStream(event.streamName);
  const named = event.data.patientId;
  const patientId = typeof named === 'string' ? named : recordType === 'patient' ? recordId : null;
  const data = Object.fromEntries(Object.entries(event.data).filter(([key]) => !secretFields.has(key)));
  const m = event.metadata;
  return {
    id: event.id,
    position: event.position.toString(),
    type: event.type,
    recordType,
    recordId,
    patientId,
    occurredAt: m.occurredAt,
    actor: m.actor,
    correlationId: m.correlationId,
    reason: m.reason ?? null,
    data,
  };
}

/** The body of a delivery: the same bytes on every attempt. */
export const webhookBody = (event: RecordedEvent): string =>
  JSON.stringify({ type: event.type, timestamp: event.metadata.occurredAt, data: feedEnvelope(event) });

/** An endpoint takes an event when it lists its type, its record type (stream category) or `*`. */
export const selects = (eventTypes: readonly string[], event: RecordedEvent): boolean =>
  eventTypes.some((t) => t === '*' || t === event.type || t === categoryOfStream(event.streamName));
