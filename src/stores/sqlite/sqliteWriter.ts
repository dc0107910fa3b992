// The store's writer: group-commit batches run on a writer thread with its own connection to the file
// (sqliteWriterWorker.ts), so the fsync of every commit and the WAL checkpoints never stall the event loop
// while it parses requests. Appends are acknowledged only after that thread's commit (synchronous=FULL, as
// on the store's connection), so durability is unchanged. The thread starts once commits have held the event
// loop for a while (a busy store; a quiet one never pays its start-up); until it is ready, or if it cannot
// start or dies, batches run on the store's own connection exactly as before.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Logger } from '../../logger.js';
import type { Statements } from './sqliteStatements.js';
import { createBatchWriter, prepareAppend, type AppendOutcome, type PendingAppend, type PreparedAppend } from './sqliteAppendBatch.js';
import { errorFromWire, outcomeFromWire, type FromWriter, type ToWriter, type WriterSettings } from './sqliteWriterWire.js';

export interface BatchWriter {
  /** Writes one batch in one transaction; rejects when the transaction failed as a whole (nothing written). */
  write(batch: PendingAppend[]): Promise<AppendOutcome[]>;
  /** Ends the writer thread and its connection; call once no batch is in flight, before closing the store's connection. */
  close(): Promise<void>;
  /** Where batches run now: 'here' (the store's connection, the thread possibly starting) or 'thread'. */
  readonly runsOn: 'here' | 'thread';
}

// Connection settings are per connection: the writer copies the ones sqliteSchema.ts gave the store's.
const COPIED_PRAGMAS = ['synchronous', 'wal_autocheckpoint', 'journal_size_limit', 'cache_size', 'foreign_keys'];

function settingsOf(file: string, db: Database.Database): WriterSettings {
  return {
    file,
    pragmas: COPIED_PRAGMAS.map((name) => `${name} = ${Number(db.pragma(name, { simple: true }))}`),
    busyTimeoutMs: Number(db.pragma('busy_timeout', { simple: true })),
  };
}

/** Code evaluated in the new thread: a worker does not inherit tsx's loader, so it registers it first. */
function workerSource(): string {
  const ext = path.extname(fileURLToPath(import.meta.url)); // .ts under tsx, .js once compiled
  const entry = JSON.stringify(new URL(`./sqliteWriterWorker${ext}`, import.meta.url).href);
  if (ext !== '.ts') return `import(${entry});`;
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return `import(${tsx}).then((api) => { api.register(); return import(${entry}); });`;
}

interface Job {
  batch: PreparedAppend[];
  resolve(outcomes: AppendOutcome[]): void;
  reject(error: unknown): void;
}

/** Event-loop time spent in commits after which the writer thread starts (it costs ~0.3 s of CPU to start). */
export const THREAD_AFTER_MS = 250;

export function createStoreWriter(opts: { file: string; db: Database.Database; st: Statements; logger?: Logger; threadAfterMs?: number }): BatchWriter {
  const threadAfterMs = process.env.WRITER_THREAD_OFF_EXPERIMENT ? Infinity : opts.threadAfterMs ?? THREAD_AFTER_MS;
  let blockedMs = 0;
  const here = createBatchWriter(opts.db, opts.st);
  const jobs = new Map<number, Job>();
  let nextId = 0;
  let worker: Worker | null = null;
  let ready = false;
  let started = false;
  let closing = false;
  let exited: Promise<void> = Promise.resolve();

  /** Runs a job on the store's connection (the thread is not ready, or gone). */
  function runHere(job: Job): void {
    const began = performance.now();
    try {
      job.resolve(here(job.batch));
    } catch (err) {
      job.reject(err);
    } finally {
      blockedMs += performance.now() - began;
    }
  }

  // The thread is gone: what it had in flight is written here. Safe even if it did commit: a retried append
  // carries the same event ids and the same expected revision, so it is acknowledged, not written twice.
  function abandon(message: string, error: unknown): void {
    if (!worker) return;
    worker = null;
    ready = false;
    if (!closing) opts.logger?.warn(`${message}; appends are written on the main thread from now on`, { file: opts.file, error });
    const pending = [...jobs.values()];
    jobs.clear();
    for (const job of pending) runHere(job);
  }

  function onMessage(m: FromWriter): void {
    if (m.type === 'ready') {
      ready = true;
      opts.logger?.debug('event store writer thread ready', { file: opts.file });
    } else if (m.type === 'unavailable') abandon('the event store writer thread could not open the file', errorFromWire(m.error));
    else {
      const job = jobs.get(m.id);
      if (!job) return;
      jobs.delete(m.id);
      if (jobs.size === 0) worker?.unref();
      if (m.type === 'done') job.resolve(m.outcomes.map(outcomeFromWire));
      else job.reject(errorFromWire(m.error));
    }
  }

  // Started by writes, never at open: a store that does not write (or a file refused by its checks) never
  // gets a second connection.
  function start(): void {
    started = true;
    try {
      const w = new Worker(workerSource(), { eval: true, execArgv: [], workerData: settingsOf(opts.file, opts.db) });
      worker = w;
      w.unref(); // referenced only while a batch is in flight
      exited = new Promise((resolve) => w.once('exit', () => resolve()));
      w.on('message', onMessage);
      w.on('error', (err) => worker === w && abandon('the event store writer thread failed', err));
      w.once('exit', (code) => worker === w && abandon(`the event store writer thread exited (code ${code})`, null));
    } catch (err) {
      opts.logger?.warn('the event store writer thread could not start; appends are written on the main thread', { file: opts.file, error: err });
    }
  }

  return {
    async write(batch) {
      if (!started && !closing && blockedMs >= threadAfterMs) start();
      // An append that cannot be turned into JSON fails alone, as it did inside the transaction.
      const outcomes: AppendOutcome[] = new Array(batch.length);
      const prepared: PreparedAppend[] = [];
      const slots: number[] = [];
      batch.forEach((p, i) => {
        try {
          prepared.push(prepareAppend(p));
          slots.push(i);
        } catch (error) {
          outcomes[i] = { error };
        }
      });
      if (prepared.length === 0) return outcomes;
      const written = await new Promise<AppendOutcome[]>((resolve, reject) => {
        const job: Job = { batch: prepared, resolve, reject };
        if (!worker || !ready) return runHere(job);
        const id = nextId++;
        jobs.set(id, job);
        worker.ref();
        worker.postMessage({ type: 'batch', id, batch: prepared } satisfies ToWriter);
      });
      written.forEach((o, k) => (outcomes[slots[k]!] = o));
      return outcomes;
    },

    async close() {
      closing = true;
      const w = worker;
      if (!w) return;
      w.ref();
      w.postMessage({ type: 'close' } satisfies ToWriter);
      await exited; // its connection is closed: the store's own is now the last one
      abandon('closed', null); // nothing in flight by now; clears the handle
    },

    get runsOn() {
      return worker && ready ? 'thread' : 'here';
    },
  };
}
