// One embedded collection: a Map per tenant keyed by id (the `get`/`replace` fast paths never touch mingo),
// mingo for filters, keyset pages sorted in MongoDB comparison order, and copies in and out.
import { Query, find as mingoFind } from 'mingo';
import {
  DuplicateKeyError,
  type BulkOp,
  type Collection,
  type Filter,
  type FindOptions,
  type Page,
  type ReadDoc,
  type Update,
  storedPosition,
} from '../readStore.js';
import { compareSortValues, decodeCursor, encodeCursor, sortKeysOf, sortValuesOf } from '../readCursor.js';
import { plainClone } from './plainClone.js';
import { SHARED_ACCESS, type SharedAccess } from '../sharedDocuments.js';
import { UniqueIndexes } from './uniqueIndexes.js';
import { pickFields, topLevelInclusion } from '../projectionFields.js';
import { EqualityIndexes } from './equalityIndexes.js';
import { updatedCopy, upsertedDoc } from './documentUpdate.js';
import { assertSafeFilter } from '../filterGuard.js';

/** The documents of one collection; a handle looks it up on every call, so a dropped collection starts empty. */
export interface SortedRow {
  doc: ReadDoc;
  values: unknown[];
}

/** Sorted result sets kept per tenant, per (filter, sort), until the tenant's next write. */
const MAX_VIEWS_PER_TENANT = 32;

export class CollectionData {
  readonly tenants = new Map<string, Map<string, ReadDoc>>();
  readonly unique: UniqueIndexes;
  readonly equality = new EqualityIndexes();
  private readonly views = new Map<string, Map<string, SortedRow[]>>();
  constructor(readonly name: string) {
    this.unique = new UniqueIndexes(name);
  }

  *all(): Iterable<ReadDoc> {
    for (const docs of this.tenants.values()) yield* docs.values();
  }

  /** Stores a document the collection now owns (callers pass a fresh copy). */
  put(doc: ReadDoc): void {
    if (typeof doc.tenantId !== 'string' || doc.tenantId === '' || typeof doc.id !== 'string' || doc.id === '') {
      throw new TypeError(`${this.name}: a document needs a string tenantId and id`);
    }
    let docs = this.tenants.get(doc.tenantId);
    if (!docs) this.tenants.set(doc.tenantId, (docs = new Map<string, ReadDoc>()));
    const previous = docs.get(doc.id);
    this.unique.write(previous, doc);
    this.equality.write(previous, doc);
    docs.set(doc.id, doc);
    this.views.delete(doc.tenantId);
  }

  /** A sorted result set computed since the tenant's last write, if any. */
  cachedView(tenantId: string, key: string): SortedRow[] | undefined {
    return this.views.get(tenantId)?.get(key);
  }

  cacheView(tenantId: string, key: string, rows: SortedRow[]): void {
    let views = this.views.get(tenantId);
    if (!views) this.views.set(tenantId, (views = new Map<string, SortedRow[]>()));
    if (views.size >= MAX_VIEWS_PER_TENANT) views.delete(views.keys().next().value!);
    views.set(key, rows);
  }

  clear(): void {
    this.tenants.clear();
    this.unique.clear();
    this.equality.clear();
    this.views.clear();
  }

  remove(tenantId: string, id: string): boolean {
    const docs = this.tenants.get(tenantId);
    const doc = docs?.get(id);
    if (!docs || !doc) return false;
    this.unique.remove(doc);
    this.equality.remove(doc);
    docs.delete(id);
    this.views.delete(tenantId);
    return true;
  }

  /** Stored documents of a tenant matching a filter (references: callers copy before handing them out). */
  matching(tenantId: string, filter: Filter | undefined, firstOnly = false): ReadDoc[] {
    assertSafeFilter(filter);
    const docs = this.tenants.get(tenantId);
    if (!docs) return [];
    const hasFilter = filter !== undefined && Object.keys(filter).length > 0;
    const query = hasFilter ? new Query(filter) : null;
    // Equality on id narrows to one Map lookup.
    if (hasFilter && typeof filter.id === 'string') {
      const doc = docs.get(filter.id);
      return doc && query!.test(doc) ? [doc] : [];
    }
    // A plain equality on an indexed field narrows to the documents holding that value.
    const indexed = hasFilter ? this.equality.lookup(filter) : null;
    if (indexed) {
      const out: ReadDoc[] = [];
      for (const id of indexed.index.candidates(tenantId, indexed.value)) {
        const doc = docs.get(id);
        if (doc && query!.test(doc) && out.push(doc) > 1 && firstOnly) break;
      }
      // The first match of a scan is the first in insertion order, which the index does not keep: scan then.
      if (!firstOnly || out.length <= 1) return out;
    }
    const out: ReadDoc[] = [];
    for (const doc of docs.values()) {
      if (query && !query.test(doc)) continue;
      out.push(doc);
      if (firstOnly) break;
    }
    return out;
  }
}

export class EmbeddedCollection<T extends ReadDoc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly lookup: (create: boolean) => CollectionData | undefined,
  ) {}

  /** Writes create the collection (as in MongoDB); reads of a dropped one see it empty without creating it. */
  private data(create = false): CollectionData {
    return this.lookup(create) ?? (this.empty ??= new CollectionData(this.name));
  }
  private empty: CollectionData | undefined;

  async find(tenantId: string, filter?: Filter, options: FindOptions = {}): Promise<Page<T>> {
    const keys = sortKeysOf(options.sort);
    assertSafeFilter(filter); // before the cached views too
    const data = this.data();
    // Lists are read far more often than written: keep the sorted set until the tenant's next write.
    const key = viewKey(filter, keys);
    let rows = key === null ? undefined : data.cachedView(tenantId, key);
    if (!rows) {
      rows = data.matching(tenantId, filter).map((doc) => ({ doc, values: sortValuesOf(doc, keys) }));
      rows.sort((a, b) => compareSortValues(keys, a.values, b.values));
      if (key !== null) data.cacheView(tenantId, key, rows);
    }
    let start = 0;
    if (options.after) {
      const after = decodeCursor(options.after, keys);
      let low = 0;
      let high = rows.length; // first row strictly after the cursor
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (compareSortValues(keys, rows[mid]!.values, after) <= 0) low = mid + 1;
        else high = mid;
      }
      start = low;
    }
    start += Math.max(0, options.skip ?? 0);
    const end = options.limit !== undefined && options.limit >= 0 ? Math.min(rows.length, start + options.limit) : rows.length;
    const page = rows.slice(start, end);
    const nextCursor = end < rows.length && page.length > 0 ? encodeCursor(keys, page[page.length - 1]!.values) : null;
    const fields = options.projection ? topLevelInclusion(options.projection) : null;
    let items = page.map((row) => (fields ? pickFields(row.doc, fields) : plainClone(row.doc)) as T);
    if (options.projection && !fields) items = mingoFind(items, {}, options.projection).all() as T[];
    return { items, nextCursor };
  }

  async findOne(tenantId: string, filter: Filter): Promise<T | null> {
    const [doc] = this.data().matching(tenantId, filter, true);
    return doc ? (plainClone(doc) as T) : null;
  }

  async get(tenantId: string, id: string): Promise<T | null> {
    const doc = this.data().tenants.get(tenantId)?.get(id);
    return doc ? (plainClone(doc) as T) : null;
  }

  async count(tenantId: string, filter?: Filter): Promise<number> {
    if (!filter || Object.keys(filter).length === 0) return this.data().tenants.get(tenantId)?.size ?? 0;
    return this.data().matching(tenantId, filter).length;
  }

  async replace(doc: T): Promise<void> {
    this.data(true).put(plainClone(doc));
  }

  async updateOne(
    tenantId: string,
    filter: Filter,
    update: Update,
    options: { upsert?: boolean } = {},
  ): Promise<{ matched: number; upserted: boolean }> {
    return this.applyUpdate(tenantId, filter, update, options.upsert ?? false);
  }

  async deleteOne(tenantId: string, id: string): Promise<boolean> {
    return this.data().remove(tenantId, id);
  }

  /** Unordered, like the Mongo adapter: every op is tried, then the first failure is thrown. */
  async bulkWrite(ops: BulkOp<T>[]): Promise<void> {
    const data = this.data(true);
    let firstError: unknown = null;
    for (const op of ops) {
      try {
        if (op.kind === 'replace') {
          if (!op.ifNewer || isNewer(op.doc, data.tenants.get(op.doc.tenantId)?.get(op.doc.id))) data.put(plainClone(op.doc));
        } else if (op.kind === 'delete') {
          if (op.ifOlderThan === undefined || isOlder(data.tenants.get(op.tenantId)?.get(op.id), op.ifOlderThan))
            data.remove(op.tenantId, op.id);
        } else this.applyUpdate(op.tenantId, op.filter, op.update, op.upsert ?? false);
      } catch (error) {
        firstError ??= error;
      }
    }
    if (firstError) throw firstError as Error; // what an op throws: the port's errors (DuplicateKeyError, TypeError)
  }

  /** The projection runner's path: no copies (see sharedDocuments.ts). */
  [SHARED_ACCESS](): SharedAccess<T> {
    const data = this.data(true); // the runner holds this only while the collection serves its projection
    return {
      get: (tenantId, id) => (data.tenants.get(tenantId)?.get(id) as T | undefined) ?? null,
      put: (doc) => data.put(doc),
      remove: (tenantId, id) => void data.remove(tenantId, id),
    };
  }

  async drop(): Promise<void> {
    this.data().clear();
  }

  private applyUpdate(tenantId: string, filter: Filter, update: Update, upsert: boolean): { matched: number; upserted: boolean } {
    const data = this.data(true);
    const [current] = data.matching(tenantId, filter, true);
    if (current) {
      data.put(updatedCopy(current, update));
      return { matched: 1, upserted: false };
    }
    if (!upsert) return { matched: 0, upserted: false };
    const doc = upsertedDoc(tenantId, filter, update);
    // As in MongoDB, an upsert whose id exists but did not match the filter collides on the primary key.
    if (data.tenants.get(tenantId)?.has(doc.id)) throw new DuplicateKeyError(this.name, { tenantId, id: doc.id });
    data.put(doc);
    return { matched: 0, upserted: true };
  }
}

/** A conditional replace applies over an absent document, or one that applied an earlier event than the replacement. */
function isNewer(doc: ReadDoc, stored: ReadDoc | undefined): boolean {
  const current = storedPosition(stored);
  const next = storedPosition(doc);
  return current === null || next === null || current < next;
}

function isOlder(stored: ReadDoc | undefined, position: number): boolean {
  const current = storedPosition(stored);
  return current === null || current < position;
}

/** Cache key of a (filter, sort) pair; null when the filter holds values JSON cannot tell apart (Dates...). */
function viewKey(filter: Filter | undefined, keys: unknown): string | null {
  let plain = true;
  const key = JSON.stringify([filter ?? {}, keys], (_k, v: unknown) => {
    if (v instanceof RegExp) return { $regexp: String(v) }; // a search's pattern: the same text is the same filter
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) plain = false;
    return v;
  });
  return plain ? key : null;
}
