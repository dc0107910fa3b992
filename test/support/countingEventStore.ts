// A real event store that counts the events each stream read returns: a test can then hold a command to a bounded read
// (cost in events read, not in time, so the test does not depend on the machine).
import type { EventStore } from '../../src/stores/eventStore.js';

export interface ReadCounts {
  /** Events returned by readStream (and readEventById) so far, per stream name. */
  byStream: Map<string, number>;
  /** readStream calls so far, per stream name (a fold of an empty stream still counts as a read). */
  callsByStream: Map<string, number>;
  /** Events returned by readStream so far, over every stream. */
  total(): number;
  /** Events returned so far by streams whose name starts with this prefix. */
  under(prefix: string): number;
  reset(): void;
}

export function countingEventStore(inner: EventStore): { store: EventStore; reads: ReadCounts } {
  const byStream = new Map<string, number>();
  const callsByStream = new Map<string, number>();
  const reads: ReadCounts = {
    byStream,
    callsByStream,
    total: () => [...byStream.values()].reduce((a, b) => a + b, 0),
    under: (prefix) => [...byStream].filter(([name]) => name.startsWith(prefix)).reduce((a, [, n]) => a + n, 0),
    reset: () => {
      byStream.clear();
      callsByStream.clear();
    },
  };
  const store: EventStore = {
    kind: inner.kind,
    appendToStream: (...a) => inner.appendToStream(...a),
    async readStream(stream, options) {
      const events = await inner.readStream(stream, options);
      byStream.set(stream, (byStream.get(stream) ?? 0) + events.length);
      callsByStream.set(stream, (callsByStream.get(stream) ?? 0) + 1);
      return events;
    },
    async readEventById(stream, eventId) {
      const event = await inner.readEventById(stream, eventId);
      byStream.set(stream, (byStream.get(stream) ?? 0) + (event ? 1 : 0));
      callsByStream.set(stream, (callsByStream.get(stream) ?? 0) + 1);
      return event;
    },
    readAll: (...a) => inner.readAll(...a),
    subscribe: (...a) => inner.subscribe(...a),
    headPosition: (...a) => inner.headPosition(...a),
    readChain: (...a) => inner.readChain(...a),
    chainGenesis: (...a) => inner.chainGenesis(...a),
    chainHead: (...a) => inner.chainHead(...a),
    identity: () => inner.identity(),
    close: () => inner.close(),
  };
  return { store, reads };
}
