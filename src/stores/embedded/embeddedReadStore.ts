// The embedded read store (default): every collection in memory, rebuilt from the event log at each start
// by the projection runner. Same behaviour as the Mongo adapter under the shared contract suite.
import type { Collection, IndexSpec, ReadDoc, ReadStore } from '../readStore.js';
import { CollectionData, EmbeddedCollection } from './embeddedCollection.js';

export function createEmbeddedReadStore(): ReadStore {
  const collections = new Map<string, CollectionData>();
  const dataOf = (name: string): CollectionData => {
    let data = collections.get(name);
    if (!data) collections.set(name, (data = new CollectionData(name)));
    return data;
  };

  return {
    kind: 'embedded',
    async collection<T extends ReadDoc = ReadDoc>(name: string, indexes: IndexSpec[] = []): Promise<Collection<T>> {
      const data = dataOf(name);
      for (const index of indexes) {
        if (index.unique) data.unique.add(index, data.all());
        data.equality.add(index, data.all());
      }
      return new EmbeddedCollection<T>(name, (create) => (create ? dataOf(name) : collections.get(name)));
    },
    async listCollections(): Promise<string[]> {
      return [...collections.keys()].sort();
    },
    async dropCollection(name: string): Promise<void> {
      collections.delete(name);
    },
    async close(): Promise<void> {
      collections.clear();
    },
  };
}
