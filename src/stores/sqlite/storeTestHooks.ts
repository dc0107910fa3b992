// Fault injection into the SQLite event store for tests (a failing fsync, a capped file): set only by a test
// harness through startServer's options, never from configuration.
import type Database from 'better-sqlite3';
import type { SyncWal } from './walDurability.js';

export interface SqliteEventStoreTestHooks {
  /** Makes the WAL durable (default: fdatasync on the threadpool). Tests pass a slower or failing one. */
  syncWal?: SyncWal;
  /** Sees the connection once open (e.g. to cap max_page_count as a full disk would). */
  onDatabaseOpen?: (db: Database.Database) => void;
}
