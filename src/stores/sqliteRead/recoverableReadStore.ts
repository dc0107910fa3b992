// The SQLite read store as the service holds it: collections are handles that follow the current file, so a file
// found damaged (a SQLite error of any read or write, a periodic glance at the path and header, a background
// quick_check after the file changed) is set aside and replaced by a fresh one under the same handles, which the
// projection runner then refills from the event log (the log is the truth). Meanwhile its calls answer 503.
import fs from 'node:fs';
import type { Logger } from '../../logger.js';
import type { Collection, IndexSpec, NamedWrite, ReadDoc, ReadStore } from '../readStore.js';
import { readModelRebuilding } from '../readModelRebuilding.js';
import { PRIVATE_FILE_MODE } from '../sqlite/sqliteSchema.js';
import { IntegrityCheckStoppedError, startIntegrityCheck, type IntegrityCheck } from '../sqlite/integrityCheck.js';
import { openSqliteReadStore, type SqliteReadStore } from './sqliteReadStore.js';
import { CheckpointFence } from './checkpointFence.js';
import { damagedNameOf, glanceAt, identityOf, isReadStoreDamage, setDamagedAside, type FileIdentity } from './readStoreDamage.js';

/** Kept across a replacement when they can be read: not derived from the log (process positions, webhook history). */
const KEPT_COLLECTIONS = ['process_checkpoints', 'webhook_deliveries', 'webhook_due'];
/**
 * A full check (PRAGMA quick_check in a child process: every page read, ~0.7 s per GB) of a file changed since the last one,
 * at most once per this many glances: every 10 minutes at the default 2 s glance. The first glance checks the file as
 * opened (damage found at start).
 */
const GLANCES_PER_CHECK = 300;

export interface ReadStoreDamage {
  at: string;
  reason: string;
  /** Where the damaged file was moved (null when nothing could be kept). */
  setAside: string | null;
}

export interface ReadStoreRecovery {
  /** 'rebuilding' from the moment damage is found until the projections have refilled the fresh file. */
  readonly state: 'ok' | 'rebuilding';
  readonly lastDamage: ReadStoreDamage | null;
  /** How the fresh file is refilled (the runner's catch-up from the start of the log); runs at once if one is owed. */
  onReplaced(refill: () => Promise<void>): void;
  /** Held by a projector thread around its writes, so the glance never sees a checkpoint half done (checkpointFence.ts). */
  readonly fence: CheckpointFence;
  /** Damage another connection met (the projector thread's): set aside and refilled, as if found here. */
  report(reason: string): void;
}

export function readStoreRecoveryOf(reads: ReadStore): ReadStoreRecovery | null {
  return 'recovery' in reads ? (reads as ReadStore & { recovery: ReadStoreRecovery }).recovery : null;
}

export interface RecoverableReadStoreOptions {
  file: string;
  logger: Logger;
  /** Glance at the file this often (0: only SQLite errors tell). */
  watchMs: number;
  /** SQLite's page cache of the connection, in MiB (READ_STORE_CACHE_MIB). */
  cacheMiB?: number;
  /** READ_STORE_CHECKPOINT_PAGES (walCheckpointer.ts). */
  checkpointPages?: number;
}

export async function openRecoverableSqliteReadStore(opts: RecoverableReadStoreOptions): Promise<ReadStore> {
  const { file, logger } = opts;
  let inner: SqliteReadStore = await openSqliteReadStore({ file, logger, cacheMiB: opts.cacheMiB, checkpointPages: opts.checkpointPages });
  let opened: FileIdentity | null = identityOf(file);
  let generation = 0;
  let swapping = false;
  let closed = false;
  const indexes = new Map<string, Map<string, IndexSpec>>();
  const handles = new Map<string, { generation: number; collection: Promise<Collection> }>();
  let refill: (() => Promise<void>) | null = null;
  let owed = false;
  let damages = 0;
  const recovery = {
    state: 'ok' as 'ok' | 'rebuilding',
    lastDamage: null as ReadStoreDamage | null,
    onReplaced,
    fence: new CheckpointFence(),
    report: (reason: string) => found(reason),
  };

  const current = (name: string): Promise<Collection> => {
    const known = handles.get(name);
    if (known && known.generation === generation) return known.collection;
    const collection = inner.collection(name, [...(indexes.get(name)?.values() ?? [])]);
    handles.set(name, { generation, collection });
    collection.catch(() => handles.delete(name));
    return collection;
  };

  /** Runs a call on the current file; damage found by it starts the recovery and answers 503, as do calls during it. */
  const guarded = async <R>(call: () => Promise<R>): Promise<R> => {
    if (swapping) throw readModelRebuilding();
    try {
      return await call();
    } catch (error) {
      if (!isReadStoreDamage(error)) throw error;
      found(`SQLite ${(error as { code: string }).code}: ${(error as Error).message}`, error);
      throw readModelRebuilding();
    }
  };

  /** Settles once the file in use is sound again (the damaged one set aside, a fresh one open). */
  let swapped: Promise<void> = Promise.resolve();

  function found(reason: string, error?: unknown): void {
    if (swapping || closed) return;
    swapping = true;
    damages++;
    recovery.state = 'rebuilding';
    swapped = swap(reason, error).then(
      () => {
        swapping = false;
        if (closed) return;
        if (refill) void refillNow().catch((failure: unknown) => logger.error('read store: refilling the read models failed', { failure }));
        else owed = true;
      },
      (failure: unknown) =>
        logger.error('read store: the damaged file could not be replaced; reads answer 503 until a restart', { file, failure }),
    );
  }

  async function swap(reason: string, error: unknown): Promise<void> {
    const at = new Date();
    const vanished = !fs.existsSync(file) || identityOf(file)?.ino !== opened?.ino;
    const kept = salvage(inner);
    let aside: string | null = null;
    try {
      if (vanished) {
        // Deleted (or replaced) under the open connection: keep what it still sees; a file put in its place goes aside too.
        aside = damagedNameOf(file, at);
        fs.closeSync(fs.openSync(aside, 'wx', PRIVATE_FILE_MODE)); // patient data: private before a byte is copied
        await inner.copyTo(aside);
        await inner.close().catch(() => undefined);
        if (fs.existsSync(file)) setDamagedAside(file, new Date(at.getTime() + 1));
        for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
      } else {
        await inner.close().catch(() => undefined);
        aside = setDamagedAside(file, at);
      }
    } catch (moveError) {
      logger.warn('read store: the damaged file could not be kept aside', { file, error: moveError });
      await inner.close().catch(() => undefined);
    }
    recovery.lastDamage = { at: at.toISOString(), reason, setAside: aside };
    logger.error('read store: file damaged; set aside and rebuilt from the event log (reads answer 503 meanwhile, writes go on)', {
      file,
      reason,
      setAside: aside,
      error,
    });
    if (closed) return; // the service stopped meanwhile: the next start opens a fresh file
    inner = await openSqliteReadStore({ file, logger, cacheMiB: opts.cacheMiB, checkpointPages: opts.checkpointPages });
    opened = identityOf(file);
    generation++;
    for (const [name, docs] of kept)
      if (docs.length > 0) await (await current(name)).bulkWrite(docs.map((doc) => ({ kind: 'replace', doc })));
  }

  async function refillNow(): Promise<void> {
    owed = false;
    const started = Date.now();
    const damage = damages;
    await refill!();
    if (damages !== damage) return; // damaged again meanwhile: that recovery's refill ends the rebuilding
    recovery.state = 'ok';
    logger.info('read store: read models rebuilt from the event log; reads answer again', { file, ms: Date.now() - started });
  }

  function onReplaced(fn: () => Promise<void>): void {
    refill = fn; // from here on the full check runs too: damage it finds no longer races the start's catch-up
    if (owed) void refillNow().catch((error: unknown) => logger.error('read store: refilling the read models failed', { error }));
  }

  // The glance: the path still names the file we opened, its header is sound; a changed file gets a full check.
  let glances = GLANCES_PER_CHECK;
  let checking: IntegrityCheck | null = null;
  let checkedMtime = -1;
  const glance = (): void => {
    if (swapping || closed || !opened) return;
    // Two writers may checkpoint the file: the projector thread (its fence) and the WAL checkpoint worker (its lock).
    const known = opened;
    const sight = recovery.fence.tryGlance(() => inner.outsideCheckpoints((quiet) => glanceAt(file, known, quiet)));
    if (sight === undefined) return; // the projector thread is writing: look at the next turn
    if (sight) return found(sight);
    glances++;
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat || stat.size === 0 || !refill || checking || glances < GLANCES_PER_CHECK || stat.mtimeMs === checkedMtime) return;
    const mtime = stat.mtimeMs;
    glances = 0;
    checkedMtime = mtime;
    const check = (checking = startIntegrityCheck(file));
    const checkedGeneration = generation;
    check.done
      .catch((error: unknown) => {
        if (error instanceof IntegrityCheckStoppedError || generation !== checkedGeneration) return;
        const message = (error as Error).message;
        const finding = / is corrupt \((.*)\); refusing/.exec(message)?.[1];
        if (finding) found(finding);
        else logger.warn('read store: the background check could not run', { file, error });
      })
      .finally(() => void (checking === check ? (checking = null) : undefined));
  };
  const timer = opts.watchMs > 0 ? setInterval(glance, opts.watchMs) : null;
  timer?.unref();

  const handle = <T extends ReadDoc>(name: string): Collection<T> => {
    const on = <R>(call: (c: Collection<T>) => Promise<R>): Promise<R> =>
      guarded(async () => call((await current(name)) as unknown as Collection<T>));
    return {
      name,
      find: (...args) => on((c) => c.find(...args)),
      findOne: (...args) => on((c) => c.findOne(...args)),
      get: (...args) => on((c) => c.get(...args)),
      count: (...args) => on((c) => c.count(...args)),
      replace: (...args) => on((c) => c.replace(...args)),
      updateOne: (...args) => on((c) => c.updateOne(...args)),
      deleteOne: (...args) => on((c) => c.deleteOne(...args)),
      bulkWrite: (...args) => on((c) => c.bulkWrite(...args)),
      drop: () => on((c) => c.drop()),
    };
  };

  return {
    kind: 'sqlite',
    recovery,
    async collection<T extends ReadDoc = ReadDoc>(name: string, specs: IndexSpec[] = []): Promise<Collection<T>> {
      // Opening a collection (the runner's start, a refill) waits out a swap: only document calls answer 503 during one.
      if (swapping) await swapped;
      const known = indexes.get(name) ?? new Map<string, IndexSpec>();
      for (const spec of specs) known.set(JSON.stringify(spec), spec);
      indexes.set(name, known);
      await guarded(() => inner.collection(name, specs));
      return handle<T>(name);
    },
    // Each collection opened on the current file first (with its indexes, after a replacement too).
    writeTogether: (groups: NamedWrite[][]) =>
      guarded(async () => {
        for (const name of new Set(groups.flat().map((write) => write.name))) await current(name);
        return inner.writeTogether(groups);
      }),
    listCollections: () => guarded(() => inner.listCollections()),
    async dropCollection(name: string): Promise<void> {
      if (swapping) await swapped;
      indexes.delete(name);
      await guarded(() => inner.dropCollection(name));
    },
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await checking?.stop();
      await swapped; // a swap under way ends first: it opens no new file once closed
      await inner.close();
    },
  } as ReadStore;
}

/** The collections not derived from the log, as far as the damaged file still gives them. */
function salvage(store: SqliteReadStore): Map<string, ReadDoc[]> {
  const kept = new Map<string, ReadDoc[]>();
  for (const name of KEPT_COLLECTIONS) {
    try {
      kept.set(name, store.documentsOf(name));
    } catch {
      kept.set(name, []);
    }
  }
  return kept;
}
