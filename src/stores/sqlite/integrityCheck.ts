// The full PRAGMA quick_check reads every page of the file (seconds on a large log), so it runs in a worker
// thread on its own read-only connection, on the second core, while the service catches up. The cheap checks
// (header, application_id, user_version, schema) stay synchronous at open: see sqliteSchema.ts.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { EventStoreUnusableError, type EventStore } from '../eventStore.js';

export type IntegrityState = 'checking' | 'ok' | 'failed';

/** Optional members of an event store that verifies its file in the background (the SQLite store does). */
export interface BackgroundIntegrity {
  /** Resolves once the file passed the check; rejects with EventStoreUnusableError when it is corrupt. */
  readonly integrity: Promise<void>;
  /** 'checking' until the check has settled; appends wait while it is 'checking' and fail once it is 'failed'. */
  readonly integrityState: IntegrityState;
  /** Resolves when the store stopped because its file is unusable (failed check, failed WAL sync); never otherwise. */
  readonly stopped: Promise<EventStoreUnusableError>;
}

/** The background check of a store, or null for a store that has none (EventStoreDB). */
export function backgroundIntegrityOf(store: EventStore): BackgroundIntegrity | null {
  return 'integrityState' in store ? (store as EventStore & BackgroundIntegrity) : null;
}

/** Rejection of the check when the store was closed before it finished (the file was not found corrupt). */
export class IntegrityCheckStoppedError extends Error {
  constructor(file: string) {
    super(`${file}: the event store was closed before its integrity check finished`);
    this.name = 'IntegrityCheckStoppedError';
  }
}

/** `finding`: what showed the damage, e.g. 'PRAGMA quick_check: ...' or the SQLite error of a read. */
export function corruptFileMessage(file: string, finding: string): string {
  return `${file} is corrupt (${finding}); refusing to write to it. Restore it from a backup; the file was left untouched.`;
}

/** The first findings on one line, without SQLite's '*** in database main ***' heading. */
function problemsText(problems: string[]): string {
  return problems
    .slice(0, 3)
    .map((p) => p.replace(/^\*\*\* in database \w+ \*\*\*\s*/, '').replace(/\s*\n\s*/g, '; '))
    .join('; ');
}

// Plain CommonJS evaluated in the worker, so it runs the same under tsx, mocha and a tsc build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db = null;
let problems;
let failure = null;
try {
  // Read-only: no checkpoint on close, nothing is ever written by this connection.
  db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: workerData.timeoutMs });
  // A check as slow as a large log's (fault tests only): the worker holds its connection that long first.
  if (workerData.delayMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.delayMs);
  problems = db.pragma('quick_check').map((r) => r.quick_check).filter((r) => r !== 'ok');
} catch (err) {
  failure = { code: String((err && err.code) || ''), message: String((err && err.message) || err) };
} finally {
  // Closed before reporting: the store's own connection must be the last one, so its close removes -wal/-shm.
  if (db) db.close();
}
parentPort.postMessage({ problems, failure });
`;

/** The pragma threw: a damaged page is corruption; anything else (locked, I/O) means the file is unverified. */
function failureError(file: string, failure: { code: string; message: string }): EventStoreUnusableError {
  const finding = `${failure.code ? `${failure.code}: ` : ''}${failure.message}`;
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(failure.code))
    return new EventStoreUnusableError(corruptFileMessage(file, `PRAGMA quick_check: ${finding}`));
  return new EventStoreUnusableError(
    `${file}: the integrity check could not run (${finding}); refusing to write to the file (it was left untouched)`,
  );
}

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/** NODE_ENV=test only: TEST_INTEGRITY_CHECK_DELAY_MS makes every check last that much longer (a child service in a
 * fault test, test/durability/crashRestartWrites.test.ts, stands in for a log too large to build in a test). */
const testDelayMs = (): number => (process.env.NODE_ENV === 'test' ? Number(process.env.TEST_INTEGRITY_CHECK_DELAY_MS ?? 0) || 0 : 0);

export interface IntegrityCheck {
  /** Resolves when the file is sound; rejects with EventStoreUnusableError (or IntegrityCheckStoppedError). */
  readonly done: Promise<void>;
  /** Ends the check; resolves once the worker and its connection are gone (a running pragma finishes first). */
  stop(): Promise<void>;
}

/** How long a stop lets a running check end by itself before terminating it (a small log's check takes ms). */
const STOP_GRACE_MS = 2_000;

export function startIntegrityCheck(file: string): IntegrityCheck {
  // execArgv []: the worker needs no TypeScript loader (--import tsx would only slow its start).
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { driver, file, timeoutMs: 10_000, delayMs: testDelayMs() },
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const done = new Promise<void>((resolve, reject) => {
    worker.once('message', (m: { problems?: string[]; failure: { code: string; message: string } | null }) => {
      if (m.failure) reject(failureError(file, m.failure));
      else if (m.problems!.length === 0) resolve();
      else reject(new EventStoreUnusableError(corruptFileMessage(file, `PRAGMA quick_check: ${problemsText(m.problems!)}`)));
    });
    // Unverified is treated as unusable: nothing is written into a file we could not check.
    worker.once('error', (err) => reject(failureError(file, { code: '', message: err.message })));
    worker.once('exit', (code) => {
      // Settles nothing when the message came first (a settled promise ignores later calls).
      if (stopping) reject(new IntegrityCheckStoppedError(file));
      else
        reject(
          new EventStoreUnusableError(
            `${file}: the integrity check stopped unexpectedly (exit code ${code}); refusing to write to the file (it was left untouched)`,
          ),
        );
    });
  });
  return {
    done,
    async stop() {
      stopping = true;
      // A worker terminated inside a SQLite call can abort the whole process (its error cannot be raised in a dying
      // isolate, seen as 'FATAL ERROR: v8::ToLocalChecked'): a check about to end is let end by itself.
      const grace = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
      await exited;
      clearTimeout(grace);
    },
  };
}
