// The full PRAGMA quick_check reads every page of the file (seconds on a large log, minutes on a large read store), so
// it runs in a child process on its own read-only connection, on the second core, while the service catches up: a
// process can be killed inside SQLite (a stop never waits for the check), a worker thread cannot. The cheap checks
// (header, application_id, user_version, schema) stay synchronous at open: see sqliteSchema.ts.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
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

// Plain CommonJS run by the child (node -e), so it runs the same under tsx, mocha and a tsc build.
const CHECK_SOURCE = `
const input = JSON.parse(process.argv[1]);
const Database = require(input.driver);
let db = null;
let problems;
let failure = null;
try {
  // Read-only: no checkpoint on close, nothing is ever written by this connection.
  db = new Database(input.file, { readonly: true, fileMustExist: true, timeout: input.timeoutMs });
  // A check as slow as a large log's (fault tests only): the child holds its connection that long first.
  if (input.delayMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, input.delayMs);
  problems = db.pragma('quick_check').map((r) => r.quick_check).filter((r) => r !== 'ok');
} catch (err) {
  failure = { code: String((err && err.code) || ''), message: String((err && err.message) || err) };
} finally {
  // Closed before reporting: the store's own connection must be the last one, so its close removes -wal/-shm.
  if (db) db.close();
}
process.stdout.write(JSON.stringify({ problems, failure }));
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
  /** Ends the check at once (its process is killed: a read-only connection leaves nothing to undo). */
  stop(): Promise<void>;
}

interface CheckReport {
  problems?: string[];
  failure: { code: string; message: string } | null;
}

/** The child's one line of JSON, or null when it wrote none (it died before reporting). */
function reportOf(output: string): CheckReport | null {
  try {
    return JSON.parse(output) as CheckReport;
  } catch {
    return null;
  }
}

export function startIntegrityCheck(file: string): IntegrityCheck {
  const input = JSON.stringify({ driver, file, timeoutMs: 10_000, delayMs: testDelayMs() });
  // No loader flags (NODE_OPTIONS may carry one for the service): the child runs plain JavaScript.
  const env = { ...process.env, NODE_OPTIONS: '' };
  const child = spawn(process.execPath, ['-e', CHECK_SOURCE, input], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stopping = false;
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const done = new Promise<void>((resolve, reject) => {
    // Unverified is treated as unusable: nothing is written into a file we could not check.
    child.once('error', (err) => reject(failureError(file, { code: '', message: err.message })));
    child.once('close', (code, signal) => {
      if (stopping) return reject(new IntegrityCheckStoppedError(file));
      const report = code === 0 ? reportOf(output) : null;
      if (!report) {
        const why = `exit code ${code ?? signal}${errors ? `: ${errors.trim().split('\n')[0]}` : ''}`;
        return reject(
          new EventStoreUnusableError(
            `${file}: the integrity check stopped unexpectedly (${why}); refusing to write to the file (it was left untouched)`,
          ),
        );
      }
      if (report.failure) reject(failureError(file, report.failure));
      else if (report.problems!.length === 0) resolve();
      else reject(new EventStoreUnusableError(corruptFileMessage(file, `PRAGMA quick_check: ${problemsText(report.problems!)}`)));
    });
  });
  return {
    done,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      stopping = true;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
