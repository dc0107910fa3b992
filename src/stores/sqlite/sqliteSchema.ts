// Opening the SQLite event file: refuse anything that is not our schema, never touch a file we refuse.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EventStoreUnusableError } from '../eventStore.js';
import { corruptFileMessage } from './integrityCheck.js';

export const SCHEMA_VERSION = 2;
/** PRAGMA application_id marking the file as this service's event log ('DLYE'). */
export const APPLICATION_ID = 0x444c5945;
const WAL_AUTOCHECKPOINT_PAGES = 10_000;
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

const SCHEMA_V1 = `
  CREATE TABLE events (
    position INTEGER PRIMARY KEY,
    stream   TEXT    NOT NULL,
    revision INTEGER NOT NULL,
    tenant   TEXT    NOT NULL,
    event_id TEXT    NOT NULL UNIQUE,
    type     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    metadata TEXT    NOT NULL,
    UNIQUE (stream, revision)
  );
  -- tenant = stream name up to its first '.', so a tenant's history is one index range in position order
  CREATE INDEX events_by_tenant ON events (tenant, position);
`;

/** Version 2: the tenant hash chain (chain/hashChain.ts). Rows of a version 1 file keep a null hash: their tenant's
 * chain starts at its next append, which writes the tenant's genesis record. */
const SCHEMA_V2 = `
  ALTER TABLE events ADD COLUMN hash TEXT;
  CREATE TABLE chain_genesis (
    tenant        TEXT    PRIMARY KEY,
    from_position INTEGER NOT NULL
  );
`;

/**
 * Opens (or creates) the event file with WAL + synchronous=NORMAL (durability: walDurability.ts). An existing file is first inspected through
 * a read-only connection (header, application_id, schema version, schema readable), so a file we refuse is
 * never written. The full quick_check of an existing file is the caller's (startIntegrityCheck).
 */
export function openEventDatabase(file: string): { db: Database.Database; created: boolean } {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  const fresh = size === 0;
  if (!fresh) inspectExistingFile(file);
  // Created private before SQLite opens it: SQLite gives the -wal and -shm files the database file's mode.
  else fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));

  const db = new Database(file, { timeout: 10_000 });
  try {
    const mode = whileBusy(() => db.pragma('journal_mode = WAL', { simple: true }));
    if (String(mode).toLowerCase() !== 'wal') throw new EventStoreUnusableError(`${file}: cannot switch to WAL mode (got ${String(mode)})`);
    // NORMAL: a commit writes the WAL without syncing it, so the COMMIT never blocks the event loop on the disk;
    // the store fdatasyncs the WAL on the threadpool before it acknowledges an append (walDurability.ts).
    db.pragma('synchronous = NORMAL');
    // Random-key index pages (event ids, stream names) dominate the WAL; checkpointing every ~40 MB instead of
    // SQLite's default 4 MB writes each hot page back once per many commits (measured: ~+35% appends/s).
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma('foreign_keys = OFF');
    // Read again under the write lock: another process starting at the same time may have created the schema
    // since this one looked, and only the first one in may create it.
    const version = db
      .transaction(() => {
        const found = Number(db.pragma('user_version', { simple: true }));
        if (found === 0) {
          db.exec(SCHEMA_V1);
          db.pragma(`application_id = ${APPLICATION_ID}`);
        }
        if (found < 2) {
          // An older file is upgraded only once it is known sound: the background check has not run yet, and a
          // corrupt file is never written (a one-time wait at the first start of this version).
          if (found > 0) assertSound(db, file);
          db.exec(SCHEMA_V2);
          db.pragma(`user_version = ${SCHEMA_VERSION}`);
        }
        return found;
      })
      .immediate();
    if (version === 0) {
      syncDirectory(dir);
    } else if (version > SCHEMA_VERSION) {
      // Another process may have changed the file between the inspection and now.
      throw new EventStoreUnusableError(unknownVersionMessage(file, version));
    }
    keepPrivate(file);
    return { db, created: version === 0 };
  } catch (err) {
    db.close();
    throw asUnusable(file, err);
  }
}

function assertSound(db: Database.Database, file: string): void {
  const findings = db.pragma('quick_check', { simple: false }) as { quick_check: string }[];
  const problems = findings.map((f) => f.quick_check).filter((f) => f !== 'ok');
  if (problems.length > 0)
    throw new EventStoreUnusableError(corruptFileMessage(file, `PRAGMA quick_check: ${problems.slice(0, 3).join('; ')}`));
}

/**
 * Switching to WAL can answer SQLITE_BUSY at once, without SQLite's busy handler, while another process opening
 * the same new file holds its lock for a moment: try again for a bounded time.
 */
export function whileBusy<T>(work: () => T, timeoutMs = 10_000): T {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return work();
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 40);
    }
  }
}

/** Patient data and password hashes live in the log: readable by the service's user only. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Tightens the log and its WAL and shared-memory files when someone left them readable by others. */
export function keepPrivate(file: string): void {
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    const mode = fs.statSync(name, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & 0o077) !== 0) fs.chmodSync(name, PRIVATE_FILE_MODE);
  }
}

function inspectExistingFile(file: string): void {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, header.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!header.equals(SQLITE_HEADER)) {
    throw new EventStoreUnusableError(`${file} is not an SQLite database; refusing to start (the file was left untouched)`);
  }
  // Reading a WAL-mode file creates empty -wal/-shm siblings; if we refuse the file, remove the ones we made.
  const siblings = [`${file}-wal`, `${file}-shm`].filter((f) => !fs.existsSync(f));
  try {
    probeSteadily(file);
  } catch (err) {
    for (const f of siblings) removeIfCreatedEmpty(f);
    throw err;
  }
}

/**
 * A read-only probe that finds no -shm reads the file as if nothing wrote it: while another process starting at the
 * same instant checkpoints, it can see a torn header (schema written, application_id not yet). A file is refused
 * only when a few probes a moment apart all refuse it; a foreign or damaged file still is, ~0.3 s later.
 */
function probeSteadily(file: string, attempts = 5): void {
  for (let attempt = 1; ; attempt++) {
    try {
      return probeFile(file);
    } catch (err) {
      if (!(err instanceof EventStoreUnusableError) || attempt >= attempts) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30 + Math.random() * 60);
    }
  }
}

function removeIfCreatedEmpty(sibling: string): void {
  try {
    if (sibling.endsWith('-shm') || fs.statSync(sibling).size === 0) fs.unlinkSync(sibling);
  } catch {
    // absent or already removed
  }
}

function probeFile(file: string): void {
  let probe: Database.Database;
  try {
    // Read-only: no checkpoint on close, no schema creation, nothing written to the main file.
    probe = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
  } catch (err) {
    throw new EventStoreUnusableError(
      `${file} cannot be opened: ${(err as Error).message}; refusing to start (the file was left untouched)`,
    );
  }
  try {
    // Cheap checks only (the header page and the schema): the full quick_check runs in the background
    // (integrityCheck.ts) so a large log does not delay the start.
    const version = Number(probe.pragma('user_version', { simple: true }));
    const appId = Number(probe.pragma('application_id', { simple: true }));
    const tables = probe.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all() as string[];
    if (version === 0 && appId === 0 && tables.length === 0) return; // an empty database: safe to initialise
    if (appId !== APPLICATION_ID) {
      throw new EventStoreUnusableError(
        `${file} is an SQLite database but not this service's event log (application_id ${appId}); refusing to start (the file was left untouched)`,
      );
    }
    if (version < 1 || version > SCHEMA_VERSION) throw new EventStoreUnusableError(unknownVersionMessage(file, version));
    if (!tables.includes('events')) throw new EventStoreUnusableError(corruptFileMessage(file, 'the events table is missing'));
  } catch (err) {
    throw asUnusable(file, err);
  } finally {
    probe.close();
  }
}

/** SQLITE_CORRUPT* / SQLITE_NOTADB (a damaged page met while reading) become EventStoreUnusableError; others pass. */
export function asUnusable(file: string, err: unknown): unknown {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
    return new EventStoreUnusableError(corruptFileMessage(file, `${code}: ${(err as Error).message}`));
  }
  return err;
}

function unknownVersionMessage(file: string, version: number): string {
  return (
    `${file} has event-log schema version ${version}, but this build understands only version ${SCHEMA_VERSION}; ` +
    'refusing to start (the file was left untouched). Run a build that knows this version.'
  );
}

/** fsync the directory so the new file's directory entry itself survives a power cut. */
export function syncDirectory(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the data itself is already synced by SQLite.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
