// The persistent embedded read store (the default): every collection a table of JSON documents in one SQLite
// file under DATA_DIR, with the projection checkpoints beside them, so a restart resumes from the checkpoints
// instead of rebuilding from the whole log. Its content is derived from the event log: commits need not reach
// the disk before the answer (synchronous=NORMAL keeps the file consistent; a lost tail is replayed), and a
// file of another format or that SQLite cannot open is set aside and built again.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from '../../logger.js';
import type { Collection, IndexSpec, NamedWrite, ReadDoc, ReadStore } from '../readStore.js';
import { SqliteCollection } from './sqliteCollection.js';
import { ReadTable, createTableSql, tableNameOf } from './readTable.js';
import { glanceAt, identityOf, isReadStoreDamage, setDamagedAside, walIsEmpty } from './readStoreDamage.js';
import { startWalCheckpointer } from './walCheckpointer.js';
import { keepPrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, whileBusy } from '../sqlite/sqliteSchema.js';

/** Bump when the file layout changes: an older file is then set aside and the read models rebuilt. */
const FORMAT_VERSION = 1;
/** Page cache in MiB by default (READ_STORE_CACHE_MIB): enough for the hot pages, small beside the 512 MiB budget. */
export const DEFAULT_READ_CACHE_MIB = 64;
const WAL_AUTOCHECKPOINT_PAGES = 10_000;

export interface SqliteReadStoreOptions {
  file: string;
  logger?: Logger;
  /** SQLite's page cache of the connection, in MiB (default DEFAULT_READ_CACHE_MIB). */
  cacheMiB?: number;
  /** READ_STORE_CHECKPOINT_PAGES: > 0, WAL checkpoints in a worker once the log passes this many pages (walCheckpointer.ts). */
  checkpointPages?: number;
}

/** The SQLite store with what its recovery (recoverableReadStore.ts) needs beyond the port. */
export interface SqliteReadStore extends ReadStore {
  /** A page-by-page copy of what the connection sees (a file unlinked under it too), made without blocking the loop. */
  copyTo(file: string): Promise<void>;
  /** The documents of a collection, read raw (a damaged file: as many as can be read). */
  documentsOf(name: string): ReadDoc[];
  /** Runs `fn(true)` while no background checkpoint is under way (none starts before it returns), else `fn(false)`. */
  outsideCheckpoints<R>(fn: (quiet: boolean) => R): R;
  /** The writes of writeTogether.ts in one transaction. */
  writeTogether(groups: NamedWrite[][]): Promise<unknown[]>;
}

export async function openSqliteReadStore(opts: SqliteReadStoreOptions): Promise<SqliteReadStore> {
  fs.mkdirSync(path.dirname(opts.file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const checkpointPages = opts.checkpointPages ?? 0;
  const db = openOrSetAside(opts.file, opts.logger, opts.cacheMiB ?? DEFAULT_READ_CACHE_MIB, checkpointPages);
  const checkpointer = checkpointPages > 0 ? startWalCheckpointer({ file: opts.file, pages: checkpointPages, logger: opts.logger }) : null;
  const tables = new Map<string, ReadTable>();
  const listed = db.prepare<[], { name: string; tbl: string; array_paths: string }>(`SELECT name, tbl, array_paths FROM read_collections`);
  const register = db.prepare(`INSERT OR IGNORE INTO read_collections (name, tbl) VALUES (?, ?)`);
  const unregister = db.prepare(`DELETE FROM read_collections WHERE name = ?`);
  const dataVersion = db.prepare(`PRAGMA data_version`).pluck();
  let seenVersion: unknown = null;

  // Another connection on the file (an api-role process, a second handle) may have created or dropped a collection,
  // or stored an array where none was: data_version moves only on their commits, so this costs one pragma otherwise.
  let synced = false;
  const sync = (now = false): void => {
    // Once per turn of the event loop (a table dropped meanwhile: reads answer empty, writes look again).
    if (synced && !now) return;
    synced = true;
    setImmediate(() => (synced = false)).unref();
    const version = dataVersion.get();
    if (version === seenVersion) return;
    seenVersion = version;
    const rows = listed.all();
    const names = new Set(rows.map((row) => row.name));
    for (const name of tables.keys()) if (!names.has(name)) tables.delete(name);
    for (const row of rows) {
      const paths = JSON.parse(row.array_paths) as string[];
      const known = tables.get(row.name);
      if (known?.table === row.tbl) known.arrayPaths.merge(paths);
      else tables.set(row.name, new ReadTable(db, row.name, row.tbl, paths));
    }
  };

  const tableOf = (name: string, create: boolean, lookAgain = false): ReadTable | null => {
    sync(lookAgain);
    let table = tables.get(name);
    if (!table && create) {
      const tbl = tableNameOf(name);
      db.transaction(() => {
        for (const sql of createTableSql(tbl)) db.exec(sql);
        register.run(name, tbl);
      }).immediate();
      tables.set(name, (table = new ReadTable(db, name, tbl, [])));
    }
    return table ?? null;
  };

  const committed = (): void => checkpointer?.afterCommit(db);
  const writers = new Map<string, SqliteCollection<ReadDoc>>();
  const writerOf = (name: string): SqliteCollection<ReadDoc> => {
    let writer = writers.get(name);
    if (!writer) writers.set(name, (writer = new SqliteCollection(name, db, (create, lookAgain) => tableOf(name, create, lookAgain))));
    return writer;
  };

  return {
    kind: 'sqlite',
    async writeTogether(groups: NamedWrite[][]): Promise<unknown[]> {
      // One transaction, one COMMIT: each group stops at its first failed write, the others go on. IMMEDIATE: the write
      // lock is waited for at BEGIN (a background checkpoint may hold it), never refused once a read has begun.
      const results = db
        .transaction(() =>
          groups.map((group) => {
            for (const write of group) {
              const writer = writerOf(write.name);
              if ('replace' in write) {
                try {
                  writer.replaceNow(write.replace);
                } catch (error) {
                  return error;
                }
              } else if (write.ops.length > 0) {
                const failure = writer.applyOps(write.ops);
                if (failure) return failure;
              }
            }
            return null;
          }),
        )
        .immediate();
      committed();
      const damage = results.find(isReadStoreDamage);
      if (damage) throw damage as Error; // the file's, not a group's: the recoverable store sets it aside
      return results;
    },
    async collection<T extends ReadDoc = ReadDoc>(name: string, indexes: IndexSpec[] = []): Promise<Collection<T>> {
      const table = tableOf(name, true)!;
      for (const index of indexes) table.ensureIndex(index);
      return new SqliteCollection<T>(name, db, (create, lookAgain) => tableOf(name, create, lookAgain), committed);
    },
    async listCollections(): Promise<string[]> {
      sync();
      return [...tables.keys()].sort();
    },
    async dropCollection(name: string): Promise<void> {
      sync();
      const table = tables.get(name);
      if (!table) return;
      tables.delete(name);
      db.transaction(() => {
        db.exec(`DROP TABLE IF EXISTS ${table.table}`);
        unregister.run(name);
      }).immediate();
    },
    async close(): Promise<void> {
      tables.clear();
      await checkpointer?.stop(); // first: the store's own connection is the last, so its close removes the log
      if (db.open) db.close();
    },
    outsideCheckpoints: <R>(fn: (quiet: boolean) => R): R => (checkpointer ? checkpointer.outsideCheckpoints(fn) : fn(true)),
    async copyTo(file: string): Promise<void> {
      await db.backup(file);
    },
    documentsOf(name: string): ReadDoc[] {
      const tbl = db.prepare<[string], string>(`SELECT tbl FROM read_collections WHERE name = ?`).pluck().get(name);
      if (!tbl) return [];
      return (db.prepare(`SELECT doc FROM ${tbl}`).pluck().all() as string[]).map((json) => JSON.parse(json) as ReadDoc);
    },
  };
}

function openOrSetAside(file: string, logger: Logger | undefined, cacheMiB: number, checkpointPages: number): Database.Database {
  try {
    const replay = !walIsEmpty(file);
    const db = openDatabase(file, cacheMiB, checkpointPages);
    let wrong: string | null;
    try {
      // A log left by a crash is checkpointed first (one cut short leaves the file shorter than its header says), then
      // the header is glanced at: a truncated file may open and read its first pages well.
      if (replay) db.pragma('wal_checkpoint(TRUNCATE)');
      wrong = glanceAt(file, identityOf(file)!);
      if (!wrong && initialised(db)) {
        readStartTables(db);
        return db;
      }
    } catch (error) {
      db.close();
      throw error;
    }
    db.close();
    if (wrong) throw Object.assign(new Error(wrong), { code: 'SQLITE_CORRUPT' });
    logger?.warn('read store: file of another format, set aside; read models are rebuilt from the event log', { file });
  } catch (error) {
    const aside = setDamagedAside(file, new Date());
    logger?.error('read store: file damaged, set aside for a look; read models are rebuilt from the event log', { file, aside, error });
    return openFresh(file, cacheMiB, checkpointPages);
  }
  setAside(file);
  return openFresh(file, cacheMiB, checkpointPages);
}

/** Small tables of platform documents, read in full before the service starts (checkpoints, positions, the lease). */
const START_TABLES = ['projection_checkpoints', 'process_checkpoints', 'leases'];

/**
 * Reads the schema and the small tables a start reads, so damage there is found at open (the file is set aside and
 * the start goes on) rather than by the start itself, which would stop and find it again at every restart.
 */
function readStartTables(db: Database.Database): void {
  db.prepare(`SELECT * FROM sqlite_master`).all();
  const tables = db.prepare<[string], string>(`SELECT tbl FROM read_collections WHERE name = ?`).pluck();
  for (const name of START_TABLES) {
    const tbl = tables.get(name);
    if (tbl) for (const json of db.prepare(`SELECT doc FROM ${tbl}`).pluck().iterate() as IterableIterator<string>) JSON.parse(json);
  }
}

function openFresh(file: string, cacheMiB: number, checkpointPages: number): Database.Database {
  const db = openDatabase(file, cacheMiB, checkpointPages);
  if (!initialised(db)) {
    db.close();
    throw new Error(`${file}: a new read store file could not be initialised`);
  }
  return db;
}

function openDatabase(file: string, cacheMiB: number, checkpointPages: number): Database.Database {
  // Created private before SQLite opens it: the WAL and shared-memory files take its mode (patient data).
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  const db = new Database(file, { timeout: 10_000 });
  try {
    whileBusy(() => db.pragma('journal_mode = WAL'));
    db.pragma('synchronous = NORMAL');
    db.pragma(`cache_size = -${cacheMiB * 1024}`);
    // Sorts beyond the page cache spill to a temporary file (SQLITE_TMPDIR, else TMPDIR, else /var/tmp): in memory, the
    // index builds after a 10M-event first start held every key at once (a 3M-row index: 676 MiB peak against 181).
    db.pragma('temp_store = FILE');
    // Rebuilds rewrite many index pages: checkpointing every ~40 MB instead of 4 MB writes each back once per many commits.
    // With a background checkpointer (walCheckpointer.ts) no commit of this connection checkpoints by itself.
    db.pragma(`wal_autocheckpoint = ${checkpointPages > 0 ? 0 : WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${(checkpointPages > 0 ? 2 * checkpointPages : WAL_AUTOCHECKPOINT_PAGES) * 4096}`);
    keepPrivate(file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** True when the file is a read store of this format, made so when empty; under the write lock, so two starts agree. */
function initialised(db: Database.Database): boolean {
  return db
    .transaction(() => {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version === FORMAT_VERSION) return true;
      const empty = (db.prepare(`SELECT count(*) FROM sqlite_master`).pluck().get() as number) === 0;
      if (version !== 0 || !empty) return false;
      db.exec(`CREATE TABLE read_collections (name TEXT PRIMARY KEY, tbl TEXT NOT NULL, array_paths TEXT NOT NULL DEFAULT '[]')`);
      db.pragma(`user_version = ${FORMAT_VERSION}`);
      return true;
    })
    .immediate();
}

function setAside(file: string): void {
  // Only the last one is kept (for a look at what went wrong): the content is derived, the log has it all.
  for (const suffix of ['', '-wal', '-shm']) {
    fs.rmSync(`${file}.previous${suffix}`, { force: true });
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, `${file}.previous${suffix}`);
  }
}
