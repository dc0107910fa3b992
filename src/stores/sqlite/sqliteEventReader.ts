// The event log as the projector thread reads it: a read-only connection to the file the main thread appends to,
// that hands out nothing past the position the main thread last announced as durable (after its fdatasync), so no
// read model gets ahead of the log. An announcement wakes the subscriptions; they also look every `pollMs`.
import Database from 'better-sqlite3';
import type { EventStore, ReadAllOptions, RecordedEvent, SubscribeOptions, Subscription } from '../eventStore.js';
import { assertValidRead } from '../eventMatching.js';
import { prepareStatements, toLazyRecordedEvent, toRecordedEvent } from './sqliteStatements.js';
import { sharedPageReader, startPollingSubscription } from './pollingSubscription.js';
import { DEFAULT_READ_ALL_PAGE } from './sqliteEventStore.js';
import { asUnusable } from './sqliteSchema.js';

const SUBSCRIPTION_PAGE = 500;

export interface SqliteEventReader extends EventStore {
  /** The main thread's word that the log is durable up to `position`: wakes the subscriptions. */
  durableUpTo(position: bigint): void;
}

export interface SqliteEventReaderOptions {
  file: string;
  /** The store's identity, as the main thread read it. */
  storeId: string;
  /** Durable up to here at the start. */
  durable: bigint;
  pollMs?: number;
}

export function openSqliteEventReader(opts: SqliteEventReaderOptions): SqliteEventReader {
  const db = new Database(opts.file, { readonly: true, fileMustExist: true, timeout: 10_000 });
  const st = prepareStatements(db);
  let durable = opts.durable;
  let closed = false;
  const listeners = new Set<() => void>();
  const subscriptions = new Set<Subscription>();
  const onCommit = (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  /** At most up to the durable position: rows past it are left for the announcement that covers them. */
  const readPage = (after: bigint, maxCount: number, tenant?: string, build = toRecordedEvent): RecordedEvent[] => {
    if (closed) throw new Error('event store is closed');
    let rows;
    try {
      rows = tenant === undefined ? st.allAfter.all(Number(after), maxCount) : st.tenantAfter.all(tenant, Number(after), maxCount);
    } catch (err) {
      throw asUnusable(opts.file, err); // a damaged page: the service stops, as it does when its own connection meets one
    }
    const page = rows.map(build);
    const cut = page.findIndex((e) => e.position > durable);
    return cut < 0 ? page : page.slice(0, cut);
  };
  const subscriptionPage = sharedPageReader((after, maxCount, tenant) => readPage(after, maxCount, tenant, toLazyRecordedEvent), onCommit);
  const notHere = (what: string) => () => Promise.reject(new Error(`${what} is not available in the projector thread`));

  return {
    kind: 'sqlite',
    durableUpTo(position: bigint) {
      if (position <= durable) return;
      durable = position;
      for (const listener of listeners) listener();
    },
    appendToStream: notHere('appendToStream'),
    readStream: notHere('readStream'),
    readEventById: notHere('readEventById'),
    readChain: notHere('readChain'),
    chainGenesis: notHere('chainGenesis'),
    chainHead: notHere('chainHead'),
    async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
      assertValidRead({ maxCount: options.maxCount });
      const limit = options.maxCount ?? DEFAULT_READ_ALL_PAGE;
      return limit === 0 ? [] : readPage(options.after ?? 0n, limit, options.tenant);
    },
    subscribe(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void> | void): Subscription {
      if (closed) throw new Error('event store is closed');
      const source = { readPage: (after: bigint, maxCount: number) => subscriptionPage(after, maxCount, options.tenant), onCommit };
      const sub = startPollingSubscription(
        source,
        { after: options.after ?? 0n, pageSize: SUBSCRIPTION_PAGE, pollMs: opts.pollMs ?? 300 },
        handler,
      );
      const tracked: Subscription = {
        failed: sub.failed,
        stop: async () => {
          subscriptions.delete(tracked);
          await sub.stop();
        },
      };
      subscriptions.add(tracked);
      void sub.failed.then(() => subscriptions.delete(tracked));
      return tracked;
    },
    async headPosition(tenant?: string): Promise<bigint> {
      if (tenant === undefined) return durable;
      const head = BigInt(st.tenantHead.get(tenant)?.p ?? 0);
      return head < durable ? head : durable;
    },
    identity: () => Promise.resolve(opts.storeId),
    async close(): Promise<void> {
      if (closed) return;
      await Promise.all([...subscriptions].map((s) => s.stop()));
      closed = true;
      db.close();
    },
  };
}
