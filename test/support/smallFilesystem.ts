// A data directory on a small filesystem that a test can fill and free: a size-limited tmpfs, else a loop-mounted
// ext4 image, else (mounting refused) SQLite's own full-disk injection (max_page_count on the event store's
// connection). Which one ran is printed, never skipped silently.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type Database from 'better-sqlite3';

const run = promisify(execFile);

export type FilesystemKind = 'tmpfs' | 'loop device' | 'max_page_count';

export interface SmallFilesystem {
  /** The directory to use as DATA_DIR (empty at first). */
  dir: string;
  kind: FilesystemKind;
  /** Pass to the harness: the max_page_count variant caps the event store's connection through it. */
  onDatabaseOpen: (db: Database.Database) => void;
  /** Takes every free byte (a filler file written by dd while the service runs; or caps the event store file). */
  fill(): Promise<void>;
  /** Gives the space back (deletes the filler; or lifts the cap). */
  free(): void;
  /** Frees and unmounts; removes the mount point. */
  release(): Promise<void>;
}

const FILLER = '.filler';

/** Writes to `file` until the filesystem refuses (ENOSPC): then not one more byte fits. */
function fillUp(file: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    for (const size of [1 << 20, 1 << 14, 1 << 9, 1]) {
      const chunk = Buffer.alloc(size, 0x66);
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** FULL_DISK_BY=loop or =max_page_count starts further down the list (to exercise the fallbacks). */
async function tryMount(dir: string, sizeMb: number): Promise<{ kind: FilesystemKind; image?: string } | null> {
  const from = process.env.FULL_DISK_BY;
  if (from === 'max_page_count') return null;
  if (from !== 'loop')
    try {
      await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir]);
      return { kind: 'tmpfs' };
    } catch (err) {
      process.stdout.write(`      (tmpfs mount refused: ${(err as Error).message.trim()})\n`);
    }
  const image = `${dir}.img`;
  try {
    await run('truncate', ['-s', `${sizeMb}M`, image]);
    await run('mkfs.ext4', ['-q', '-F', image]);
    await run('mount', ['-o', 'loop', image, dir]);
    return { kind: 'loop device', image };
  } catch (err) {
    fs.rmSync(image, { force: true });
    process.stdout.write(`      (loop device mount refused: ${(err as Error).message.trim()})\n`);
    return null;
  }
}

export async function smallFilesystem(sizeMb = 16): Promise<SmallFilesystem> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'small-fs-'));
  const mounted = await tryMount(dir, sizeMb);
  const kind = mounted?.kind ?? 'max_page_count';
  process.stdout.write(`      full disk by: ${kind}${mounted ? ` (${sizeMb} MiB at ${dir})` : ' (SQLite full-disk injection)'}\n`);
  let db: Database.Database | null = null;
  const filler = path.join(dir, FILLER);
  // A run stopped before its after hooks (mocha --bail, an interrupt) still leaves no mount behind.
  const lastResort = () => {
    try {
      if (mounted) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  };
  process.once('exit', lastResort);
  return {
    dir,
    kind,
    onDatabaseOpen: (opened) => void (db = opened),
    async fill() {
      if (mounted) {
        // Another process fills it while the service goes on committing (dd stops at ENOSPC), then the last bytes.
        await run('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k', 'status=none']).catch(() => undefined);
        return fillUp(filler);
      }
      if (!db) throw new Error('the event store is not open');
      db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
    },
    free() {
      if (mounted) return fs.rmSync(filler, { force: true });
      db?.pragma('max_page_count = 4294967294');
    },
    async release() {
      process.off('exit', lastResort);
      fs.rmSync(filler, { force: true });
      if (mounted) {
        await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
        if (mounted.image) fs.rmSync(mounted.image, { force: true });
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
