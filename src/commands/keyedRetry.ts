// A keyed command (Idempotency-Key, or a process manager's key) that already ran answers with what it appended. Its
// events carry the key as commandId and ids derived from (stream, key), so its run is found by the id of its first
// event (an index lookup) instead of folding the whole stream: the load stays O(snapshot + recent events).
import type { EventStore, RecordedEvent } from '../stores/eventStore.js';
import type { LoadedAggregate } from './snapshots.js';
import { eventId } from './eventIds.js';

/** A command decides a handful of events: its run is read forwards from its first event in pages of this size. */
const RUN_PAGE = 8;

/** The seed of a keyed command's event ids (eventId(tenant, seed, index)): the same on every retry of the key. */
export const keyedIdSeed = (stream: string, key: string): string => `${stream}\u0000${key}`;

/** The events the command with this key appended to the stream, in order; [] when it never appended any. */
export async function earlierRun<S>(
  store: EventStore,
  stream: string,
  tenantId: string,
  key: string,
  loaded: LoadedAggregate<S>,
): Promise<RecordedEvent[]> {
  const inTail = loaded.events.filter((e) => e.metadata.commandId === key);
  // The whole stream is in hand (no snapshot), or the run is after the snapshot: the events read are the answer.
  if (inTail.length > 0 || loaded.events.length === loaded.revision + 1) return inTail;
  const first = await store.readEventById(stream, eventId(tenantId, keyedIdSeed(stream, key), 0));
  if (!first || first.metadata.commandId !== key) return [];
  const run: RecordedEvent[] = [first];
  for (let from = first.revision + 1; ; from += RUN_PAGE) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: RUN_PAGE });
    const same = page.findIndex((e) => e.metadata.commandId !== key);
    run.push(...(same < 0 ? page : page.slice(0, same)));
    if (same >= 0 || page.length < RUN_PAGE) return run;
  }
}

/** Whether the command with this key appended anything to the stream: one lookup of its first event's id. */
export async function keyedCommandRan(store: EventStore, stream: string, tenantId: string, key: string): Promise<boolean> {
  const first = await store.readEventById(stream, eventId(tenantId, keyedIdSeed(stream, key), 0));
  return first !== null && first.metadata.commandId === key;
}
