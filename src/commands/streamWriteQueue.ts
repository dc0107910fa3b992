// Writes to one stream from this process run one at a time: concurrent commands on one record would otherwise
// race on its revision and lose (409) even though none of them conflicts with another.
import type { EventStore } from '../stores/eventStore.js';

const queues = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

/** Runs `work` after every earlier write to `stream` through this store has settled. */
export async function serializedOnStream<T>(store: EventStore, stream: string, work: () => Promise<T>): Promise<T> {
  let tails = queues.get(store);
  if (!tails) queues.set(store, (tails = new Map<string, Promise<unknown>>()));
  const previous = tails.get(stream);
  const run = previous ? previous.then(work, work) : work();
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(stream, tail);
  // The last one out removes the entry, so the map holds only streams with writes in flight.
  void tail.then(() => {
    if (tails.get(stream) === tail) tails.delete(stream);
  });
  return run;
}

/** Pause before retrying a lost race against another process: exponential with full jitter, so racers spread out. */
export function retryDelayMs(attempt: number, baseMs = 5, capMs = 200): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** attempt);
}
