// Change stamps of the read-model collections: every write through the runner draws a new stamp for its tenant (a drop,
// for every tenant), so whoever prepared something from a collection can tell whether it may still serve it.
import type { BulkOp, Collection, ReadDoc } from '../../stores/readStore.js';
import { SHARED_ACCESS, sharedAccessOf, type SharedAccess } from '../../stores/sharedDocuments.js';

/** One clock per runner: every stamp drawn from it is new, so equal stamps mean "same collection, nothing written since". */
export class StampClock {
  private last = 0;
  next(): number {
    return ++this.last;
  }
}

/** The stamps of one opened collection. */
export class CollectionStamps {
  private epoch: number;
  private readonly byTenant = new Map<string, number>();

  /** `onTouch`: told of every touch too (tenant, or null for all), so another thread can keep stamps of its own. */
  constructor(
    private readonly clock: StampClock,
    private readonly onTouch?: (tenantId: string | null) => void,
  ) {
    this.epoch = clock.next();
  }

  touch(tenantId: string): void {
    this.byTenant.set(tenantId, this.clock.next());
    this.onTouch?.(tenantId);
  }

  touchAll(): void {
    this.byTenant.clear();
    this.epoch = this.clock.next();
    this.onTouch?.(null);
  }

  of(tenantId: string): number {
    return this.byTenant.get(tenantId) ?? this.epoch;
  }
}

const tenantOf = (op: BulkOp): string => (op.kind === 'replace' ? op.doc.tenantId : op.tenantId);

/**
 * The collection with every write stamped once it is done (or failed: part of it may have landed), so a reader that
 * sees the old stamp started before the write ended, and one that waited for the write sees a new stamp.
 */
export function stampedCollection<T extends ReadDoc>(inner: Collection<T>, stamps: CollectionStamps): Collection<T> {
  const after = async <R>(write: Promise<R>, touch: () => void): Promise<R> => {
    try {
      return await write;
    } finally {
      touch();
    }
  };
  const shared = sharedAccessOf(inner);
  const stamped: Collection<T> & { [SHARED_ACCESS]?: () => SharedAccess<T> } = {
    get name() {
      return inner.name;
    },
    find: (...args) => inner.find(...args),
    findOne: (...args) => inner.findOne(...args),
    get: (...args) => inner.get(...args),
    count: (...args) => inner.count(...args),
    replace: (doc) => after(inner.replace(doc), () => stamps.touch(doc.tenantId)),
    updateOne: (tenantId, ...rest) => after(inner.updateOne(tenantId, ...rest), () => stamps.touch(tenantId)),
    deleteOne: (tenantId, id) => after(inner.deleteOne(tenantId, id), () => stamps.touch(tenantId)),
    bulkWrite: (ops) =>
      after(inner.bulkWrite(ops), () => {
        for (const tenantId of new Set(ops.map(tenantOf))) stamps.touch(tenantId);
      }),
    drop: () => after(inner.drop(), () => stamps.touchAll()),
  };
  if (shared) {
    const access: SharedAccess<T> = {
      get: (tenantId, id) => shared.get(tenantId, id),
      put: (doc) => {
        try {
          shared.put(doc);
        } finally {
          stamps.touch(doc.tenantId);
        }
      },
      remove: (tenantId, id) => {
        try {
          shared.remove(tenantId, id);
        } finally {
          stamps.touch(tenantId);
        }
      },
    };
    stamped[SHARED_ACCESS] = () => access;
  }
  return stamped;
}
