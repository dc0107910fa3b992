// Restores a backup archive onto a stopped service's data directory: verifies every member against the manifest,
// moves what the directory held aside (never deleted), then puts the copies in place. The service started on it
// serves the copied data; its projections resume from the copied checkpoints and catch up with the copied log.
import fs from 'node:fs';
import path from 'node:path';
import { sqliteEventFile } from '../../stores/openEventStore.js';
import { READ_STORE_FILE } from '../../stores/openReadStore.js';
import { extractVerified, type BackupManifest } from './backupArchive.js';
import { assertDataDirIdle } from './dataDirIdle.js';
import { CHAIN_CHECKPOINTS_DIR, KEY_FILES } from './onlineBackup.js';

export type RestoreStage = 'verify' | 'set-aside' | 'place';

export interface RestoreOptions {
  onProgress?: (progress: { stage: RestoreStage; member?: string }) => void;
  now?: () => Date;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the directory's previous files went (null when it held none). */
  setAside: string | null;
}

/** Everything a data directory holds that a restore replaces (with the SQLite side files and the clean-close seal). */
function replacedNames(): string[] {
  const events = path.basename(sqliteEventFile('.'));
  return [
    ...['', '-wal', '-shm', '.clean', '.verified'].map((s) => events + s),
    ...['', '-wal', '-shm'].map((s) => READ_STORE_FILE + s),
    ...KEY_FILES,
    CHAIN_CHECKPOINTS_DIR,
  ];
}

export async function restoreBackup(file: string, dataDir: string, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const progress = opts.onProgress ?? (() => undefined);
  const dir = path.resolve(dataDir);
  const now = opts.now ?? (() => new Date());
  assertDataDirIdle(dir, now().getTime());
  if (!fs.existsSync(file)) throw new Error(`no backup archive at ${file}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const staging = fs.mkdtempSync(path.join(dir, '.restore-')); // same file system: the copies are renamed in place
  try {
    progress({ stage: 'verify' });
    const manifest = await extractVerified(file, staging);
    assertDataDirIdle(dir, now().getTime()); // a service started while the archive was read must not have its files swapped

    progress({ stage: 'set-aside' });
    const stamp = now()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const aside = path.join(dir, `replaced-${stamp}`);
    const present = replacedNames().filter((name) => fs.existsSync(path.join(dir, name)));
    if (present.length > 0) {
      fs.mkdirSync(aside, { mode: 0o700 });
      for (const name of present) fs.renameSync(path.join(dir, name), path.join(aside, name));
    }

    const top = new Set(manifest.members.map((m) => m.name.split('/')[0]!));
    for (const name of top) {
      progress({ stage: 'place', member: name });
      fs.renameSync(path.join(staging, name), path.join(dir, name));
      fs.chmodSync(path.join(dir, name), name === CHAIN_CHECKPOINTS_DIR ? 0o700 : 0o600);
    }
    return { manifest, setAside: present.length > 0 ? aside : null };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
