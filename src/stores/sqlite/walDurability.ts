// Durability of the event log off the event loop: SQLite runs with synchronous=NORMAL (a commit only writes its
// frames to the -wal file), and this module fdatasyncs that file on the libuv threadpool. A flush begun after a
// commit was visible makes it durable; one flush at a time (or up to WAL_FLUSHES_IN_FLIGHT, settled in the order they
// began), and the commits that land while they run share the next.
// Positions are committed in order (one writer at a time, no deletes), so "durable up to position P" is exact.
// Why the -wal file alone suffices: in WAL mode with synchronous=NORMAL SQLite syncs the WAL before each checkpoint
// and the database file after it (sqlite.org/pragma.html#pragma_synchronous), so a frame checkpointed before our
// flush is durable in the database file; a reset WAL is the same file rewritten from its start (or truncated per
// journal_size_limit), and SQLite deletes it only when the last connection closes, which ours is until close().
// The descriptor stays open from the start: Linux reports a writeback error to every descriptor open when it
// happened, so a page SQLite wrote and the kernel failed to write back fails our next fdatasync.
import fs from 'node:fs';
import path from 'node:path';
import { EventStoreUnusableError } from '../eventStore.js';
import { syncDirectory } from './sqliteSchema.js';
import { observeFsync } from '../../observability/metrics.js';

/** WAL_FLUSHES_IN_FLIGHT: flushes of the WAL that may run at once, 1 (the default) to 4. */
export function walFlushesInFlight(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  if (!/^[1-4]$/.test(value)) throw new Error(`WAL_FLUSHES_IN_FLIGHT must be a number of flushes from 1 to 4, got ${value}`);
  return Number(value);
}

/** Makes what was written to the file behind fd durable; the default is fdatasync on the threadpool. */
export type SyncWal = (fd: number) => Promise<void>;

export const fdatasyncOnThreadpool: SyncWal = (fd) =>
  new Promise((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));

export interface WalDurabilityOptions {
  /** The database file; its WAL is `<file>-wal`, which must exist (the connection is open in WAL mode). */
  file: string;
  /** The highest committed position, read at the start of each flush (commits of other processes included). */
  headPosition(): bigint;
  syncWal?: SyncWal;
  /** Called each time the durable position advances (new events may be announced). */
  onDurable(): void;
  /**
   * Flushes that may run at once (default 1): a commit made while one runs starts its own instead of waiting for it to
   * end and for the event loop to notice. They settle in the order they began.
   */
  flushesInFlight?: number;
  /** Called once when a flush fails: from then on nothing is known to be durable beyond what was. */
  onFailure(error: EventStoreUnusableError): void;
}

export interface WalDurability {
  /** Every committed event up to this position is on stable storage. */
  readonly durablePosition: bigint;
  /** Resolves once every committed event up to `position` is on stable storage; rejects after a failed flush. */
  durableUpTo(position: bigint): Promise<void>;
  /** Resolves after a flush begun from now: for writes that have no position (the store's identity). */
  syncNow(): Promise<void>;
  /** Lets a running flush end, then closes the file descriptor. */
  close(): Promise<void>;
}

interface Flush {
  upTo: bigint;
  /** Its fdatasync returned; it settles once every older flush has too. */
  synced: boolean;
  done: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function pendingFlush(upTo: bigint): Flush {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  done.catch(() => undefined); // reported through onFailure and to whoever waits on it
  return { upTo, synced: false, done, resolve, reject };
}

/**
 * Opens the -wal file (the connection holds it, so it is the inode SQLite writes), makes its directory entry
 * durable once, and syncs it once synchronously: a process killed before its flush left unsynced frames behind.
 */
export function openWalDurability(opts: WalDurabilityOptions): WalDurability {
  const walFile = `${opts.file}-wal`;
  // Read-write: some systems refuse fsync on a descriptor opened read-only. Nothing is ever written through it.
  const fd = fs.openSync(walFile, 'r+');
  const syncWal = opts.syncWal ?? fdatasyncOnThreadpool;
  let durable: bigint;
  try {
    syncDirectory(path.dirname(opts.file));
    const head = opts.headPosition();
    fs.fdatasyncSync(fd);
    durable = head;
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  /** Flushes running, oldest first; each settles only after every older one (a later success never hides an error). */
  const running: Flush[] = [];
  let next: Flush | null = null;
  let failure: EventStoreUnusableError | null = null;
  let closed = false;
  const inFlight = Math.max(1, opts.flushesInFlight ?? 1);

  /** A flush begun from now: at once while fewer than `inFlight` run, else the one that begins when one ends. */
  function flushBegunFromNow(floor: bigint): Promise<void> {
    if (closed) return Promise.reject(new Error('event store is closed'));
    if (running.length < inFlight) {
      const flush = pendingFlush(floor);
      start(flush);
      return flush.done;
    }
    next ??= pendingFlush(floor);
    if (floor > next.upTo) next.upTo = floor;
    return next.done;
  }

  function headOr(floor: bigint): bigint {
    try {
      const head = opts.headPosition();
      return head > floor ? head : floor;
    } catch {
      return floor; // what the caller saw committed is covered all the same
    }
  }

  function start(flush: Flush): void {
    running.push(flush);
    // Read right before the sync begins: everything committed up to here is in the file the sync flushes.
    flush.upTo = headOr(flush.upTo);
    const started = performance.now();
    syncWal(fd).then(
      () => {
        observeFsync((performance.now() - started) / 1000);
        flush.synced = true;
        finished();
      },
      (err: unknown) => failed(err),
    );
  }

  /** Settles the synced flushes at the head of the line, in the order they began. */
  function finished(): void {
    if (failure) return;
    let advanced = false;
    while (running[0]?.synced) {
      const flush = running.shift()!;
      if (flush.upTo > durable) durable = flush.upTo;
      flush.resolve();
      advanced = true;
    }
    if (next && !closed && running.length < inFlight) {
      const following = next;
      next = null;
      start(following);
    }
    if (advanced) opts.onDurable();
  }

  function failed(err: unknown): void {
    if (failure) return;
    const code = (err as { code?: string })?.code ?? String(err);
    // fsyncgate: after a failed fdatasync the kernel may have dropped the dirty pages; retrying proves nothing.
    failure = new EventStoreUnusableError(
      `${walFile}: fdatasync failed (${code}); which events reached the disk is unknown, so the event store stopped ` +
        'and refuses appends. Check the disk, then restart the service.',
    );
    for (const flush of [...running.splice(0), next]) flush?.reject(failure);
    next = null;
    opts.onFailure(failure);
  }

  return {
    get durablePosition() {
      return durable;
    },

    durableUpTo(position: bigint): Promise<void> {
      if (failure) return Promise.reject(failure);
      if (position <= durable) return Promise.resolve();
      const covering = running.find((flush) => position <= flush.upTo); // committed before that flush began
      return covering ? covering.done : flushBegunFromNow(position);
    },

    syncNow(): Promise<void> {
      if (failure) return Promise.reject(failure);
      return flushBegunFromNow(durable);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      next?.reject(new Error('event store is closed'));
      next = null;
      await Promise.all(running.map((flush) => flush.done.catch(() => undefined)));
      fs.closeSync(fd);
    },
  };
}
