// Real stores behind switches that make them fail the way production stores do: a read store whose primary steps
// down (every read or write fails until it is back), an event store whose subscriptions drop. Everything else is the
// real store's behaviour. The read-store wrapper hides the embedded store's shared access, so documents go through
// bulkWrite as they do with MongoDB.
import type { Collection, ReadDoc, ReadStore } from '../../src/stores/readStore.js';
import type { EventStore, Subscription } from '../../src/stores/eventStore.js';

export interface ReadStoreFaults {
  /** While true, every write of a collection fails. */
  writesDown: boolean;
  /** While true, every read of a collection fails. */
  readsDown: boolean;
  /** The next this many bulk writes fail (the documents a projection writes back). */
  failBulkWrites: number;
  /** Calls refused so far. */
  refused: number;
}

export function faultyReadStore(inner: ReadStore): { store: ReadStore; faults: ReadStoreFaults } {
  const faults: ReadStoreFaults = { writesDown: false, readsDown: false, failBulkWrites: 0, refused: 0 };
  const guard = <R>(down: () => boolean, call: () => Promise<R>): Promise<R> => {
    if (!down()) return call();
    faults.refused++;
    return Promise.reject(new Error('simulated: not writable primary (the replica set is electing)'));
  };
  const writes = () => faults.writesDown;
  const reads = () => faults.readsDown;
  const store: ReadStore = {
    kind: inner.kind,
    async collection<T extends ReadDoc>(name: string, indexes?: Parameters<ReadStore['collection']>[1]): Promise<Collection<T>> {
      const c = await inner.collection<T>(name, indexes);
      return {
        name: c.name,
        find: (...a) => guard(reads, () => c.find(...a)),
        findOne: (...a) => guard(reads, () => c.findOne(...a)),
        get: (...a) => guard(reads, () => c.get(...a)),
        count: (...a) => guard(reads, () => c.count(...a)),
        replace: (...a) => guard(writes, () => c.replace(...a)),
        updateOne: (...a) => guard(writes, () => c.updateOne(...a)),
        deleteOne: (...a) => guard(writes, () => c.deleteOne(...a)),
        bulkWrite: (...a) =>
          guard(
            () => writes() || (faults.failBulkWrites > 0 && faults.failBulkWrites-- > 0),
            () => c.bulkWrite(...a),
          ),
        drop: () => guard(writes, () => c.drop()),
      };
    },
    listCollections: () => inner.listCollections(),
    dropCollection: (name) => inner.dropCollection(name),
    close: () => inner.close(),
  };
  return { store, faults };
}

export interface EventStoreFaults {
  /**
   * Ends every open subscription with an error, as a dropped EventStoreDB connection does; `whileStopped` runs once they
   * have stopped delivering and before their subscribers hear of it (what it appends reaches them only by a catch-up).
   */
  dropSubscriptions(whileStopped?: () => Promise<void>): Promise<void>;
  /** The next this many readAll calls fail. */
  failReadAll: number;
  /** Subscriptions opened so far. */
  subscriptions: number;
  /** From now on, every call reaches this store instead (an endpoint that now names another cluster). */
  replaceWith(other: EventStore): void;
}

export function faultyEventStore(first: EventStore): { store: EventStore; faults: EventStoreFaults } {
  let inner = first;
  const open = new Set<{ inner: Subscription; drop: (error: Error) => void }>();
  const faults: EventStoreFaults = {
    failReadAll: 0,
    subscriptions: 0,
    replaceWith: (other) => void (inner = other),
    async dropSubscriptions(whileStopped) {
      const dropping = [...open];
      for (const sub of dropping) {
        open.delete(sub);
        await sub.inner.stop();
      }
      await whileStopped?.();
      for (const sub of dropping) sub.drop(new Error('simulated: subscription dropped (connection reset)'));
    },
  };
  const store: EventStore = {
    kind: inner.kind,
    appendToStream: (...a) => inner.appendToStream(...a),
    readStream: (...a) => inner.readStream(...a),
    readEventById: (...a) => inner.readEventById(...a),
    readAll: (...a) => {
      if (faults.failReadAll > 0) {
        faults.failReadAll--;
        return Promise.reject(new Error('simulated: event store unavailable'));
      }
      return inner.readAll(...a);
    },
    subscribe(options, handler) {
      faults.subscriptions++;
      const sub = inner.subscribe(options, handler);
      let drop!: (error: Error) => void;
      const dropped = new Promise<Error>((resolve) => (drop = resolve));
      const entry = { inner: sub, drop };
      open.add(entry);
      return {
        failed: Promise.race([sub.failed, dropped]),
        stop: async () => {
          open.delete(entry);
          await sub.stop();
        },
      };
    },
    headPosition: (...a) => inner.headPosition(...a),
    readChain: (...a) => inner.readChain(...a),
    chainGenesis: (...a) => inner.chainGenesis(...a),
    chainHead: (...a) => inner.chainHead(...a),
    identity: () => inner.identity(),
    close: () => inner.close(),
  };
  return { store, faults };
}
