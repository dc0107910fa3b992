// The embedded event store: one SQLite file (WAL, synchronous=FULL), group-committed appends,
// catch-up subscriptions that also see appends made by other processes on the same file. An existing file is
// quick_checked in a worker while reads go on; appends wait for that check, so a corrupt file is never written.
import type { Logger } from '../../logger.js';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../eventStore.js';
import { EventStoreUnusableError } from '../eventStore.js';
import { assertValidAppend, assertValidRead } from '../eventMatching.js';
import { asUnusable, openEventDatabase } from './sqliteSchema.js';
import { IntegrityCheckStoppedError, startIntegrityCheck, type BackgroundIntegrity, type IntegrityState } from './integrityCheck.js';
import { prepareStatements, toLazyRecordedEvent, toRecordedEvent } from './sqliteStatements.js';
import { createBatchWriter, type PendingAppend } from './sqliteAppendBatch.js';
import { sharedPageReader, startPollingSubscription } from './pollingSubscription.js';
import { ensureStoreIdentity, readStoreIdentity } from './storeIdentity.js';

export interface SqliteEventStoreOptions {
  file: string;
  logger?: Logger;
  /** How often a live subscription looks for appends made by other processes (default 300 ms). */
  pollMs?: number;
}

/** Default page size of readAll when the caller gives no maxCount. */
export const DEFAULT_READ_ALL_PAGE = 1000;
const SUBSCRIPTION_PAGE = 500;
/** Upper bound of appends per transaction, so one huge burst does not stall the event loop for long. */
const MAX_BATCH = 2000;
const NO_LIMIT = -1; // SQLite: LIMIT -1 means no limit

/** The SQLite store: the EventStore port plus its background integrity check. */
export type SqliteEventStore = EventStore & BackgroundIntegrity;

export async function openSqliteEventStore(opts: SqliteEventStoreOptions): Promise<SqliteEventStore> {
  const { db, created } = openEventDatabase(opts.file);
  let st: ReturnType<typeof prepareStatements>;
  let knownIdentity: string | null;
  try {
    st = prepareStatements(db);
    // A file this process just created is written at once; an older one only after it passed its integrity check.
    knownIdentity = created ? ensureStoreIdentity(db) : readStoreIdentity(db);
    opts.logger?.info('event store opened', { kind: 'sqlite', file: opts.file, created, head: String(st.head.get()?.p ?? 0) });
  } catch (err) {
    db.close();
    throw asUnusable(opts.file, err);
  }
  const writeBatch = createBatchWriter(db, st);
  const pollMs = opts.pollMs ?? 300;

  const commitListeners = new Set<() => void>();
  const subscriptions = new Set<Subscription>();
  let queue: PendingAppend[] = [];
  let flushScheduled = false;
  let closed = false;

  // A file this process just created needs no check; an existing one is checked on the second core.
  const check = created ? null : startIntegrityCheck(opts.file);
  let integrityState: IntegrityState = check ? 'checking' : 'ok';
  let integrityError: EventStoreUnusableError | null = null;
  const checkStarted = Date.now();
  const integrity = check ? check.done.then(integrityPassed, integrityFailed) : Promise.resolve();
  integrity.catch(() => undefined); // not a crash when nobody awaits it: appends and integrityState report it
  const identity: Promise<string> =
    knownIdentity !== null
      ? Promise.resolve(knownIdentity)
      : integrity.then(() => {
          assertOpen();
          return ensureStoreIdentity(db);
        });
  identity.catch(() => undefined); // reported to whoever asks for it

  function integrityPassed(): void {
    integrityState = 'ok';
    opts.logger?.info('event store integrity checked', { file: opts.file, ms: Date.now() - checkStarted });
    if (!closed && queue.length > 0) scheduleFlush(); // the appends that waited for the check
  }

  function integrityFailed(err: unknown): never {
    if (err instanceof IntegrityCheckStoppedError) throw err; // closed first: close() rejected the waiting appends
    integrityState = 'failed';
    integrityError = err instanceof EventStoreUnusableError ? err : new EventStoreUnusableError(String(err));
    opts.logger?.error('event store file failed its integrity check; appends are refused', {
      file: opts.file,
      error: integrityError.message,
    });
    rejectWaiting(integrityError);
    throw integrityError;
  }

  function rejectWaiting(error: Error): void {
    for (const p of queue.splice(0)) p.reject(error);
  }

  function flush(): void {
    flushScheduled = false;
    if (integrityState !== 'ok') return; // held until the integrity check passes (or rejected if it fails)
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    if (queue.length > 0) scheduleFlush();
    if (batch.length === 0) return;
    let outcomes;
    try {
      outcomes = writeBatch(batch);
    } catch (err) {
      // The transaction failed as a whole (disk full, I/O error, lock timeout): nothing was written.
      opts.logger?.error('event store batch failed', { error: err, appends: batch.length });
      for (const p of batch) p.reject(err);
      return;
    }
    let wrote = false;
    outcomes.forEach((o, i) => {
      if ('error' in o) batch[i]!.reject(o.error);
      else {
        wrote ||= o.wrote;
        batch[i]!.resolve(o.ok);
      }
    });
    if (wrote) for (const listener of commitListeners) listener();
  }

  function scheduleFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    // setImmediate: every append issued in this tick (and in the microtasks after it) joins the batch.
    setImmediate(flush);
  }

  function readPage(after: bigint, maxCount: number, tenant?: string, build = toRecordedEvent): RecordedEvent[] {
    let rows;
    try {
      rows = tenant === undefined ? st.allAfter.all(Number(after), maxCount) : st.tenantAfter.all(tenant, Number(after), maxCount);
    } catch (err) {
      throw asUnusable(opts.file, err); // a damaged page met before the background check reported it
    }
    return rows.map(build);
  }

  function onCommit(listener: () => void): () => void {
    commitListeners.add(listener);
    return () => commitListeners.delete(listener);
  }
  // Subscribers mostly skip event types: data and metadata are parsed on first use, once for all of them.
  const subscriptionPage = sharedPageReader((after, maxCount, tenant) => readPage(after, maxCount, tenant, toLazyRecordedEvent), onCommit);

  const store: SqliteEventStore = {
    kind: 'sqlite',
    integrity,
    get integrityState() {
      return integrityState;
    },

    appendToStream(stream: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
      return new Promise<AppendResult>((resolve, reject) => {
        if (closed) throw new Error('event store is closed');
        if (integrityError) throw integrityError;
        assertValidAppend(stream, events, options.expectedRevision);
        queue.push({ stream, events, expected: options.expectedRevision, resolve, reject });
        scheduleFlush();
      });
    },

    async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
      assertOpen();
      assertValidRead({ fromRevision: options.fromRevision, maxCount: options.maxCount });
      const limit = options.maxCount ?? NO_LIMIT;
      if (limit === 0) return [];
      const rows =
        options.direction === 'backwards'
          ? st.streamBackwards.all(stream, options.fromRevision ?? Number.MAX_SAFE_INTEGER, limit)
          : st.streamForwards.all(stream, options.fromRevision ?? 0, limit);
      return rows.map(toRecordedEvent);
    },

    async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
      assertOpen();
      assertValidRead({ maxCount: options.maxCount });
      const limit = options.maxCount ?? DEFAULT_READ_ALL_PAGE;
      if (limit === 0) return [];
      return readPage(options.after ?? 0n, limit, options.tenant);
    },

    subscribe(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void> | void): Subscription {
      assertOpen();
      const source = {
        readPage: (after: bigint, maxCount: number) => subscriptionPage(after, maxCount, options.tenant),
        onCommit,
      };
      const sub = startPollingSubscription(source, { after: options.after ?? 0n, pageSize: SUBSCRIPTION_PAGE, pollMs }, handler);
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
      assertOpen();
      const row = tenant === undefined ? st.head.get() : st.tenantHead.get(tenant);
      return BigInt(row?.p ?? 0);
    },

    identity: () => identity,

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([...subscriptions].map((s) => s.stop()));
      // Waits for a pragma already running in the worker to return: it holds the file open until then.
      await check?.stop();
      // Never acknowledged, so nothing is lost: the caller may retry once the file has been checked.
      if (integrityState !== 'ok')
        rejectWaiting(integrityError ?? new Error('event store closed before its integrity check finished; the append was not written'));
      while (queue.length > 0) flush(); // appends accepted before close are still written
      db.close();
      opts.logger?.info('event store closed', { kind: 'sqlite', file: opts.file });
    },
  };

  function assertOpen(): void {
    if (closed) throw new Error('event store is closed');
  }

  return store;
}
