// Copies a SQLite file while the service writes to it, with SQLite's online backup API (better-sqlite3 db.backup):
// pages are copied in steps, and a write through another connection between two steps restarts the copy. Each
// restart makes the step larger, so a busy file ends in one step: one read transaction, which in WAL mode sees one
// committed snapshot and never blocks the writer. It runs in a worker thread, so a long step (and the check of the
// copy) never holds the service's event loop.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface CopyProgress {
  copiedPages: number;
  totalPages: number;
  /** Times a write by the service restarted the copy. */
  restarts: number;
}

// Plain CommonJS evaluated in the worker, so it runs the same under tsx, mocha and a tsc build (as integrityCheck.ts).
const WORKER_SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const ALL_PAGES = 0x7fffffff; // better-sqlite3's largest step: every page left
(async () => {
  // Read-only while the service has the file open (it has a WAL): never written, and closing checkpoints nothing. A
  // stopped service's file is opened read-write, so this last connection's close removes the WAL files it made.
  const readonly = fs.existsSync(workerData.source + '-wal');
  const source = new Database(workerData.source, { readonly, fileMustExist: true, timeout: 10000 });
  let step = workerData.firstStep;
  let lastRemaining = Infinity;
  let restarts = 0;
  try {
    fs.closeSync(fs.openSync(workerData.dest, 'wx', 0o600)); // private before a page is written (patient data)
    const done = await source.backup(workerData.dest, {
      progress: ({ totalPages, remainingPages }) => {
        if (remainingPages >= lastRemaining) { restarts++; step = Math.min(ALL_PAGES, step * 4); } // started over
        lastRemaining = remainingPages;
        parentPort.postMessage({ progress: { copiedPages: totalPages - remainingPages, totalPages, restarts } });
        return step;
      },
    });
    source.close();
    const copy = new Database(workerData.dest, { fileMustExist: true });
    try {
      copy.pragma('wal_checkpoint(TRUNCATE)');
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error('the copy failed its quick_check: ' + check);
    } finally {
      copy.close();
    }
    parentPort.postMessage({ done: { copiedPages: done.totalPages, totalPages: done.totalPages, restarts } });
  } catch (err) {
    if (source.open) source.close();
    parentPort.postMessage({ failure: String((err && err.message) || err) });
  }
})();
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');
/** 4 MiB at the default page size. */
const FIRST_STEP_PAGES = 1024;

type WorkerMessage = { progress: CopyProgress } | { done: CopyProgress } | { failure: string };

/** Copies `source` into the new file `dest` (mode 0600), checkpointed and quick_checked. */
export function copyLiveSqlite(source: string, dest: string, onProgress?: (p: CopyProgress) => void): Promise<CopyProgress> {
  const workerData = { driver, source, dest, firstStep: FIRST_STEP_PAGES };
  // execArgv []: the worker needs no TypeScript loader.
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData });
  return new Promise<CopyProgress>((resolve, reject) => {
    worker.on('message', (m: WorkerMessage) => {
      if ('progress' in m) return onProgress?.(m.progress);
      if ('done' in m) {
        onProgress?.(m.done);
        resolve(m.done);
      } else reject(new Error(`copy of ${source} failed: ${m.failure}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`copy of ${source} stopped (worker exit ${code})`)));
  }).finally(() => void worker.terminate());
}

/** Folds what a connection left in a copy's WAL into the file, so the copy is one self-contained file. */
export function foldWal(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  for (const suffix of ['-wal', '-shm']) {
    const size = fs.statSync(file + suffix, { throwIfNoEntry: false })?.size;
    if (suffix === '-wal' && size) throw new Error(`${file}: its WAL could not be folded into it`);
    fs.rmSync(file + suffix, { force: true });
  }
}
