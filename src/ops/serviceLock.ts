// One writer per data directory: the running service (or the command line working offline) holds DATA_DIR/service.lock,
// and the command line reads it to talk to that service instead of opening the stores a second time.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'service.lock';
export const OPS_TOKEN_FILE = 'ops.token';

export interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
  /** Where the holder answers HTTP; null while it is still starting. */
  url: string | null;
}

export interface ServiceLock {
  readonly info: LockInfo;
  /** Records the URL in the lock and writes a fresh operator token (0600) into DATA_DIR/ops.token; returns it. */
  announce(url: string): Promise<string>;
  /** Removes the lock (when it is still ours) and the operator token. */
  release(): Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `the data directory ${dataDir} is in use by process ${holder.pid} on ${holder.hostname} (since ${holder.startedAt}` +
        `${holder.url ? `, at ${holder.url}` : ''}); stop it first, or remove ${path.join(dataDir, LOCK_FILE)} if that process is gone`,
    );
    this.name = 'DataDirLockedError';
  }
}

const lockPath = (dataDir: string) => path.join(dataDir, LOCK_FILE);

/** A lock is live while its process runs: checked by pid on this host; another host's lock is trusted (we cannot tell). */
export function holderAlive(info: LockInfo): boolean {
  return info.hostname !== os.hostname() || processAlive(info.pid);
}

/** Whether a process of this host runs (EPERM: it does, as someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock file's text as a holder, or null when it is not one (half-written by a holder that died while writing: stale). */
export function parseLockInfo(text: string): LockInfo | null {
  let parsed: Partial<LockInfo>;
  try {
    parsed = JSON.parse(text) as Partial<LockInfo>;
  } catch (err) {
    if (err instanceof SyntaxError) return null;
    throw err;
  }
  if (typeof parsed?.pid !== 'number' || typeof parsed.hostname !== 'string') return null;
  return { pid: parsed.pid, hostname: parsed.hostname, startedAt: String(parsed.startedAt), url: parsed.url ?? null };
}

async function readInfo(file: string): Promise<LockInfo | null> {
  try {
    return parseLockInfo(await fs.readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The live holder of the data directory, or null when it is free (absent or stale lock). */
export async function readServiceLock(dataDir: string): Promise<LockInfo | null> {
  const info = await readInfo(lockPath(dataDir));
  return info && holderAlive(info) ? info : null;
}

const same = (a: LockInfo, b: LockInfo) => a.pid === b.pid && a.hostname === b.hostname && a.startedAt === b.startedAt;

async function writeAtomically(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(tmp, text, { mode: 0o600 });
  await fs.rename(tmp, file);
}

/** Moves a stale lock aside; puts it back when another process replaced it meanwhile (then it is that one's). */
async function takeOverStale(file: string, stale: LockInfo): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readInfo(aside);
  if (moved && !same(moved, stale)) await fs.link(aside, file).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

/** Exclusive create of DATA_DIR/service.lock; a lock left by a dead process is taken over; a live holder refuses. */
export async function acquireServiceLock(dataDir: string): Promise<ServiceLock> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 }); // DATA_DIR holds keys and patient data: private, as the stores make it
  const file = lockPath(dataDir);
  const info: LockInfo = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString(), url: null };
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.writeFile(file, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await readInfo(file);
    if (holder && holderAlive(holder)) throw new DataDirLockedError(dataDir, holder);
    if (attempt >= 3) throw new Error(`could not take over the stale lock ${file}`);
    if (holder) await takeOverStale(file, holder);
    else await fs.rm(file, { force: true }); // unreadable: a holder died while writing it
  }
  const tokenFile = path.join(dataDir, OPS_TOKEN_FILE);
  let released = false;
  return {
    info,
    async announce(url) {
      info.url = url;
      await writeAtomically(file, JSON.stringify(info));
      const token = randomBytes(32).toString('base64url');
      await writeAtomically(tokenFile, `${token}\n`);
      return token;
    },
    async release() {
      if (released) return;
      released = true;
      const current = await readInfo(file);
      if (current && same(current, info)) {
        await fs.rm(tokenFile, { force: true });
        await fs.rm(file, { force: true });
      }
    },
  };
}
