// The embedded event store: one SQLite file (WAL, synchronous=NORMAL), group-committed appends made durable by an
// fdatasync of the WAL off the event loop (walDurability.ts): an append resolves, and any read or subscription sees
// an event, only once it is on stable storage. Subscriptions also see appends made by other processes on the same
// file. An existing file is quick_checked in a child process while reads go on; appends wait for that check, so a corrupt
// file is never written, unless this store closed the file cleanly after verifying it and it is unchanged since
// (cleanClose.ts), or a run that had verified it crashed (verifiedRun.ts): then the check runs without holding appends.
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
import { sealCleanClose, takeCleanClose } from './cleanClose.js';
import { forgetVerifiedRun, markVerifiedRun, verifiedBeforeCrash } from './verifiedRun.js';
import { sqliteChainReads } from './sqliteChain.js';
import { sqliteEventLookup } from './sqliteEventLookup.js';
import { openWalDurability, type WalDurability } from './walDurability.js';
import { observeAppendBatch } from '../../observability/metrics.js';
import type { DiskFullReport } from '../eventStoreFull.js';
import { trackDiskFull } from './diskFullTracker.js';
import type { SqliteEventStoreTestHooks } from './storeTestHooks.js';

export interface SqliteEventStoreOptions extends SqliteEventStoreTestHooks {
  file: string;
  logger?: Logger;
  /** How often a live subscription looks for appends made by other processes (default 300 ms). */
  pollMs?: number;
  /** Flushes of the WAL that may run at once (WAL_FLUSHES_IN_FLIGHT, default 1): walDurability.ts. */
  walFlushesInFlight?: number;
}

/** Default page size of readAll when the caller gives no maxCount. */
export const DEFAULT_READ_ALL_PAGE = 1000;
const SUBSCRIPTION_PAGE = 500;
/** Upper bound of appends per transaction, so one huge burst does not stall the event loop for long. */
const MAX_BATCH = 2000;
const NO_LIMIT = -1; // SQLite: LIMIT -1 means no limit

/** The SQLite store: the EventStore port plus its background integrity check and its full-disk report. */
export type SqliteEventStore = EventStore & BackgroundIntegrity & DiskFullReport;

export async function openSqliteEventStore(opts: SqliteEventStoreOptions): Promise<SqliteEventStore> {
  const sealed = takeCleanClose(opts.file); // before the open touches the file
  const { db, created } = openEventDatabase(opts.file);
  let st: ReturnType<typeof prepareStatements>;
  let knownIdentity: string | null;
  let durability: WalDurability;
  const commitListeners = new Set<() => void>();
  const committedHead = (): bigint => BigInt(st.head.get()?.p ?? 0);
  try {
    st = prepareStatements(db);
    opts.onDatabaseOpen?.(db);
    // A file this process just created is written at once; an older one only after it passed its integrity check.
    knownIdentity = created ? ensureStoreIdentity(db) : readStoreIdentity(db);
    // Syncs the WAL once now (and with it the identity just written and what a killed process left unsynced).
    durability = openWalDurability({
      file: opts.file,
      headPosition: committedHead,
      ...(opts.syncWal ? { syncWal: opts.syncWal } : {}),
      ...(opts.walFlushesInFlight ? { flushesInFlight: opts.walFlushesInFlight } : {}),
      // New events are announced to subscriptions only once durable, so no read model gets ahead of the log.
      onDurable: () => {
        for (const listener of commitListeners) listener();
      },
      onFailure: walSyncFailed,
    });
    opts.logger?.info('event store opened', { kind: 'sqlite', file: opts.file, created, head: String(committedHead()) });
  } catch (err) {
    db.close();
    throw asUnusable(opts.file, err);
  }
  const writeBatch = createBatchWriter(db, st);
  const diskFull = trackDiskFull(opts.file, db);
  const pollMs = opts.pollMs ?? 300;

  const subscriptions = new Set<Subscription>();
  let queue: PendingAppend[] = [];
  let writeScheduled = false;
  let closed = false;
  /** Batches committed whose appends wait for their flush: close() lets them settle. */
  const settling = new Set<Promise<void>>();

  // A file this process just created needs no check; an existing one is checked on the second core.
  const check = created ? null : startIntegrityCheck(opts.file);
  const crashed = !created && !sealed && verifiedBeforeCrash(opts.file, knownIdentity);
  let integrityState: IntegrityState = check && !sealed && !crashed ? 'checking' : 'ok';
  if (knownIdentity !== null && (created || sealed)) markVerifiedRun(opts.file, knownIdentity);
  /** Whether this run verified the file (created it, or saw its check pass): only then does close() seal it. */
  let verified = created;
  if (check && sealed)
    opts.logger?.info('event store closed cleanly and unchanged since: appends go on while it is checked', { file: opts.file });
  if (check && crashed)
    opts.logger?.info('event store verified by the run that crashed: appends go on while it is checked', { file: opts.file });
  let integrityError: EventStoreUnusableError | null = null;
  const checkStarted = Date.now();
  const integrity = check ? check.done.then(integrityPassed, integrityFailed) : Promise.resolve();
  integrity.catch(() => undefined); // not a crash when nobody awaits it: appends and integrityState report it
  let resolveStopped!: (error: EventStoreUnusableError) => void;
  const stopped = new Promise<EventStoreUnusableError>((resolve) => (resolveStopped = resolve));
  const identity: Promise<string> =
    knownIdentity !== null
      ? Promise.resolve(knownIdentity)
      : integrity.then(async () => {
          assertOpen();
          const id = ensureStoreIdentity(db);
          await durability.syncNow(); // handed out only once durable: read models record it
          return id;
        });
  identity.catch(() => undefined); // reported to whoever asks for it

  function integrityPassed(): void {
    integrityState = 'ok';
    verified = true;
    void identity.then((id) => !closed && markVerifiedRun(opts.file, id)).catch(() => undefined);
    opts.logger?.info('event store integrity checked', { file: opts.file, ms: Date.now() - checkStarted });
    if (!closed && queue.length > 0) scheduleWrite(); // the appends that waited for the check
  }

  function integrityFailed(err: unknown): never {
    if (err instanceof IntegrityCheckStoppedError) throw err; // closed first: close() rejected the waiting appends
    integrityState = 'failed';
    integrityError = err instanceof EventStoreUnusableError ? err : new EventStoreUnusableError(String(err));
    forgetVerifiedRun(opts.file);
    opts.logger?.error('event store file failed its integrity check; appends are refused', {
      file: opts.file,
      error: integrityError.message,
    });
    rejectWaiting(integrityError);
    resolveStopped(integrityError);
    throw integrityError;
  }

  function rejectWaiting(error: Error): void {
    for (const p of queue.splice(0)) p.reject(error);
  }

  /** Fail-stop: a failed fdatasync leaves unknown what is on disk, so nothing more is written or acknowledged. */
  function walSyncFailed(error: EventStoreUnusableError): void {
    integrityState = 'failed';
    integrityError = error;
    forgetVerifiedRun(opts.file);
    opts.logger?.error('event store WAL sync failed; the store stopped', { file: opts.file, error: error.message });
    rejectWaiting(error);
    resolveStopped(error);
  }

  function writeQueued(): void {
    writeScheduled = false;
    if (integrityState !== 'ok') return; // held until the integrity check passes (or rejected if it fails)
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    if (queue.length > 0) scheduleWrite();
    if (batch.length === 0) return;
    let outcomes;
    const started = performance.now();
    try {
      outcomes = writeBatch(batch);
      observeAppendBatch(batch.length, (performance.now() - started) / 1000);
    } catch (err) {
      // The transaction failed as a whole (disk full, I/O error, lock timeout): nothing was written.
      opts.logger?.error('event store batch failed', { error: err, appends: batch.length });
      const refusal = diskFull.refused(err);
      for (const p of batch) p.reject(refusal);
      return;
    }
    if (outcomes.some((o) => 'ok' in o && o.wrote)) diskFull.committed();
    // Every outcome waits for a flush begun after this commit: also a retry's or a conflict's, which may rest on
    // events another batch committed and that are not durable yet.
    const head = headNow();
    const settled = (head === null ? durability.syncNow() : durability.durableUpTo(head)).then(
      () => outcomes.forEach((o, i) => ('error' in o ? batch[i]!.reject(diskFull.refused(o.error)) : batch[i]!.resolve(o.ok))),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
    settling.add(settled);
    void settled.finally(() => settling.delete(settled));
  }

  /** The highest committed position, or null when the file cannot tell (then a flush begun now covers all). */
  function headNow(): bigint | null {
    try {
      return committedHead();
    } catch {
      return null;
    }
  }

  function scheduleWrite(): void {
    if (writeScheduled) return;
    writeScheduled = true;
    // setImmediate: every append issued in this tick (and in the microtasks after it) joins the batch.
    setImmediate(writeQueued);
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

  /** A subscription's page: only durable events; newer ones (another process's) are flushed, then announced. */
  function readDurablePage(after: bigint, maxCount: number, tenant?: string, build = toRecordedEvent): RecordedEvent[] {
    const page = readPage(after, maxCount, tenant, build);
    const durable = durability.durablePosition;
    const cut = page.findIndex((e) => e.position > durable);
    if (cut < 0) return page;
    durability.durableUpTo(page[page.length - 1]!.position).catch(() => undefined); // onDurable wakes the reader
    return page.slice(0, cut);
  }

  /** Answers only with durable events: waits for a flush when the read met newer ones. */
  async function onlyDurable<T extends { position: bigint }>(events: T[]): Promise<T[]> {
    let highest = 0n;
    for (const e of events) if (e.position > highest) highest = e.position;
    await durability.durableUpTo(highest);
    return events;
  }

  function onCommit(listener: () => void): () => void {
    commitListeners.add(listener);
    return () => commitListeners.delete(listener);
  }
  // Subscribers mostly skip event types: data and metadata are parsed on first use, once for all of them.
  const subscriptionPage = sharedPageReader(
    (after, maxCount, tenant) => readDurablePage(after, maxCount, tenant, toLazyRecordedEvent),
    onCommit,
  );

  const store: SqliteEventStore = {
    kind: 'sqlite',
    integrity,
    stopped,
    get integrityState() {
      return integrityState;
    },
    get diskFull() {
      return !closed && diskFull.full;
    },

    appendToStream(stream: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
      return new Promise<AppendResult>((resolve, reject) => {
        if (closed) throw new Error('event store is closed');
        if (integrityError) throw integrityError;
        assertValidAppend(stream, events, options.expectedRevision);
        queue.push({ stream, events, expected: options.expectedRevision, resolve, reject });
        scheduleWrite();
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
      return onlyDurable(rows.map(toRecordedEvent));
    },

    async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
      assertOpen();
      assertValidRead({ maxCount: options.maxCount });
      const limit = options.maxCount ?? DEFAULT_READ_ALL_PAGE;
      if (limit === 0) return [];
      return onlyDurable(readPage(options.after ?? 0n, limit, options.tenant));
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
      const head = BigInt(row?.p ?? 0);
      await durability.durableUpTo(head); // a position handed out is never one a power cut could take back
      return head;
    },

    identity: () => identity,

    ...sqliteChainReads(st, async (events) => (assertOpen(), onlyDurable(events))),
    ...sqliteEventLookup(st, async (events) => (assertOpen(), onlyDurable(events))),

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([...subscriptions].map((s) => s.stop()));
      // Waits for a pragma already running in the worker to return: it holds the file open until then.
      await check?.stop();
      // Never acknowledged, so nothing is lost: the caller may retry once the file has been checked.
      if (integrityState !== 'ok')
        rejectWaiting(integrityError ?? new Error('event store closed before its integrity check finished; the append was not written'));
      while (queue.length > 0) writeQueued(); // appends accepted before close are still written (and flushed)
      await Promise.all(settling);
      await durability.close();
      db.close();
      forgetVerifiedRun(opts.file); // closed, not crashed: the clean seal (if any) speaks for the file now
      if (verified && integrityState === 'ok') sealCleanClose(opts.file);
      opts.logger?.info('event store closed', { kind: 'sqlite', file: opts.file });
    },
  };

  function assertOpen(): void {
    if (closed) throw new Error('event store is closed');
  }

  return store;
}
