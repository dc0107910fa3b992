// What tells that the SQLite read-model file is damaged (an error of SQLite, a header that promises more pages than
// the file holds, a path that no longer names the file we opened), and where a damaged file is set aside for the operator.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_READ_STORE_WATCH_MS = 2_000;

/**
 * SQLite's word that the file is damaged or gone: corrupt pages, not a database, an I/O error, or a file unlinked or
 * moved under the open connection (SQLITE_READONLY_DBMOVED). A busy or full store is not damage.
 */
export function isReadStoreDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^SQLITE_(CORRUPT|NOTADB|IOERR|READONLY_DBMOVED|CANTOPEN)/.test(code) && !/^SQLITE_IOERR_NOMEM/.test(code);
}

/** READ_STORE_WATCH_MS: how often the file is looked at (0: never; errors of reads and writes still tell). */
export function readStoreWatchMs(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_READ_STORE_WATCH_MS;
  if (!/^\d+$/.test(value)) throw new Error(`READ_STORE_WATCH_MS must be a number of milliseconds (0 = no watch), got ${value}`);
  return Number(value);
}

export interface FileIdentity {
  dev: number;
  ino: number;
}

export const identityOf = (file: string): FileIdentity | null => {
  try {
    const stat = fs.statSync(file);
    return { dev: stat.dev, ino: stat.ino };
  } catch {
    return null;
  }
};

/**
 * What is wrong with the file at a glance (a stat and its first 100 bytes, whatever its size), or null: gone,
 * replaced, not a SQLite file, or shorter than the page count its header declares (truncated). A checkpoint cut short
 * by a crash may leave the file shorter than its header until the WAL is checkpointed again: the store does that at
 * open, and while it runs its own checkpoints never interleave with a glance (on the event loop, or in the checkpoint
 * worker under a lock: `header` false while one is under way, and then only the identity is looked at). The size is
 * compared only once the log is all copied back (walFullyCopiedBack).
 */
export function glanceAt(file: string, opened: FileIdentity, header = true): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return 'the file was deleted or moved while the service ran';
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.dev !== opened.dev || stat.ino !== opened.ino) return 'the file was replaced by another one while the service ran';
    if (stat.size === 0 || !header) return null; // not yet written to (a fresh store checkpoints later)
    const head = Buffer.alloc(100);
    if (fs.readSync(fd, head, 0, 100, 0) < 100) return `the file is ${stat.size} bytes, shorter than a SQLite header`;
    if (head.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return 'the file does not start with a SQLite header';
    const rawPageSize = head.readUInt16BE(16);
    const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
    // The in-header size counts only when the change counter and "version valid for" agree (SQLite file format 1.3.9).
    const pages = head.readUInt32BE(24) === head.readUInt32BE(92) ? head.readUInt32BE(28) : 0;
    if (pages > 0 && stat.size < pages * pageSize && walFullyCopiedBack(file))
      return `the file was truncated: ${stat.size} bytes, its header declares ${pages * pageSize}`;
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether every frame of the write-ahead log is copied back into the file (mxFrame == nBackfill in the wal-index header
 * of the -shm file, SQLite's walformat.html), or there is no log to read. Only then does SQLite size the file to its
 * header's page count: a checkpoint held back by a reader's older snapshot (an online backup, a long export) leaves the
 * file shorter than the header it already copied, and that is sound.
 */
function walFullyCopiedBack(file: string): boolean {
  const index = Buffer.alloc(100);
  let fd: number;
  try {
    fd = fs.openSync(`${file}-shm`, 'r');
  } catch {
    return true;
  }
  try {
    if (fs.readSync(fd, index, 0, 100, 0) < 100) return true;
  } finally {
    fs.closeSync(fd);
  }
  const u32 = (at: number) => (os.endianness() === 'LE' ? index.readUInt32LE(at) : index.readUInt32BE(at));
  return u32(16) === u32(96);
}

/** True when the file has no write-ahead log to replay (absent or empty): its header's page count is then the truth. */
export const walIsEmpty = (file: string): boolean => (fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) === 0;

/** readmodels.damaged-<timestamp>.sqlite beside the file. */
export function damagedNameOf(file: string, at: Date): string {
  const ext = path.extname(file);
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  return path.join(path.dirname(file), `${path.basename(file, ext)}.damaged-${stamp}${ext}`);
}

/** Moves the file and its -wal/-shm to readmodels.damaged-<timestamp>.sqlite[-wal|-shm]; answers the new name. */
export function setDamagedAside(file: string, at: Date): string {
  const aside = damagedNameOf(file, at);
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  return aside;
}
