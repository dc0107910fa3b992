// The MongoDB read store (chosen when MONGO_URL is set). Every index leads with tenantId; unique indexes
// back the upserts that key on natural ids. Rebuilds write through unordered bulkWrite.
import { MongoClient, MongoServerError } from 'mongodb';
import type { Collection, IndexSpec, ReadDoc, ReadStore } from '../readStore.js';
import { withTenantFirst } from '../embedded/uniqueIndexes.js';
import { MongoCollection, type StoredDoc } from './mongoCollection.js';

const NAMESPACE_NOT_FOUND = 26;

export async function openMongoReadStore(opts: { url: string; dbName: string }): Promise<ReadStore> {
  // ignoreUndefined: undefined fields are left out, as the embedded store does, instead of stored as null.
  const client = new MongoClient(opts.url, { ignoreUndefined: true });
  await client.connect();
  const db = client.db(opts.dbName);

  return {
    kind: 'mongodb',
    async collection<T extends ReadDoc = ReadDoc>(name: string, indexes: IndexSpec[] = []): Promise<Collection<T>> {
      const native = db.collection<StoredDoc>(name);
      // Listing by tenant in id order is the default page; every other index is the projection's own.
      const specs = [
        { key: { tenantId: 1, id: 1 } as Record<string, 1 | -1> },
        ...indexes.map((index) => ({
          key: withTenantFirst(index.keys),
          ...(index.name ? { name: index.name } : {}),
          ...(index.unique ? { unique: true } : {}),
        })),
      ];
      await native.createIndexes(specs);
      return new MongoCollection<T>(name, native);
    },
    async listCollections(): Promise<string[]> {
      const infos = await db.listCollections({}, { nameOnly: true }).toArray();
      return infos
        .map((info) => info.name)
        .filter((name) => !name.startsWith('system.'))
        .sort();
    },
    async dropCollection(name: string): Promise<void> {
      try {
        await db.dropCollection(name);
      } catch (error) {
        // Older servers answer "ns not found" (code 26) for a missing collection; recent ones succeed.
        if (error instanceof MongoServerError && (error.code === NAMESPACE_NOT_FOUND || /ns not found/i.test(error.message))) return;
        throw error;
      }
    },
    async close(): Promise<void> {
      await client.close();
    },
  };
}
