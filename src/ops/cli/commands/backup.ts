// `backup <file>`: an online backup taken by the service (POST /sistema/respaldos, audited BackupTaken), moved out of
// DATA_DIR/backups to <file>; `restore <file>`: only with the service stopped, the lock held throughout, then audited.
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { withReason, type CliRuntime } from '../cliRuntime.js';
import { OpsError } from '../connection.js';
import { BACKUPS_DIR, type BackupSummary } from '../../backup/backupsDirectory.js';
import { restoreBackup, type RestoreStage } from '../../backup/restoreBackup.js';
import { BACKUP_RESTORED, recordOperatorEvent } from '../../operatorEvents.js';

/** Rename, or across file systems copy (to a side name, renamed when whole) and unlink; private either way. */
export async function moveFile(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    const partial = `${to}.partial`;
    await fs.copyFile(from, partial);
    await fs.chmod(partial, 0o600);
    await fs.rename(partial, to);
    await fs.unlink(from);
  }
  await fs.chmod(to, 0o600);
}

async function absent(file: string): Promise<void> {
  const exists = await fs.stat(file).then(
    () => true,
    () => false,
  );
  if (exists) throw new OpsError(`${file} exists: name a new file`);
  // Checked before the service takes an archive (it holds the keys) that could then not be moved out of DATA_DIR.
  const folder = path.dirname(file);
  const writable = await fs.stat(folder).then(
    async (s) =>
      s.isDirectory() &&
      (await fs.access(folder, fsConstants.W_OK).then(
        () => true,
        () => false,
      )),
    () => false,
  );
  if (!writable) throw new OpsError(`${folder} is not a folder this user can write to: create it first`);
}

const STAGES: RestoreStage[] = ['verify', 'set-aside', 'place'];

export function register(program: Command, runtime: CliRuntime): void {
  const backup = program
    .command('backup <file>')
    .description('take an online backup (the service keeps running) into <file> (0600)')
    .action((target: string) =>
      runtime.run(backup, async (ctx) => {
        const file = path.resolve(target);
        await absent(file);
        const progress = ctx.progress('backup');
        let taken: BackupSummary;
        try {
          progress.update({ done: 0, total: 2 });
          taken = (await ctx.conn.request<BackupSummary>('POST', '/sistema/respaldos')).body;
          progress.update({ done: 1, total: 2 });
          await moveFile(path.join(ctx.dataDir, BACKUPS_DIR, taken.name), file);
          progress.update({ done: 2, total: 2, etaSeconds: 0 });
        } finally {
          progress.stop();
        }
        return {
          json: { backup: { ...taken, file } },
          text: `Backup ${taken.name} (${taken.size} bytes, up to position ${taken.headPosition}) written to ${file}`,
        };
      }),
    );

  const restore = withReason(
    program
      .command('restore <file>')
      .description('restore a backup archive onto the data directory (service stopped; what it held is moved aside)'),
  ).action((target: string, opts: { reason: string }) =>
    runtime.runOffline(restore, async (ctx) => {
      const file = path.resolve(target);
      const progress = ctx.progress('restore');
      const total = STAGES.length + 1;
      let result: Awaited<ReturnType<typeof restoreBackup>>;
      try {
        progress.update({ done: 0, total });
        result = await restoreBackup(file, ctx.dataDir, {
          onProgress: ({ stage }) => progress.update({ done: STAGES.indexOf(stage), total }),
        });
        progress.update({ done: STAGES.length, total });
        const { manifest } = result;
        const data = {
          archive: path.basename(file),
          headPosition: manifest.headPosition,
          createdAt: manifest.createdAt,
          storeIdentity: manifest.storeIdentity,
          setAside: result.setAside,
        };
        await recordOperatorEvent(ctx.config, BACKUP_RESTORED, data, opts.reason);
        progress.update({ done: total, total, etaSeconds: 0 });
      } finally {
        progress.stop();
      }
      const { manifest, setAside } = result;
      const restored = { file, headPosition: manifest.headPosition, createdAt: manifest.createdAt, setAside };
      return {
        json: { restore: restored },
        text:
          `Restored ${file} (taken ${manifest.createdAt}, up to position ${manifest.headPosition}) onto ${ctx.dataDir}` +
          (setAside ? `\nWhat the directory held was moved to ${setAside}` : ''),
      };
    }),
  );
}
