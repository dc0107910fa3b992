// The backup archive: a tar of the data directory's files with manifest.json first, naming each member's size and
// SHA-256. A plain tar (gzip when the name ends in .gz): a damaged byte stays inside one member, which the hashes
// then name, and `tar -tvf` lists it without this service.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';

export const BACKUP_FORMAT = 'dialysis-records-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';

export interface BackupMember {
  name: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: typeof BACKUP_FORMAT_VERSION;
  createdAt: string;
  /** events.identity() of the copied log: a restored log keeps it, so the projection checkpoints stay valid. */
  storeIdentity: string;
  /** Position of the last event in the copied log (decimal string). */
  headPosition: string;
  /** The read store's projection checkpoints in the copy: never ahead of headPosition. */
  checkpoints: { projection: string; version: number; position: string }[];
  /** Keys the environment gives (JWT_SECRET, ...): not in the archive, kept by the operator with the configuration. */
  keysFromEnvironment: string[];
  members: BackupMember[];
}

/** Every name an archive may hold: a member outside this list is refused, never extracted. */
const MEMBER_NAME =
  /^(events\.sqlite|readmodels\.sqlite|jwt\.key|jwt\.previous\.key|totp\.key|chain-signing\.key|chain-signing\.retired\.json|chain-checkpoints\/[A-Za-z0-9_]{1,64}\.ndjson)$/;

export class BackupArchiveError extends Error {
  constructor(
    message: string,
    /** The member at fault, when one is. */
    readonly member: string | null = null,
  ) {
    super(message);
    this.name = 'BackupArchiveError';
  }
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

export async function describeMember(dir: string, name: string): Promise<BackupMember> {
  const file = path.join(dir, name);
  return { name, size: fs.statSync(file).size, sha256: await sha256File(file) };
}

/** Writes manifest + members from `dir` into `file` (mode 0600, fsynced, renamed in place: never half an archive). */
export async function writeArchive(dir: string, manifest: BackupManifest, file: string): Promise<number> {
  for (const m of manifest.members) if (!MEMBER_NAME.test(m.name)) throw new Error(`not an archive member name: ${m.name}`);
  fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  const tmp = `${file}.partial`;
  const names = [MANIFEST, ...manifest.members.map((m) => m.name)];
  try {
    await pipeline(
      tar.create({ cwd: dir, portable: true, gzip: /\.t?gz$/.test(file), noDirRecurse: true }, names),
      fs.createWriteStream(tmp, { mode: 0o600, flags: 'wx' }),
    );
    const fd = fs.openSync(tmp, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return fs.statSync(file).size;
}

/** Extracts `file` into the empty directory `into` and verifies every member against the manifest. */
export async function extractVerified(file: string, into: string): Promise<BackupManifest> {
  const refused: string[] = [];
  try {
    await tar.extract({
      file,
      cwd: into,
      strict: true,
      preserveOwner: false,
      filter: (name, entry) => {
        const type = 'type' in entry ? entry.type : entry.isDirectory() ? 'Directory' : 'File';
        const ok =
          (type === 'File' && (name === MANIFEST || MEMBER_NAME.test(name))) || (type === 'Directory' && name === 'chain-checkpoints/');
        if (!ok) refused.push(name);
        return ok;
      },
    });
  } catch (err) {
    throw new BackupArchiveError(`${file} is not a readable backup archive (damaged or truncated): ${(err as Error).message}`);
  }
  if (refused.length > 0) throw new BackupArchiveError(`unexpected member ${refused[0]} in ${file}: refused`, refused[0]);
  const manifest = readManifest(into, file);
  const listed = new Set(manifest.members.map((m) => m.name));
  for (const m of manifest.members) {
    const member = path.join(into, m.name);
    if (!fs.existsSync(member)) throw new BackupArchiveError(`member ${m.name} is missing from ${file}`, m.name);
    const size = fs.statSync(member).size;
    if (size !== m.size) throw new BackupArchiveError(`member ${m.name} is damaged: ${size} bytes, the manifest says ${m.size}`, m.name);
    if ((await sha256File(member)) !== m.sha256)
      throw new BackupArchiveError(`member ${m.name} is damaged: its SHA-256 does not match the manifest`, m.name);
  }
  for (const name of extractedFiles(into))
    if (!listed.has(name)) throw new BackupArchiveError(`member ${name} is not in the manifest of ${file}: refused`, name);
  return manifest;
}

function readManifest(dir: string, file: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as BackupManifest;
  } catch (err) {
    throw new BackupArchiveError(`${file} has no readable ${MANIFEST}: ${(err as Error).message}`, MANIFEST);
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.formatVersion !== BACKUP_FORMAT_VERSION || !Array.isArray(manifest.members))
    throw new BackupArchiveError(`${file}: ${MANIFEST} is not a ${BACKUP_FORMAT} v${BACKUP_FORMAT_VERSION} manifest`, MANIFEST);
  if (!manifest.members.some((m) => m.name === 'events.sqlite'))
    throw new BackupArchiveError(`${file}: the manifest lists no events.sqlite`, 'events.sqlite');
  return manifest;
}

function extractedFiles(dir: string): string[] {
  const sub = path.join(dir, 'chain-checkpoints');
  const nested = fs.existsSync(sub) ? fs.readdirSync(sub).map((n) => `chain-checkpoints/${n}`) : [];
  return [...fs.readdirSync(dir).filter((n) => n !== MANIFEST && n !== 'chain-checkpoints'), ...nested];
}
