// The webhook delivery log: one document per (endpoint, event) in the company's scope, with its attempts, and a small
// platform-wide index of the deliveries due (the dispatcher's queue). Kept in the read store beside the process
// checkpoints, not in a projection: a rebuild never drops it. The id is the `webhook-id`, derived from the pair, so a
// replay of the log after a restart finds the delivery it already made instead of making a second one.
import { uuidV5 } from '../../commands/eventIds.js';
import { changedSince } from '../../queries/changedSince.js';
import { PLATFORM_DOCS, type Collection, type ReadDoc, type ReadStore } from '../../stores/readStore.js';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryAttempt {
  at: string;
  statusCode: number | null;
  durationMs: number;
  /** The start of the response body (truncated), or null. */
  responseBody: string | null;
  /** Why no status came back (timeout, refused target, connection error), or null. */
  error: string | null;
  /** A replay asked for by hand. */
  manual: boolean;
}

export interface DeliveryDoc extends ReadDoc {
  endpointId: string;
  eventId: string;
  eventType: string;
  position: string;
  /** The JSON body sent, the same on every attempt. */
  body: string;
  /** W3C traceparent sent with it: the causing event's trace, the delivery's own span (absent outside a trace). */
  traceparent?: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Attempts made in the current round: the schedule's, or a manual replay's one. */
  roundAttempts: number;
  manualRound: boolean;
  nextAttemptAt: string | null;
  createdAt: string;
  /** The last change (made, attempted, replayed, cancelled): what `updatedSince` compares. */
  updatedAt: string;
}

export interface DueDoc extends ReadDoc {
  companyId: string;
  dueAt: string;
}

/** Attempts kept per delivery: the oldest go first. */
export const MAX_KEPT_ATTEMPTS = 30;

const handles = new WeakMap<ReadStore, Promise<{ deliveries: Collection<DeliveryDoc>; due: Collection<DueDoc> }>>();

export function deliveryLog(reads: ReadStore): Promise<{ deliveries: Collection<DeliveryDoc>; due: Collection<DueDoc> }> {
  let handle = handles.get(reads);
  if (!handle) {
    handle = (async () => ({
      deliveries: await reads.collection<DeliveryDoc>('webhook_deliveries', [
        { keys: { tenantId: 1, endpointId: 1, createdAt: -1, id: 1 }, name: 'by_endpoint' },
      ]),
      due: await reads.collection<DueDoc>('webhook_due', [{ keys: { tenantId: 1, dueAt: 1, id: 1 }, name: 'by_due' }]),
    }))();
    handles.set(reads, handle);
    handle.catch(() => handles.delete(reads));
  }
  return handle;
}

/** The `webhook-id` of an event sent to an endpoint: the same on every attempt, retry and replay. */
export const deliveryIdOf = (endpointId: string, eventId: string): string =>
  `msg_${uuidV5(`webhook\u0000${endpointId}\u0000${eventId}`).replace(/-/g, '')}`;

/** Puts a delivery in the queue (or takes it out with null). */
export async function schedule(reads: ReadStore, delivery: Pick<DeliveryDoc, 'id' | 'tenantId'>, dueAt: string | null): Promise<void> {
  const { due } = await deliveryLog(reads);
  if (dueAt === null) await due.deleteOne(PLATFORM_DOCS, delivery.id);
  else await due.replace({ tenantId: PLATFORM_DOCS, id: delivery.id, companyId: delivery.tenantId, dueAt });
}

/** What the delivery log shows: the delivery without its scope or body. */
export function deliveryView(doc: DeliveryDoc): Record<string, unknown> {
  const { id, eventId, eventType, position, status, attempts, nextAttemptAt, createdAt } = doc;
  return { id, eventId, eventType, position, status, attempts, nextAttemptAt, createdAt };
}

/** An endpoint's deliveries, newest first. */
export async function listDeliveries(
  reads: ReadStore,
  companyId: string,
  endpointId: string,
  query: { status?: DeliveryStatus; limit: number; cursor?: string; updatedSince?: string },
): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> {
  const { deliveries } = await deliveryLog(reads);
  const filter = { endpointId, ...(query.status ? { status: query.status } : {}), ...changedSince(query.updatedSince, 'updatedAt') };
  const page = await deliveries.find(companyId, filter, { sort: { createdAt: -1 }, limit: query.limit, after: query.cursor ?? null });
  return { items: page.items.map(deliveryView), nextCursor: page.nextCursor };
}

/**
 * A manual replay: one more attempt, as soon as the dispatcher runs, with the same webhook-id. Null when the endpoint
 * has no such delivery; 'pending' when it is still being retried.
 */
export async function replayDelivery(
  reads: ReadStore,
  companyId: string,
  endpointId: string,
  deliveryId: string,
  now: Date,
): Promise<DeliveryDoc | null | 'pending'> {
  const { deliveries } = await deliveryLog(reads);
  const doc = await deliveries.get(companyId, deliveryId);
  if (!doc || doc.endpointId !== endpointId) return null;
  if (doc.status === 'pending') return 'pending';
  const at = now.toISOString();
  const replayed: DeliveryDoc = { ...doc, status: 'pending', roundAttempts: 0, manualRound: true, nextAttemptAt: at, updatedAt: at };
  await deliveries.replace(replayed);
  await schedule(reads, replayed, at);
  return replayed;
}
