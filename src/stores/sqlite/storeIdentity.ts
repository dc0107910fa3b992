// The identity of an SQLite event log: a random id in a one-row meta table, written once. Files made before
// identities existed get theirs on first open (under the write lock, the first opener wins); a restored copy of
// the file keeps the id of the log it copies.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

const META_TABLE = 'store_meta';
const IDENTITY_KEY = 'store_id';

/** The stored identity, or null when the file has none yet (reads only). */
export function readStoreIdentity(db: Database.Database): string | null {
  const hasTable = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(META_TABLE);
  if (!hasTable) return null;
  const row = db.prepare<[string], { value: string }>(`SELECT value FROM ${META_TABLE} WHERE key = ?`).get(IDENTITY_KEY);
  return row?.value ?? null;
}

/** Creates the identity when missing and returns the stored one (another process may have written it first). */
export function ensureStoreIdentity(db: Database.Database): string {
  return db
    .transaction(() => {
      db.exec(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`);
      db.prepare(`INSERT OR IGNORE INTO ${META_TABLE} (key, value) VALUES (?, ?)`).run(IDENTITY_KEY, randomUUID());
      return readStoreIdentity(db)!;
    })
    .immediate();
}
