// Optional capability of an in-process read store, used only by the projection runner: read, store and
// remove documents without copying them. Handlers fold documents into new ones (they never modify what
// they read) and keep no references, so the copies the public API makes would be pure overhead there;
// they were most of the cost of rebuilding the embedded store.
import type { Collection, ReadDoc } from './readStore.js';

export const SHARED_ACCESS = Symbol.for('dialysis.readStore.sharedAccess');

export interface SharedAccess<T extends ReadDoc = ReadDoc> {
  /** The stored document itself (or null): the caller must not modify it. */
  get(tenantId: string, id: string): T | null;
  /** Stores the document itself (unique indexes enforced): the caller must not modify it afterwards. */
  put(doc: T): void;
  remove(tenantId: string, id: string): void;
}

export function sharedAccessOf<T extends ReadDoc>(collection: Collection<T>): SharedAccess<T> | null {
  const access = (collection as { [SHARED_ACCESS]?: () => SharedAccess<T> })[SHARED_ACCESS];
  return typeof access === 'function' ? access.call(collection) : null;
}
