// The SQLite read store's WAL checkpoints off the event loop: its writing connection never checkpoints by itself
// (wal_autocheckpoint = 0; only past 8 thresholds, should this worker be starved of CPU: afterCommit), and a worker thread with its own connection copies the log back into the file once the log has passed N pages
// since the last copy (read in the wal-index header of the -shm file, whose layout SQLite documents in walformat.html),
// and truncates the log once the writes have paused. A log that writes never let it catch up with is restarted
// (RESTART: the writer waits a moment), so the log stays bounded under constant load.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.js';

/** READ_STORE_CHECKPOINT_PAGES: 0 (the default) keeps SQLite's checkpoint inside the commit that crosses 10,000 pages. */
export function readStoreCheckpointPages(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  if (!/^\d+$/.test(value) || Number(value) > 1_000_000)
    throw new Error(`READ_STORE_CHECKPOINT_PAGES must be a number of pages (0 = checkpoints inside commits), got ${value}`);
  return Number(value);
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const os = require('node:os');
const Database = require(workerData.driver);
const { file, pages, pollMs, idleMs } = workerData;
const lock = new Int32Array(workerData.lock);
const little = os.endianness() === 'LE';
const header = Buffer.alloc(136);
let db = null;
let shm = null;
let stopping = false;
let lastFrame = -1;
let changedAt = Date.now();
let truncated = false;
const counts = { passive: 0, restart: 0, truncate: 0, failures: 0 };
let reported = 0;

/** mxFrame (the log's last valid frame) and nBackfill (frames copied back) of the wal-index; null when unreadable. */
function logState() {
  try {
    if (shm === null) shm = fs.openSync(file + '-shm', 'r');
    if (fs.readSync(shm, header, 0, 136, 0) < 136) return null;
    const u32 = (at) => (little ? header.readUInt32LE(at) : header.readUInt32BE(at));
    return { frames: u32(16), backfilled: u32(96) };
  } catch {
    return null;
  }
}

/** One checkpoint, never while the event loop glances at the file's header (the lock: 0 free, 1 ours, 2 theirs). */
function checkpoint(mode) {
  while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) Atomics.wait(lock, 0, 2, 5);
  try {
    const [row] = db.pragma('wal_checkpoint(' + mode + ')');
    counts[mode.toLowerCase()]++;
    return row.busy === 0;
  } finally {
    Atomics.store(lock, 0, 0);
    Atomics.notify(lock, 0);
  }
}

function tick() {
  if (stopping) return;
  try {
    db ??= new Database(file, { fileMustExist: true, timeout: 2000 });
    const state = logState();
    const now = Date.now();
    if (state && state.frames !== lastFrame) {
      lastFrame = state.frames;
      changedAt = now;
      truncated = false;
    }
    const behind = state ? state.frames - state.backfilled : pages;
    if (behind >= pages) {
      // Passes over the tail the writer added meanwhile, until it is small: a write after one that caught up restarts the log.
      let after = state;
      for (let i = 0; i < 2 && !stopping; i++) {
        checkpoint('PASSIVE');
        after = logState();
        if (!after || after.frames - after.backfilled < pages / 8 || after.frames >= 4 * pages) break;
      }
      // Writes that never pause never let a pass catch up: past 4 thresholds, the writer waits while the tail is copied.
      if (after && after.frames >= 4 * pages && !stopping) checkpoint('RESTART');
    } else if (!truncated && state && state.frames > 0 && now - changedAt >= idleMs) {
      truncated = checkpoint('TRUNCATE');
    }
  } catch (error) {
    counts.failures++;
    parentPort.postMessage({ failure: { code: String((error && error.code) || ''), message: String((error && error.message) || error) } });
  }
  const made = counts.passive + counts.restart + counts.truncate + counts.failures;
  if (made !== reported) parentPort.postMessage({ counts });
  reported = made;
  setTimeout(tick, pollMs);
}

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  stopping = true;
  if (shm !== null) fs.closeSync(shm);
  if (db) db.close();
  parentPort.close();
});
setTimeout(tick, pollMs);
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');
/** How long a stop lets a checkpoint under way end by itself before terminating the worker. */
const STOP_GRACE_MS = 2_000;

export interface CheckpointCounts {
  passive: number;
  restart: number;
  truncate: number;
  failures: number;
  /** RESTARTs the writer made itself (afterCommit). */
  safetyNet: number;
}

/** The log length, in thresholds, past which the writer restarts it itself after a commit (a worker starved of CPU). */
const SAFETY_NET = 8;

export interface WalCheckpointer {
  /** After a commit of the writing connection: past SAFETY_NET thresholds, a RESTART checkpoint here (rare; it waits). */
  afterCommit(db: { pragma(sql: string): unknown }): void;
  /** Runs `fn(true)` while no checkpoint is under way (none starts before it returns), `fn(false)` while one is. */
  outsideCheckpoints<R>(fn: (quiet: boolean) => R): R;
  /** Checkpoints made so far (as last reported by the worker). */
  readonly counts: CheckpointCounts;
  /** Ends the worker and closes its connection (a checkpoint under way ends first). */
  stop(): Promise<void>;
}

export interface WalCheckpointerOptions {
  file: string;
  /** Copy the log back once it has passed this many pages since the last copy. */
  pages: number;
  logger?: Logger;
  pollMs?: number;
  /** Truncate the log after writes have paused this long. */
  idleMs?: number;
}

export function startWalCheckpointer(opts: WalCheckpointerOptions): WalCheckpointer {
  const lockBuffer = new SharedArrayBuffer(4);
  const lock = new Int32Array(lockBuffer);
  const counts: CheckpointCounts = { passive: 0, restart: 0, truncate: 0, failures: 0, safetyNet: 0 };
  // execArgv []: the worker needs no TypeScript loader.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { driver, file: opts.file, pages: opts.pages, pollMs: opts.pollMs ?? 10, idleMs: opts.idleMs ?? 1_000, lock: lockBuffer },
  });
  worker.unref();
  let failing = false;
  worker.on('message', (m: { counts?: CheckpointCounts; failure?: { code: string; message: string } }) => {
    if (m.counts) Object.assign(counts, m.counts);
    if (m.failure && !failing) opts.logger?.warn('read store: a background WAL checkpoint failed; it is tried again', m.failure);
    if (m.failure) failing = true;
    else if (m.counts) failing = false;
  });
  worker.on('error', (error) => opts.logger?.error('read store: the WAL checkpoint worker stopped', { error }));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const header = Buffer.alloc(20);
  let shm: number | null = null;
  const logFrames = (): number => {
    try {
      shm ??= fs.openSync(`${opts.file}-shm`, 'r');
      if (fs.readSync(shm, header, 0, 20, 0) < 20) return 0;
      return os.endianness() === 'LE' ? header.readUInt32LE(16) : header.readUInt32BE(16);
    } catch {
      return 0;
    }
  };
  return {
    counts,
    afterCommit(db) {
      if (logFrames() < SAFETY_NET * opts.pages) return;
      // The worker's checkpoint under way ends first (two checkpoints never run at once: the second would give up).
      while (Atomics.compareExchange(lock, 0, 0, 2) !== 0) Atomics.wait(lock, 0, 1, 5);
      try {
        db.pragma('wal_checkpoint(RESTART)');
        counts.safetyNet++;
      } finally {
        Atomics.store(lock, 0, 0);
        Atomics.notify(lock, 0);
      }
    },
    outsideCheckpoints<R>(fn: (quiet: boolean) => R): R {
      if (Atomics.compareExchange(lock, 0, 0, 2) !== 0) return fn(false);
      try {
        return fn(true);
      } finally {
        Atomics.store(lock, 0, 0);
        Atomics.notify(lock, 0);
      }
    },
    async stop() {
      if (shm !== null) fs.closeSync(shm);
      shm = null;
      worker.postMessage('stop');
      // A worker terminated inside a SQLite call can abort the process: a checkpoint under way is let end by itself.
      const grace = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
      await exited;
      clearTimeout(grace);
    },
  };
}
