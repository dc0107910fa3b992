// Online backup of the embedded stores: a consistent copy of the event log and the read models, with the keys that
// make them readable, taken while the service runs and writes. The read models are copied before the log: every
// checkpoint they hold is an event durable by then (projections apply only durable events), and the log only
// grows, so the later log copy holds every event a copied checkpoint names (checked again before writing).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../../config.js';
import { sqliteEventFile } from '../../stores/openEventStore.js';
import { READ_STORE_FILE } from '../../stores/openReadStore.js';
import { readStoreIdentity } from '../../stores/sqlite/storeIdentity.js';
import { openSqliteReadStore } from '../../stores/sqliteRead/sqliteReadStore.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { LEASES_COLLECTION } from '../../stores/leases.js';
import { CHECKPOINTS_COLLECTION, type CheckpointDoc } from '../../projections/runner/checkpoints.js';
import { PROJECTOR_LEASE } from '../../projections/runner/projectorLease.js';
import { DEFAULT_SIGNING_KEY_FILE, RETIRED_KEYS_FILE } from '../../integrity/signingKey.js';
import { copyLiveSqlite, foldWal, type CopyProgress } from './liveSqliteCopy.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, describeMember, writeArchive, type BackupManifest } from './backupArchive.js';

export type BackupSource = Pick<
  Config,
  'dataDir' | 'eventStoreUrl' | 'mongoUrl' | 'readStore' | 'jwtSecret' | 'totpEncryptionKey' | 'chainSigningKeyFile'
>;

export type BackupStage = 'keys' | 'read-store' | 'event-log' | 'archive';
export interface BackupProgress extends Partial<CopyProgress> {
  stage: BackupStage;
}

export interface BackupOptions {
  onProgress?: (progress: BackupProgress) => void;
  now?: () => Date;
}

export interface BackupResult {
  file: string;
  size: number;
  manifest: BackupManifest;
}

/** The configured stores have their own backup tools: this one copies only the embedded SQLite files. */
export class BackupUnsupportedError extends Error {
  readonly code = 'backup-unsupported';
}

/** With the rotated-out keys: the previous token key (tokens handed out) and the retired chain keys (older checkpoints). */
export const KEY_FILES = ['jwt.key', 'jwt.previous.key', 'totp.key', DEFAULT_SIGNING_KEY_FILE, RETIRED_KEYS_FILE] as const;
export const CHAIN_CHECKPOINTS_DIR = 'chain-checkpoints';

export function assertEmbeddedStores(config: Pick<Config, 'eventStoreUrl' | 'mongoUrl'>): void {
  if (config.eventStoreUrl)
    throw new BackupUnsupportedError(
      'EVENTSTORE_URL is set: back the event log up with EventStoreDB’s own backups (file copy of a stopped node or a disk snapshot, see its "Backup and restore" docs)',
    );
  if (config.mongoUrl)
    throw new BackupUnsupportedError(
      'MONGO_URL is set: back the read models up with mongodump (or a MongoDB snapshot); this tool copies only SQLite files',
    );
}

export async function backupStores(
  source: BackupSource | { config: BackupSource },
  file: string,
  opts: BackupOptions = {},
): Promise<BackupResult> {
  const config = 'config' in source ? source.config : source;
  assertEmbeddedStores(config);
  const progress = opts.onProgress ?? (() => undefined);
  const eventFile = sqliteEventFile(config.dataDir);
  if (!fs.existsSync(eventFile)) throw new Error(`no event log at ${eventFile}: DATA_DIR is not a data directory of this service`);
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new Error(`${target} exists: a backup never overwrites a file`);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const staging = fs.mkdtempSync(path.join(path.dirname(target), '.backup-'));
  try {
    progress({ stage: 'keys' });
    const members = [...copyKeys(config.dataDir, staging), ...copyChainCheckpoints(config.dataDir, staging)];
    const readFile = path.join(config.dataDir, READ_STORE_FILE);
    let checkpoints: CheckpointDoc[] = [];
    if (config.readStore === 'sqlite' && fs.existsSync(readFile)) {
      const copy = path.join(staging, READ_STORE_FILE);
      await copyLiveSqlite(readFile, copy, (p) => progress({ stage: 'read-store', ...p }));
      checkpoints = await prepareReadCopy(copy);
      foldWal(copy);
      members.push(READ_STORE_FILE);
    }
    const eventCopy = path.join(staging, path.basename(eventFile));
    await copyLiveSqlite(eventFile, eventCopy, (p) => progress({ stage: 'event-log', ...p }));
    foldWal(eventCopy);
    members.push(path.basename(eventFile));
    const { head, identity } = logOf(eventCopy);
    for (const c of checkpoints) {
      if (BigInt(c.position) > head || (c.storeId !== undefined && c.storeId !== identity))
        throw new Error(`projection ${c.id} is at ${c.position}, beyond the copied log (head ${head}): backup abandoned`);
    }
    progress({ stage: 'archive' });
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: (opts.now ?? (() => new Date()))().toISOString(),
      storeIdentity: identity,
      headPosition: head.toString(),
      checkpoints: checkpoints.map((c) => ({ projection: c.id, version: c.version, position: c.position })),
      keysFromEnvironment: keysFromEnvironment(config),
      members: await Promise.all(members.map((name) => describeMember(staging, name))),
    };
    const size = await writeArchive(staging, manifest, target);
    return { file: target, size, manifest };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function copyKeys(dataDir: string, staging: string): string[] {
  const copied: string[] = [];
  for (const name of KEY_FILES) {
    const from = path.join(dataDir, name);
    if (!fs.existsSync(from)) continue;
    fs.copyFileSync(from, path.join(staging, name));
    fs.chmodSync(path.join(staging, name), 0o600);
    copied.push(name);
  }
  return copied;
}

/** Signed chain heads, copied before the log so none signs an event the copy lacks; a line being written is left out. */
function copyChainCheckpoints(dataDir: string, staging: string): string[] {
  const dir = path.join(dataDir, CHAIN_CHECKPOINTS_DIR);
  if (!fs.existsSync(dir)) return [];
  fs.mkdirSync(path.join(staging, CHAIN_CHECKPOINTS_DIR), { mode: 0o700 });
  const names: string[] = [];
  for (const name of fs.readdirSync(dir).filter((n) => /^[A-Za-z0-9_]{1,64}\.ndjson$/.test(n))) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    fs.writeFileSync(path.join(staging, CHAIN_CHECKPOINTS_DIR, name), text.slice(0, text.lastIndexOf('\n') + 1), { mode: 0o600 });
    names.push(`${CHAIN_CHECKPOINTS_DIR}/${name}`);
  }
  return names;
}

/** Reads the copy's checkpoints and frees its projector lease, so the restored service projects at once. */
async function prepareReadCopy(copy: string): Promise<CheckpointDoc[]> {
  const reads = await openSqliteReadStore({ file: copy });
  try {
    const leases = await reads.collection(LEASES_COLLECTION);
    if (await leases.get(PLATFORM_DOCS, PROJECTOR_LEASE)) {
      await leases.updateOne(PLATFORM_DOCS, { id: PROJECTOR_LEASE }, { $set: { expiresAt: 0 } });
    }
    const checkpoints = await reads.collection<CheckpointDoc>(CHECKPOINTS_COLLECTION);
    return (await checkpoints.find(PLATFORM_DOCS, {}, { limit: 1000 })).items;
  } finally {
    await reads.close();
  }
}

function logOf(file: string): { head: bigint; identity: string } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const head = db.prepare<[], { p: number | null }>('SELECT max(position) AS p FROM events').get()?.p ?? 0;
    const identity = readStoreIdentity(db);
    if (!identity) throw new Error('the copied event log has no identity yet (its first integrity check has not finished): try again');
    return { head: BigInt(head), identity };
  } finally {
    db.close();
  }
}

function keysFromEnvironment(config: BackupSource): string[] {
  return [
    ...(config.jwtSecret ? ['JWT_SECRET'] : []),
    ...(config.totpEncryptionKey ? ['TOTP_ENCRYPTION_KEY'] : []),
    ...(config.chainSigningKeyFile ? ['CHAIN_SIGNING_KEY_FILE'] : []),
  ];
}

/** `backup-20261126T181500Z.tar`: sorts by time, and the name alone says when. */
export function backupFileName(at: Date): string {
  return `backup-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar`;
}
