// A Collection handle that forwards each call to whichever collection currently serves a projection's
// reads, so a rebuild's switch reaches every holder of the handle at once.
import type { Collection, ReadDoc } from '../../stores/readStore.js';
import { readModelRebuilding } from '../../stores/readModelRebuilding.js';

export function switchingCollection<T extends ReadDoc>(current: () => Collection<T>): Collection<T> {
  return {
    get name() {
      return current().name;
    },
    find: (...args) => current().find(...args),
    findOne: (...args) => current().findOne(...args),
    get: (...args) => current().get(...args),
    count: (...args) => current().count(...args),
    replace: (...args) => current().replace(...args),
    updateOne: (...args) => current().updateOne(...args),
    deleteOne: (...args) => current().deleteOne(...args),
    bulkWrite: (...args) => current().bulkWrite(...args),
    drop: () => current().drop(),
  };
}

/** What a slot's handle needs: its declared collections, the ones serving now, and whether a refill holds reads. */
interface ServingSlot {
  projection: { collections: Record<string, unknown> };
  collections: Map<string, Collection<ReadDoc>>;
  refilling?: boolean;
}

/** The one handle per projection and logical collection (kept in `handles`): 503 while refilling, then what serves. */
export function slotCollection<T extends ReadDoc>(
  handles: Map<string, Collection>,
  slotOf: (projection: string) => ServingSlot,
  projection: string,
  logical: string,
): Collection<T> {
  const key = `${projection}\u0000${logical}`;
  let handle = handles.get(key);
  if (!handle) {
    const slot = slotOf(projection);
    if (!(logical in slot.projection.collections)) throw new Error(`projection '${projection}' has no collection '${logical}'`);
    handle = switchingCollection(() => {
      if (slot.refilling) throw readModelRebuilding();
      const current = slot.collections.get(logical);
      if (!current) throw new Error(`projection '${projection}' is not started`);
      return current;
    });
    handles.set(key, handle);
  }
  return handle as unknown as Collection<T>;
}
