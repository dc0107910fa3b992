// Secret keys that are generated once and kept in DATA_DIR (mode 0600), unless given in the environment.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Parses a configured key: 64 hex characters, or base64/base64url of at least `minBytes` bytes. */
export function parseConfiguredKey(value: string, name: string, minBytes: number, exactBytes?: number): Buffer {
  const trimmed = value.trim();
  const bytes =
    /^[0-9a-fA-F]+$/.test(trimmed) && trimmed.length % 2 === 0 && trimmed.length >= minBytes * 2
      ? Buffer.from(trimmed, 'hex')
      : Buffer.from(trimmed, /[-_]/.test(trimmed) ? 'base64url' : 'base64');
  if (bytes.length < minBytes || (exactBytes !== undefined && bytes.length !== exactBytes)) {
    const size = exactBytes ? `exactly ${exactBytes}` : `at least ${minBytes}`;
    throw new Error(`${name} must be ${size} random bytes, as hex or base64 (got ${bytes.length} bytes)`);
  }
  return bytes;
}

/** Makes a new directory entry durable (the file's own fsync does not cover its name). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } catch (err) {
    // Some file systems cannot fsync a directory (EINVAL); the key file itself is synced.
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL') throw err;
  } finally {
    await handle.close();
  }
}

/**
 * Reads DATA_DIR/<file>, or creates it with `bytes` random bytes (base64, mode 0600). Two processes
 * starting at once agree: creation is exclusive (`wx`) and the loser reads the winner's key.
 */
export async function loadOrCreateKeyFile(dataDir: string, file: string, bytes: number): Promise<Buffer> {
  const full = path.join(dataDir, file);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const fresh = randomBytes(bytes);
  try {
    // Write to a private temp file first, then link: readers never see a half-written key.
    const tmp = `${full}.${process.pid}.${fresh.subarray(0, 4).toString('hex')}.tmp`;
    const handle = await fs.open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(fresh.toString('base64') + '\n');
      await handle.sync(); // a key that the data depends on must survive a power cut, like the data
    } finally {
      await handle.close();
    }
    try {
      await fs.link(tmp, full);
      await syncDirectory(dataDir);
      return fresh;
    } finally {
      await fs.rm(tmp, { force: true });
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const stored = Buffer.from((await fs.readFile(full, 'utf8')).trim(), 'base64');
  if (stored.length < bytes)
    throw new Error(`${full} holds a key of ${stored.length} bytes; expected ${bytes}. Remove it only if no data depends on it.`);
  const mode = (await fs.stat(full)).mode & 0o777;
  if (mode & 0o077) await fs.chmod(full, 0o600); // tighten a key file someone copied with loose permissions
  return stored;
}

/** Writes DATA_DIR/<file> whole (private temp file, fsync, rename): a crash leaves the old key or the new one. */
export async function replaceKeyFile(dataDir: string, file: string, content: string): Promise<void> {
  const full = path.join(dataDir, file);
  const tmp = `${full}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await fs.open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, full);
  await syncDirectory(dataDir);
}

/** The text of DATA_DIR/<file>, or null when absent. */
export async function readKeyFileIfPresent(dataDir: string, file: string): Promise<string | null> {
  try {
    return await fs.readFile(path.join(dataDir, file), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** A key the configuration sets (environment or a named file): rotated there, not by the service. */
export class KeyConfiguredError extends Error {
  override name = 'KeyConfiguredError';
}
