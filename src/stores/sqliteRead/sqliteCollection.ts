// One collection of the SQLite read store behind the read-store port. Filters and sorts run in SQL over
// the indexed JSON paths where that gives MongoDB's answer, and candidates are checked with mingo where it
// might not; pages are keyset pages with the same cursors as the other adapters.
import { Query } from 'mingo';
import type Database from 'better-sqlite3';
import { type BulkOp, type Collection, type Filter, type FindOptions, type Page, type ReadDoc, type Update } from '../readStore.js';
import { compareSortValues, decodeCursor, encodeCursor, keysetFilter, sortKeysOf, sortValuesOf, type SortKey } from '../readCursor.js';
import { updatedCopy, upsertedDoc } from '../embedded/documentUpdate.js';
import { projected, topLevelInclusion } from '../projectionFields.js';
import { all, rowValueSeek, translateFilter, type SqlCondition } from './sqlFilter.js';
import type { ReadTable } from './readTable.js';
import { assertSafeFilter } from '../filterGuard.js';

/** A page to read: the filter with the cursor's condition, its SQL, the sort keys, and how many to skip and take. */
interface PageRequest {
  whole: Filter;
  condition: SqlCondition;
  keys: SortKey[];
  skip: number;
  limit: number;
  /** What each row answers: the document, or in SQL only the fields a projection (and the cursor) needs. */
  select: string;
}

/** A document longer than this is cut down to the projected fields by SQLite before it is parsed here. */
const PROJECT_IN_SQL_BYTES = 2048;

export class SqliteCollection<T extends ReadDoc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly db: Database.Database,
    /** The table now (null when dropped: reads see it empty); `create` makes it again, as a MongoDB write does. */
    private readonly table: (create: boolean, lookAgain?: boolean) => ReadTable | null,
    /** After a bulk write's commit (the background checkpointer's safety net). */
    private readonly committed: () => void = () => undefined,
  ) {}

  async find(tenantId: string, filter?: Filter, options: FindOptions = {}): Promise<Page<T>> {
    return whenDropped(() => this.findNow(tenantId, filter, options), { items: [], nextCursor: null });
  }

  private findNow(tenantId: string, filter?: Filter, options: FindOptions = {}): Page<T> {
    assertSafeFilter(filter);
    const table = this.table(false);
    if (!table) return { items: [], nextCursor: null };
    const keys = sortKeysOf(options.sort);
    const cursor = options.after ? decodeCursor(options.after, keys) : null;
    const after = cursor ? keysetFilter(keys, cursor) : null;
    const limit = options.limit !== undefined && options.limit >= 0 ? options.limit : Infinity;
    const skip = Math.max(0, options.skip ?? 0);
    const whole: Filter = after ? { $and: [filter ?? {}, after] } : (filter ?? {});
    const ordered = sqlOrder(table, keys);
    const seek =
      ordered && cursor
        ? rowValueSeek(
            keys.map(([field]) => table.expression(field)),
            keys.map(([, d]) => d),
            cursor,
          )
        : null;
    const condition = seek ? all([translateFilter(filter, table), seek]) : translateFilter(whole, table);
    const select = ordered && condition.exact && options.projection ? projectedSelect(options.projection, keys) : 'doc';
    const request: PageRequest = { whole, condition, keys, skip, limit, select };
    const rows = ordered ? this.inOrder(table, tenantId, request) : this.sortedHere(table, tenantId, request);
    const page = rows.slice(0, limit);
    const nextCursor = rows.length > page.length && page.length > 0 ? encodeCursor(keys, sortValuesOf(page[page.length - 1], keys)) : null;
    const items = (options.projection ? page.map((doc) => projected(doc, options.projection!)) : page) as T[];
    return { items, nextCursor };
  }

  async findOne(tenantId: string, filter: Filter): Promise<T | null> {
    return whenDropped(() => this.findOneNow(tenantId, filter), null as T | null);
  }

  private findOneNow(tenantId: string, filter: Filter): T | null {
    const table = this.table(false);
    return table ? ((this.first(table, tenantId, filter) as T | null) ?? null) : null;
  }

  async get(tenantId: string, id: string): Promise<T | null> {
    return whenDropped(() => this.getNow(tenantId, id), null as T | null);
  }

  private getNow(tenantId: string, id: string): T | null {
    const json = this.table(false)?.getDoc.get(tenantId, id);
    return json === undefined ? null : (JSON.parse(json) as T);
  }

  async count(tenantId: string, filter?: Filter): Promise<number> {
    return whenDropped(() => this.countNow(tenantId, filter), 0);
  }

  private countNow(tenantId: string, filter?: Filter): number {
    assertSafeFilter(filter);
    const table = this.table(false);
    if (!table) return 0;
    if (!filter || Object.keys(filter).length === 0) return table.countAll.get(tenantId) ?? 0;
    const condition = translateFilter(filter, table);
    if (condition.exact) {
      return table
        .query(`SELECT count(*) FROM ${table.table} WHERE tenant_id = ? AND (${condition.sql})`)
        .pluck()
        .get(tenantId, ...condition.params) as number;
    }
    const query = new Query(filter);
    let count = 0;
    for (const doc of this.candidates(table, tenantId, condition, '')) if (query.test(doc)) count++;
    return count;
  }

  async replace(doc: T): Promise<void> {
    this.writing((table) => table.write(doc));
  }

  async updateOne(
    tenantId: string,
    filter: Filter,
    update: Update,
    options: { upsert?: boolean } = {},
  ): Promise<{ matched: number; upserted: boolean }> {
    return this.writing((table) => this.applyUpdate(table, tenantId, filter, update, options.upsert ?? false));
  }

  async deleteOne(tenantId: string, id: string): Promise<boolean> {
    return whenDropped(() => (this.table(false)?.remove.run(tenantId, id).changes ?? 0) > 0, false);
  }

  /** Unordered, like the other adapters: every op is tried in one transaction, then the first failure is thrown. */
  async bulkWrite(ops: BulkOp<T>[]): Promise<void> {
    if (ops.length === 0) return;
    // IMMEDIATE: the write lock is waited for at BEGIN (a background checkpoint may hold it), never refused mid-way.
    const firstError = this.db.transaction(() => this.applyOps(ops)).immediate();
    this.committed();
    if (firstError) throw firstError as Error;
  }

  /** Tries every op inside the caller's transaction (a failed statement is undone alone); answers the first failure. */
  applyOps(ops: BulkOp<T>[]): unknown {
    return this.writing((table) => {
      let firstError: unknown = null;
      for (const op of ops) {
        try {
          if (op.kind === 'replace') table.write(op.doc, op.ifNewer);
          else if (op.kind === 'delete') {
            if (op.ifOlderThan === undefined) table.remove.run(op.tenantId, op.id);
            else table.removeIfOlder.run(op.tenantId, op.id, op.ifOlderThan);
          } else this.applyUpdate(table, op.tenantId, op.filter, op.update, op.upsert ?? false);
        } catch (error) {
          if (isNoSuchTable(error)) throw error; // dropped by another connection: `writing` makes it again
          firstError ??= error;
        }
      }
      return firstError;
    });
  }

  /** Replace inside the caller's transaction. */
  replaceNow(doc: T): void {
    this.writing((table) => table.write(doc));
  }

  async drop(): Promise<void> {
    const table = this.table(false);
    if (table) this.db.prepare(`DELETE FROM ${table.table}`).run();
  }

  /** A write to a table another connection dropped since this one looked makes it again, as a MongoDB write does. */
  private writing<R>(write: (table: ReadTable) => R): R {
    try {
      return write(this.table(true)!);
    } catch (error) {
      if (!isNoSuchTable(error)) throw error;
      return write(this.table(true, true)!);
    }
  }

  private applyUpdate(
    table: ReadTable,
    tenantId: string,
    filter: Filter,
    update: Update,
    upsert: boolean,
  ): { matched: number; upserted: boolean } {
    const current = this.first(table, tenantId, filter);
    if (current) {
      table.write(updatedCopy(current, update));
      return { matched: 1, upserted: false };
    }
    if (!upsert) return { matched: 0, upserted: false };
    // As in MongoDB, an upsert whose id exists but did not match the filter collides on the primary key.
    table.create(upsertedDoc(tenantId, filter, update));
    return { matched: 0, upserted: true };
  }

  private first(table: ReadTable, tenantId: string, filter: Filter): ReadDoc | null {
    assertSafeFilter(filter); // findOne and updates
    if (typeof filter.id === 'string' && Object.keys(filter).length === 1) {
      const json = table.getDoc.get(tenantId, filter.id);
      return json === undefined ? null : (JSON.parse(json) as ReadDoc);
    }
    const condition = translateFilter(filter, table);
    const query = condition.exact ? null : new Query(filter);
    for (const doc of this.candidates(table, tenantId, condition, condition.exact ? 'LIMIT 1' : '')) {
      if (!query || query.test(doc)) return doc;
    }
    return null;
  }

  /** Rows in the requested order from SQL: only as many as the page needs, each checked by mingo unless exact. */
  private inOrder(table: ReadTable, tenantId: string, page: PageRequest): ReadDoc[] {
    const { whole, condition, keys, skip, limit, select } = page;
    const order = orderBy(table, keys);
    if (condition.exact) {
      const tail = limit === Infinity ? order : `${order} LIMIT ${limit + 1} OFFSET ${skip}`; // one more tells a next page exists
      return [...this.candidates(table, tenantId, condition, tail, select)];
    }
    const query = new Query(whole);
    const wanted = skip + limit + 1;
    const out: ReadDoc[] = [];
    let seen = 0;
    for (const doc of this.candidates(table, tenantId, condition, order)) {
      if (!query.test(doc)) continue;
      if (seen++ >= skip) out.push(doc);
      if (seen >= wanted) break;
    }
    return out;
  }

  /** Sorts MongoDB's way here when SQL cannot order a key (a path that has held arrays, or cannot be quoted). */
  private sortedHere(table: ReadTable, tenantId: string, page: PageRequest): ReadDoc[] {
    const { whole, condition, keys, skip, limit } = page;
    const query = condition.exact ? null : new Query(whole);
    const rows: { doc: ReadDoc; values: unknown[] }[] = [];
    for (const doc of this.candidates(table, tenantId, condition, '')) {
      if (!query || query.test(doc)) rows.push({ doc, values: sortValuesOf(doc, keys) });
    }
    rows.sort((a, b) => compareSortValues(keys, a.values, b.values));
    return rows.slice(skip, limit === Infinity ? undefined : skip + limit + 1).map((row) => row.doc);
  }

  private *candidates(table: ReadTable, tenantId: string, condition: SqlCondition, tail: string, select = 'doc'): Generator<ReadDoc> {
    const sql = `SELECT ${select} FROM ${table.table} WHERE tenant_id = ?${condition.sql === '1' ? '' : ` AND (${condition.sql})`} ${tail}`;
    for (const json of table
      .query(sql)
      .pluck()
      .iterate(tenantId, ...condition.params) as IterableIterator<string>)
      yield JSON.parse(json) as ReadDoc;
  }
}

/**
 * The SQL answering a long document with only the top-level fields a projection includes, plus the sort keys' (for
 * the cursor; `projected` drops them after): a page of sessions full of readings parses kilobytes, not megabytes.
 * JSON booleans come out of json_each as 1/0, so they are made JSON again. 'doc' when the projection is not that simple.
 */
function projectedSelect(projection: Record<string, 0 | 1>, keys: SortKey[]): string {
  const fields = topLevelInclusion(projection);
  if (!fields) return 'doc';
  const wanted = new Set([...fields, 'id', ...keys.map(([field]) => field.split('.')[0]!)]);
  const names = [...wanted].map((f) => `'${f.replace(/'/g, "''")}'`).join(', ');
  const value = `CASE type WHEN 'true' THEN json('true') WHEN 'false' THEN json('false') ELSE value END`;
  return `CASE WHEN octet_length(doc) > ${PROJECT_IN_SQL_BYTES} THEN (SELECT json_group_object(key, ${value}) FROM json_each(doc) WHERE key IN (${names})) ELSE doc END`;
}

/** A collection dropped by another connection since this one looked (a standby during a switch) reads as empty. */
async function whenDropped<R>(read: () => R, empty: R): Promise<R> {
  try {
    return read();
  } catch (error) {
    if (isNoSuchTable(error)) return empty;
    throw error;
  }
}

const isNoSuchTable = (error: unknown): boolean =>
  (error as { code?: unknown }).code === 'SQLITE_ERROR' && /no such table/.test((error as Error).message);

function orderBy(table: ReadTable, keys: SortKey[]): string {
  return `ORDER BY ${keys.map(([field, direction]) => `${table.expression(field)} ${direction === 1 ? 'ASC' : 'DESC'}`).join(', ')}`;
}

/** SQL can order the page when every sort key is a plain path (id, or JSON never holding an array there). */
function sqlOrder(table: ReadTable, keys: SortKey[]): boolean {
  return keys.every(([field]) => table.expression(field) !== null);
}
