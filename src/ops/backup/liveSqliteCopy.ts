// Copies a SQLite file while the service writes to it, with SQLite's online backup API (better-sqlite3 db.backup):
// pages are copied in steps, and a write through another connection between two steps restarts the copy. Each
// restart makes the step larger, so a busy file ends in one step: one read transaction, which in WAL mode sees one
// committed snapshot and never blocks the writer.
import fs from 'node:fs';
import Database from 'better-sqlite3';

export interface CopyProgress {
  copiedPages: number;
  totalPages: number;
  /** Times a write by the service restarted the copy. */
  restarts: number;
}

/** 4 MiB at the default page size: a short hold of the event loop per step. */
const FIRST_STEP_PAGES = 1024;
/** better-sqlite3's largest step: every page left, in one step. */
const ALL_PAGES = 0x7fffffff;

export async function copyLiveSqlite(source: string, dest: string, onProgress?: (p: CopyProgress) => void): Promise<CopyProgress> {
  // Not read-only: a read-only connection cannot open a WAL file whose shared-memory file it may not write.
  const db = new Database(source, { fileMustExist: true, timeout: 10_000 });
  let step = FIRST_STEP_PAGES;
  let lastRemaining = Number.POSITIVE_INFINITY;
  let restarts = 0;
  try {
    fs.closeSync(fs.openSync(dest, 'wx', 0o600)); // private before a page is written (patient data)
    const done = await db.backup(dest, {
      progress: ({ totalPages, remainingPages }) => {
        // A step always lowers what is left unless the copy started over.
        if (remainingPages >= lastRemaining) {
          restarts++;
          step = Math.min(ALL_PAGES, step * 4);
        }
        lastRemaining = remainingPages;
        onProgress?.({ copiedPages: totalPages - remainingPages, totalPages, restarts });
        return step;
      },
    });
    const result = { copiedPages: done.totalPages, totalPages: done.totalPages, restarts };
    onProgress?.(result);
    return result;
  } finally {
    db.close();
  }
}

/** Folds a finished copy's WAL into the file (the copy is then one self-contained file) and checks it. */
export function settleCopy(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy of ${file} failed its quick_check: ${String(check)}`);
  } finally {
    db.close();
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}
