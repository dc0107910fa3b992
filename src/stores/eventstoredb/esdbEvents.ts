// EventStoreDB records as the port's events (the tenant chain link split off the metadata) and the catch-up
// subscription to $all.
import {
  START,
  excludeSystemEvents,
  streamNameFilter,
  type EventStoreDBClient,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import type { ChainedEvent, RecordedEvent, SubscribeOptions, Subscription } from '../eventStore.js';
import { splitChain } from './esdbChain.js';

export const UNKNOWN_POSITION = -1n;
/** Holds the one marker event naming this store (its identity). No tenant stream can have this name: it has no '.'. */
export const IDENTITY_STREAM = 'dialysis-store-identity';

export function subscribeToAll(
  client: EventStoreDBClient,
  options: SubscribeOptions,
  handler: (event: RecordedEvent) => Promise<void> | void,
): Subscription {
  const after = options.after ?? 0n;
  const subscription = client.subscribeToAll({
    fromPosition: after > 0n ? { commit: after, prepare: after } : START,
    // Server-side filters: the tenant's streams by prefix, or every non-system event.
    filter: options.tenant !== undefined ? streamNameFilter({ prefixes: [`${options.tenant}.`] }) : excludeSystemEvents(),
  });
  let stopped = false;
  let resolveFailed!: (error: Error) => void;
  const failed = new Promise<Error>((resolve) => (resolveFailed = resolve));

  // for await: the next event is not pulled before the handler's promise settles (strictly sequential).
  const loop = (async () => {
    let last = after;
    for await (const resolved of subscription) {
      if (stopped) return;
      const e = resolved.event;
      if (!e?.position || e.position.commit <= last) continue; // fromPosition is exclusive; this guards anyway
      if (!isApplicationEvent(e) || !matchesTenant(e.streamId, options.tenant)) continue;
      await handler(toRecorded(e));
      last = e.position.commit;
    }
    if (!stopped) throw new Error('EventStoreDB subscription ended unexpectedly');
  })().catch((err: unknown) => {
    if (stopped) return;
    stopped = true;
    resolveFailed(err instanceof Error ? err : new Error(String(err)));
    void subscription.unsubscribe().catch(() => undefined);
  });

  return {
    failed,
    async stop() {
      if (!stopped) {
        stopped = true;
        await subscription.unsubscribe().catch(() => undefined);
        subscription.destroy(); // ends the for-await even if the cancelled gRPC stream never ends
      }
      await loop;
    },
  };
}

/** Our events are JSON with a JSON metadata object; `$` streams and types belong to the server, the identity marker to the store. */
export function isApplicationEvent(e: EsdbRecordedEvent): boolean {
  return e.isJson && !e.streamId.startsWith('$') && !e.type.startsWith('$') && e.streamId !== IDENTITY_STREAM;
}

export function matchesTenant(stream: string, tenant: string | undefined): boolean {
  return tenant === undefined || stream.startsWith(`${tenant}.`);
}

/** A stored event with its chain hash (null for an event written before its tenant's chain began). */
export function toLinked(e: EsdbRecordedEvent): ChainedEvent {
  return { ...toRecorded(e), hash: splitChain(e.metadata as Record<string, unknown>).link?.hash ?? null };
}

/** Only chained events: the ones written before the tenant's chain began are not part of it. */
export function toChained(e: EsdbRecordedEvent): ChainedEvent | null {
  const linked = toLinked(e);
  return linked.hash === null ? null : linked;
}

export function toRecorded(e: EsdbRecordedEvent): RecordedEvent {
  const commit = e.position?.commit;
  // Stream reads on servers older than 22.6 carry no position (or ulong max): report it as unknown.
  const position = commit !== undefined && commit < 2n ** 63n ? commit : UNKNOWN_POSITION;
  return {
    id: e.id,
    type: e.type,
    data: e.data as Record<string, unknown>,
    metadata: splitChain(e.metadata as Record<string, unknown>).metadata,
    streamName: e.streamId,
    revision: Number(e.revision),
    position,
  };
}
