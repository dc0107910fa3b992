// What a webhook carries: `{type, timestamp, data}` with data the change feed's envelope of the event. Only a company's
// record events go out (no access logs, unique-value claims, snapshots), and never a secret-bearing field.
import { feedShown, patientNamedBy, toFeedEvent, type FeedEvent } from '../../queries/sistema/feedEvents.js';
import { categoryOfStream, PLATFORM_TENANT, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

/** True for the events a company's integrators may receive: its record events the change feed shows. */
export function isCompanyRecordEvent(event: RecordedEvent): boolean {
  const tenant = tenantOfStream(event.streamName);
  return tenant !== '' && tenant !== PLATFORM_TENANT && feedShown(categoryOfStream(event.streamName));
}

export type FeedEnvelope = FeedEvent;

/** The change feed's envelope; its patient is the one the event names (the feed also knows a stream's owner). */
export const feedEnvelope = (event: RecordedEvent): FeedEnvelope => toFeedEvent(event, patientNamedBy(event));

/** The body of a delivery: the same bytes on every attempt. */
export const webhookBody = (event: RecordedEvent): string =>
  JSON.stringify({ type: event.type, timestamp: event.metadata.occurredAt, data: feedEnvelope(event) });

/** An endpoint takes an event when it lists its type, its record type (stream category) or `*`. */
export const selects = (eventTypes: readonly string[], event: RecordedEvent): boolean =>
  eventTypes.some((t) => t === '*' || t === event.type || t === categoryOfStream(event.streamName));
