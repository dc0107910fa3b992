// Several collections' writes made together: one transaction on a store that offers it (SQLite: one COMMIT for a whole
// projection flush instead of one per collection and projection), one call after another elsewhere. The writes come in
// groups (a projection's documents, then its checkpoint) whose failures stay their own.
import type { BulkOp, Collection, NamedWrite, ReadDoc, ReadStore } from './readStore.js';

/** A bulk write (unordered, as Collection.bulkWrite) or the replacement of one document (as Collection.replace). */
export type GroupWrite = { collection: Collection<any>; ops: BulkOp<any>[] } | { collection: Collection<any>; replace: ReadDoc }; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Writes every group, each one's writes in order; a group stops at its first write that fails (with a bulk write's
 * partial effect, as bulkWrite alone) and that error is its result; the other groups go on. One result per group: null
 * when all of its writes were made. An error of the store as a whole (it is down, the transaction could not commit) is
 * every group's.
 */
export async function writeTogether(reads: ReadStore, groups: GroupWrite[][]): Promise<unknown[]> {
  if (reads.writeTogether) {
    const named = groups.map((group) =>
      group.map((write): NamedWrite =>
        'ops' in write ? { name: write.collection.name, ops: write.ops } : { name: write.collection.name, replace: write.replace },
      ),
    );
    try {
      return await reads.writeTogether(named);
    } catch (error) {
      return groups.map(() => error);
    }
  }
  const results: unknown[] = [];
  for (const group of groups) {
    let failure: unknown = null;
    for (const write of group) {
      try {
        if ('ops' in write) {
          if (write.ops.length > 0) await write.collection.bulkWrite(write.ops);
        } else await write.collection.replace(write.replace);
      } catch (error) {
        failure = error;
        break;
      }
    }
    results.push(failure);
  }
  return results;
}
