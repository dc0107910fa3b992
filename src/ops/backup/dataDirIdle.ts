// Whether a data directory is in use: the one place a restore (and the command line) asks before touching the files.
// It reads the single-writer lock (DATA_DIR/service.lock) and the projector lease a running service keeps in the read
// store (renewed every few seconds, given up at a clean stop). (READ_STORE=memory keeps no lease: only the lock.)
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { READ_STORE_FILE } from '../../stores/openReadStore.js';
import { LEASES_COLLECTION, type LeaseDoc } from '../../stores/leases.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { tableNameOf } from '../../stores/sqliteRead/readTable.js';
import { PROJECTOR_LEASE } from '../../projections/runner/projectorLease.js';
import { holderAlive, LOCK_FILE, parseLockInfo, processAlive, type LockInfo } from '../serviceLock.js';

export class DataDirInUseError extends Error {
  readonly code = 'data-dir-in-use';
}

/**
 * Throws DataDirInUseError while a service holds the data directory: its projector lease has not expired (by `nowMs`),
 * or was not given up and names a process of this host that is still alive (clocks aside).
 */
export function assertDataDirIdle(dataDir: string, nowMs = Date.now()): void {
  const holder = lockHolder(path.join(dataDir, LOCK_FILE));
  if (holder && !(holder.pid === process.pid && holder.hostname === hostname()) && holderAlive(holder))
    throw new DataDirInUseError(
      `${dataDir} is in use: process ${holder.pid} on ${holder.hostname} holds its lock${holder.url ? ` and answers at ${holder.url}` : ''}; stop it first`,
    );
  const lease = projectorLease(path.join(dataDir, READ_STORE_FILE));
  if (!lease || lease.expiresAt === 0) return; // never taken, or given up at a clean stop
  const until = new Date(lease.expiresAt).toISOString();
  if (lease.expiresAt > nowMs)
    throw new DataDirInUseError(
      `${dataDir} is in use: a service (${lease.holder}) holds its projector lease until ${until}; stop it first`,
    );
  if (aliveHere(lease.holder))
    throw new DataDirInUseError(
      `${dataDir} is in use: the process holding its projector lease (${lease.holder}) is still running; stop it first`,
    );
}

/** The lock's holder (a lock of this process is ours: the command line holds it while it restores). */
function lockHolder(file: string): LockInfo | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null; // absent
  }
  return parseLockInfo(text);
}

/** Holders are `<hostname>:<pid>:<random>`: a process of this host is asked whether it still runs. */
function aliveHere(holder: string): boolean {
  const [host, pid] = holder.split(':');
  return host === hostname() && /^\d+$/.test(pid ?? '') && processAlive(Number(pid));
}

/** Reads the lease without opening the read store (which could set an unknown file aside): a check changes nothing. */
function projectorLease(file: string): LeaseDoc | null {
  if (!fs.existsSync(file)) return null;
  const db = new Database(file, { fileMustExist: true, timeout: 5_000 });
  try {
    const listed = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'read_collections'`).get();
    if (!listed) return null;
    const tbl = db.prepare<[string], { tbl: string }>(`SELECT tbl FROM read_collections WHERE name = ?`).get(LEASES_COLLECTION)?.tbl;
    if (!tbl || tbl !== tableNameOf(LEASES_COLLECTION)) return null;
    const doc = db
      .prepare<[string, string], { doc: string }>(`SELECT doc FROM ${tbl} WHERE tenant_id = ? AND id = ?`)
      .get(PLATFORM_DOCS, PROJECTOR_LEASE);
    return doc ? (JSON.parse(doc.doc) as LeaseDoc) : null;
  } finally {
    db.close();
  }
}
