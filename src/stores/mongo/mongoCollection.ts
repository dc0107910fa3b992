// One MongoDB collection behind the read-store port. Documents are stored with `_id: <tenantId>:<id>`
// (tenant ids contain no ':'), so `get`, `replace` and `deleteOne` are primary-key operations; `_id` is
// stripped on the way out. Every query is wrapped as {$and: [{tenantId}, filter]}: a filter naming
// another tenant matches nothing.
import {
  MongoBulkWriteError,
  MongoServerError,
  type WriteError,
  type AnyBulkWriteOperation,
  type Collection as MongoNative,
  type Document,
} from 'mongodb';
import { find as mingoFind } from 'mingo';
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
import { decodeCursor, encodeCursor, keysetFilter, sortKeysOf, sortValuesOf } from '../readCursor.js';
import { assertSafeFilter } from '../filterGuard.js';

const DUPLICATE_KEY = 11000;

/** A read-model document as MongoDB holds it: the port's document plus its string primary key. */
export type StoredDoc = Document & { _id: string };

export const mongoKey = (tenantId: string, id: string): string => `${tenantId}:${id}`;

function scoped(tenantId: string, filter: Filter | undefined, ...more: Filter[]): Document {
  assertSafeFilter(filter); // every query and update of this adapter is scoped here
  // A filter repeating our own tenantId is redundant, and in an upsert mongod refuses two equalities on one path (code 54).
  if (filter?.tenantId === tenantId) {
    const { tenantId: _same, ...rest } = filter;
    filter = rest;
  }
  const parts = [filter, ...more].filter((f): f is Filter => f !== undefined && Object.keys(f).length > 0);
  return parts.length === 0 ? { tenantId } : { tenantId, $and: parts };
}

function withoutId<T extends ReadDoc>(doc: Document): T {
  const { _id: _dropped, ...rest } = doc;
  return rest as T;
}

function stored(doc: ReadDoc): Document {
  if (typeof doc.tenantId !== 'string' || doc.tenantId === '' || typeof doc.id !== 'string' || doc.id === '') {
    throw new TypeError('a document needs a string tenantId and id');
  }
  const { _id: _ignored, ...rest } = doc as ReadDoc & { _id?: unknown };
  return rest;
}

/**
 * Like the embedded store, an update never moves a document to another tenant or renames it: the key
 * `_id = tenantId:id` would no longer name it (and `$set: {tenantId}` would cross tenants). Upserts may give
 * the new document's `id` through `$set` / `$setOnInsert`.
 */
function assertKeepsIdentity(update: Update, upsert: boolean): void {
  for (const [operator, fields] of Object.entries(update)) {
    if (operator === '$setOnInsert' || typeof fields !== 'object' || fields === null) continue;
    for (const path of Object.keys(fields)) {
      const root = path.split('.')[0];
      if (root === 'tenantId' || root === '_id' || (root === 'id' && !(upsert && operator === '$set'))) {
        throw new TypeError(`update must not change tenantId or id (${operator} ${path})`);
      }
    }
  }
}

/** Upserts take the id from the filter (then `_id` is part of the query) or from $set / $setOnInsert. */
function upsertUpdate(tenantId: string, filter: Filter, update: Update): { query: Document; update: Document } {
  if (typeof filter.id === 'string') return { query: { _id: mongoKey(tenantId, filter.id), ...scoped(tenantId, filter) }, update };
  const set = update.$set as Record<string, unknown> | undefined;
  const onInsert = update.$setOnInsert as Record<string, unknown> | undefined;
  const id = set?.id ?? onInsert?.id;
  if (typeof id !== 'string' || id === '') throw new TypeError('upsert needs a string id, from the filter or the update');
  return { query: scoped(tenantId, filter), update: { ...update, $setOnInsert: { ...onInsert, _id: mongoKey(tenantId, id) } } };
}

export class MongoCollection<T extends ReadDoc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly native: MongoNative<StoredDoc>,
  ) {}

  async find(tenantId: string, filter?: Filter, options: FindOptions = {}): Promise<Page<T>> {
    const keys = sortKeysOf(options.sort);
    const after = options.after ? keysetFilter(keys, decodeCursor(options.after, keys)) : undefined;
    const limit = options.limit !== undefined && options.limit >= 0 ? options.limit : undefined;
    if (limit === 0) return { items: [], nextCursor: null };
    let cursor = this.native
      .find(scoped(tenantId, filter, ...(after ? [after] : [])), { projection: { _id: 0 } })
      .sort(Object.fromEntries(keys));
    if (options.skip && options.skip > 0) cursor = cursor.skip(options.skip); // the embedded store ignores a negative skip; the driver throws
    if (limit !== undefined) cursor = cursor.limit(limit + 1); // one more tells whether a next page exists
    const docs = (await cursor.toArray()) as unknown as T[];
    const hasMore = limit !== undefined && docs.length > limit;
    if (hasMore) docs.length = limit;
    const last = docs[docs.length - 1];
    const nextCursor = hasMore && last ? encodeCursor(keys, sortValuesOf(last, keys)) : null;
    // Projection after the cursor is taken, with mingo, so both adapters project alike.
    const items = options.projection ? (mingoFind(docs, {}, options.projection).all() as T[]) : docs;
    return { items, nextCursor };
  }

  async findOne(tenantId: string, filter: Filter): Promise<T | null> {
    const doc = await this.native.findOne(scoped(tenantId, filter), { projection: { _id: 0 } });
    return doc ? withoutId<T>(doc) : null;
  }

  async get(tenantId: string, id: string): Promise<T | null> {
    const doc = await this.native.findOne({ _id: mongoKey(tenantId, id) }, { projection: { _id: 0 } });
    return doc ? withoutId<T>(doc) : null;
  }

  async count(tenantId: string, filter?: Filter): Promise<number> {
    return this.native.countDocuments(scoped(tenantId, filter));
  }

  async replace(doc: T): Promise<void> {
    await this.translate(() => this.native.replaceOne({ _id: mongoKey(doc.tenantId, doc.id) }, stored(doc), { upsert: true }));
  }

  async updateOne(
    tenantId: string,
    filter: Filter,
    update: Update,
    options: { upsert?: boolean } = {},
  ): Promise<{ matched: number; upserted: boolean }> {
    assertKeepsIdentity(update, options.upsert ?? false);
    const { query, update: operators } = options.upsert
      ? upsertUpdate(tenantId, filter, update)
      : { query: scoped(tenantId, filter), update };
    const result = await this.translate(() => this.native.updateOne(query, operators, { upsert: options.upsert ?? false }));
    return { matched: result.matchedCount, upserted: result.upsertedCount > 0 };
  }

  async deleteOne(tenantId: string, id: string): Promise<boolean> {
    const result = await this.native.deleteOne({ _id: mongoKey(tenantId, id) });
    return result.deletedCount > 0;
  }

  /** Unordered (ordered: false): the server applies every op it can, then one error reports the failures. */
  async bulkWrite(ops: BulkOp<T>[]): Promise<void> {
    if (ops.length === 0) return;
    // Conditional replaces that find a newer document: their upsert collides on `_id`, which means "skipped".
    const conditional = new Set<number>();
    const models = ops.map((op, index): AnyBulkWriteOperation<StoredDoc> => {
      if (op.kind === 'replace') {
        const position = op.ifNewer ? storedPosition(op.doc) : null;
        if (position !== null) conditional.add(index);
        const filter = { _id: mongoKey(op.doc.tenantId, op.doc.id), ...(position !== null ? appliedBefore(position) : {}) };
        return { replaceOne: { filter, replacement: stored(op.doc), upsert: true } };
      }
      if (op.kind === 'delete') {
        const filter = { _id: mongoKey(op.tenantId, op.id), ...(op.ifOlderThan !== undefined ? appliedBefore(op.ifOlderThan) : {}) };
        return { deleteOne: { filter } };
      }
      assertKeepsIdentity(op.update, op.upsert ?? false);
      const { query, update } = op.upsert
        ? upsertUpdate(op.tenantId, op.filter, op.update)
        : { query: scoped(op.tenantId, op.filter), update: op.update };
      return { updateOne: { filter: query, update, upsert: op.upsert ?? false } };
    });
    try {
      await this.translate(() => this.native.bulkWrite(models, { ordered: false }), conditional);
    } catch (error) {
      if (error instanceof SkippedWritesOnly) return;
      throw error;
    }
  }

  async drop(): Promise<void> {
    await this.native.deleteMany({});
  }

  /** Maps E11000 (unique index violated) to the port's DuplicateKeyError; `skippable` ops may collide on `_id` (skipped). */
  private async translate<R>(write: () => Promise<R>, skippable?: ReadonlySet<number>): Promise<R> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof MongoBulkWriteError) {
        const errors = ([] as WriteError[]).concat(error.writeErrors).filter((e) => !(skippable?.has(e.index) && collidesOnId(e)));
        if (errors.length === 0 && !error.err) throw new SkippedWritesOnly();
        const duplicate = errors.find((e) => e.code === DUPLICATE_KEY);
        if (duplicate) throw new DuplicateKeyError(this.name, keyValueOf(duplicate.err));
      } else if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) {
        throw new DuplicateKeyError(this.name, keyValueOf(error));
      }
      throw error;
    }
  }
}

/** Matches a document that applied an event before `position` (or has no `_position`): a conditional write's filter. */
function appliedBefore(position: number): Document {
  return { $or: [{ _position: { $lt: position } }, { _position: { $not: { $type: 'number' } } }] };
}

/** A duplicate key on the primary key: the conditional upsert found the document, newer than its replacement. */
function collidesOnId(error: WriteError): boolean {
  if (error.code !== DUPLICATE_KEY) return false;
  const keyValue = (error.err as Document).keyValue as Record<string, unknown> | undefined;
  return keyValue ? '_id' in keyValue : / index: _id_ /.test(error.errmsg ?? '');
}

/** Every failure of a bulk write was a conditional operation skipped over a newer document: the write succeeded. */
class SkippedWritesOnly extends Error {}

function keyValueOf(error: Document): Record<string, unknown> {
  const keyValue = error.keyValue as Record<string, unknown> | undefined;
  return keyValue ?? { message: String(error.errmsg ?? error.message ?? '') };
}
