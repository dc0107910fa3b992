// A Collection handle that forwards each call to whichever collection currently serves a projection's
// reads, so a rebuild's switch reaches every holder of the handle at once.
import type { Collection, ReadDoc } from '../../stores/readStore.js';

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
