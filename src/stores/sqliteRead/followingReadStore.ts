// The read-model file as the projector thread writes it: its own connection, whose collections are handles that
// follow the file at the path. The main thread's recoverable store (recoverableReadStore.ts) finds damage and puts a
// fresh file in place; it then tells this thread to `reopen()` before the refill, so both write one file again.
import type { Collection, IndexSpec, NamedWrite, ReadDoc, ReadStore } from '../readStore.js';
import { openSqliteReadStore, type SqliteReadStore } from './sqliteReadStore.js';
import type { Logger } from '../../logger.js';
import type { CheckpointFence } from './checkpointFence.js';
import { isReadStoreDamage } from './readStoreDamage.js';

export interface FollowingReadStore extends ReadStore {
  /** Closes the connection and opens the file now at the path (collections are opened again as they are used). */
  reopen(): Promise<void>;
}

export async function openFollowingReadStore(opts: {
  file: string;
  logger: Logger;
  cacheMiB?: number;
  /** Shared with the main thread's glance: held around every write (a COMMIT may checkpoint). */
  fence: CheckpointFence;
  /** Damage met by a call (SQLite's word): the main thread's store sets the file aside and asks for the refill. */
  onDamage: (reason: string) => void;
}): Promise<FollowingReadStore> {
  const { fence } = opts;
  const told = <R>(call: Promise<R>): Promise<R> =>
    call.catch((error: unknown) => {
      if (isReadStoreDamage(error))
        opts.onDamage(`SQLite ${(error as { code: string }).code} in the projector thread: ${(error as Error).message}`);
      throw error;
    });
  const open = () => fence.hold(() => openSqliteReadStore(opts));
  let inner: SqliteReadStore = await open();
  let generation = 0;
  const indexes = new Map<string, IndexSpec[]>();
  const opened = new Map<string, { generation: number; collection: Promise<Collection> }>();

  const current = (name: string): Promise<Collection> => {
    const known = opened.get(name);
    if (known && known.generation === generation) return known.collection;
    const collection = fence.hold(() => inner.collection(name, indexes.get(name) ?? []));
    opened.set(name, { generation, collection });
    collection.catch(() => opened.delete(name));
    return collection;
  };

  const handle = <T extends ReadDoc>(name: string): Collection<T> => {
    const on = <R>(call: (c: Collection<T>) => Promise<R>): Promise<R> =>
      told(current(name).then((c) => call(c as unknown as Collection<T>)));
    // Fenced from the call to its first await: the SQLite work of these calls is synchronous (sqliteCollection.ts).
    const write = async <R>(call: (c: Collection<T>) => Promise<R>): Promise<R> => {
      const collection = (await current(name)) as unknown as Collection<T>;
      return told(fence.hold(() => call(collection)));
    };
    return {
      name,
      find: (...args) => on((c) => c.find(...args)),
      findOne: (...args) => on((c) => c.findOne(...args)),
      get: (...args) => on((c) => c.get(...args)),
      count: (...args) => on((c) => c.count(...args)),
      replace: (...args) => write((c) => c.replace(...args)),
      updateOne: (...args) => write((c) => c.updateOne(...args)),
      deleteOne: (...args) => write((c) => c.deleteOne(...args)),
      bulkWrite: (...args) => write((c) => c.bulkWrite(...args)),
      drop: () => write((c) => c.drop()),
    };
  };

  return {
    kind: 'sqlite',
    async collection<T extends ReadDoc = ReadDoc>(name: string, specs: IndexSpec[] = []): Promise<Collection<T>> {
      const known = indexes.get(name) ?? [];
      for (const spec of specs) if (!known.some((k) => JSON.stringify(k) === JSON.stringify(spec))) known.push(spec);
      indexes.set(name, known);
      await fence.hold(() => inner.collection(name, specs));
      return handle<T>(name);
    },
    // The flush of every projection idle in a turn (writeTogether.ts): one transaction, fenced like any write.
    async writeTogether(groups: NamedWrite[][]): Promise<unknown[]> {
      for (const name of new Set(groups.flat().map((write) => write.name))) await current(name);
      return told(fence.hold(() => inner.writeTogether(groups)));
    },
    listCollections: () => inner.listCollections(),
    async dropCollection(name: string): Promise<void> {
      indexes.delete(name);
      await fence.hold(() => inner.dropCollection(name));
    },
    async reopen(): Promise<void> {
      await inner.close();
      inner = await open();
      generation++;
    },
    close: () => inner.close(),
  };
}
