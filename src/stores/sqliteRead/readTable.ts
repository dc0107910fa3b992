// One collection of the SQLite read store: a table of JSON documents keyed by (tenant_id, id), the `_position`
// beside them for conditional writes, expression indexes for the keys each projection declares, and its
// prepared statements.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { DuplicateKeyError, type IndexSpec, type ReadDoc, storedPosition } from '../readStore.js';
import { withTenantFirst } from '../embedded/uniqueIndexes.js';
import { ArrayPaths } from './arrayPaths.js';
import { jsonPath, type FieldColumns } from './sqlFilter.js';

const MAX_CACHED_QUERIES = 256;

export function tableNameOf(collection: string): string {
  const readable = collection.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 40);
  return `rm_${readable}_${createHash('sha1').update(collection).digest('hex').slice(0, 8)}`;
}

/** MongoDB's unique indexes count a missing field as null, and two nulls collide: SQL NULLs never do. */
const uniqueColumn = (column: string) => `ifnull(${column}, x'00')`;

export function createTableSql(table: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (tenant_id TEXT NOT NULL, id TEXT NOT NULL, pos INTEGER, doc TEXT NOT NULL)`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${table}_key ON ${table} (tenant_id, id)`,
  ];
}

export class ReadTable implements FieldColumns {
  readonly arrayPaths: ArrayPaths;
  private readonly uniqueFields = new Set<string>();
  private readonly queries = new Map<string, Database.Statement>();
  readonly getDoc: Database.Statement<[string, string], string>;
  readonly upsert: Database.Statement<[string, string, number | null, string]>;
  readonly upsertIfNewer: Database.Statement<[string, string, number | null, string]>;
  readonly insert: Database.Statement<[string, string, number | null, string]>;
  readonly remove: Database.Statement<[string, string]>;
  readonly removeIfOlder: Database.Statement<[string, string, number]>;
  readonly countAll: Database.Statement<[string], number>;
  private readonly saveArrayPaths: Database.Statement<[string, string]>;

  constructor(
    private readonly db: Database.Database,
    readonly name: string,
    readonly table: string,
    arrayPaths: readonly string[],
  ) {
    this.arrayPaths = new ArrayPaths(arrayPaths);
    this.getDoc = db.prepare<[string, string], string>(`SELECT doc FROM ${table} WHERE tenant_id = ? AND id = ?`).pluck();
    const insert = `INSERT INTO ${table} (tenant_id, id, pos, doc) VALUES (?, ?, ?, ?)`;
    const update = `ON CONFLICT (tenant_id, id) DO UPDATE SET pos = excluded.pos, doc = excluded.doc`;
    this.upsert = db.prepare(`${insert} ${update}`);
    // A slower writer never replaces a document that applied a later event (see BulkOp).
    this.upsertIfNewer = db.prepare(`${insert} ${update} WHERE pos IS NULL OR excluded.pos IS NULL OR pos < excluded.pos`);
    this.insert = db.prepare(insert);
    this.remove = db.prepare(`DELETE FROM ${table} WHERE tenant_id = ? AND id = ?`);
    this.removeIfOlder = db.prepare(`DELETE FROM ${table} WHERE tenant_id = ? AND id = ? AND (pos IS NULL OR pos < ?)`);
    this.countAll = db.prepare<[string], number>(`SELECT count(*) FROM ${table} WHERE tenant_id = ?`).pluck();
    this.saveArrayPaths = db.prepare(`UPDATE read_collections SET array_paths = ? WHERE name = ?`);
  }

  expression(path: string): string | null {
    if (path === 'id') return 'id';
    if (path === 'tenantId') return 'tenant_id';
    if (this.arrayPaths.covers(path)) return null;
    const json = jsonPath(path);
    return json === null ? null : `json_extract(doc, '${json}')`;
  }

  uniqueExpression(path: string): string | null {
    const column = this.uniqueFields.has(path) ? this.expression(path) : null;
    return column === null || column === 'id' || column === 'tenant_id' ? null : uniqueColumn(column);
  }

  /** Creates the index when missing; a unique one over documents that already break it is a DuplicateKeyError. */
  ensureIndex(spec: IndexSpec): void {
    const fields = Object.entries(withTenantFirst(spec.keys)).filter(([field]) => field !== 'tenantId');
    const columns: string[] = ['tenant_id'];
    for (const [field, direction] of fields) {
      const json = field === 'id' ? 'id' : jsonPath(field);
      if (json === null) return; // a name SQL cannot quote: no index, queries still answer (by scan)
      const column = field === 'id' ? 'id' : `json_extract(doc, '${json}')`;
      columns.push(`${spec.unique && field !== 'id' ? uniqueColumn(column) : column}${direction === -1 ? ' DESC' : ''}`);
    }
    if (spec.unique) for (const [field] of fields) this.uniqueFields.add(field);
    else if (!fields.some(([field]) => field === 'id')) columns.push('id'); // ties break on id, as every sort does
    const label = spec.name ?? fields.map(([f]) => f).join('_');
    const name = `${this.table}_${createHash('sha1')
      .update(`${label}|${columns.join(',')}`)
      .digest('hex')
      .slice(0, 10)}`;
    try {
      this.db.exec(`CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name} ON ${this.table} (${columns.join(', ')})`);
    } catch (error) {
      throw duplicateOr(error, this.name, { index: label });
    }
  }

  /** A prepared statement per distinct query text (filters repeat: the same few per list route). */
  query(sql: string): Database.Statement {
    let statement = this.queries.get(sql);
    if (!statement) {
      if (this.queries.size >= MAX_CACHED_QUERIES) this.queries.delete(this.queries.keys().next().value!);
      statement = this.db.prepare(sql);
      this.queries.set(sql, statement);
    }
    return statement;
  }

  /** Stores a document (replacing the one with its key); `ifNewer` skips it over a document of a later event. */
  write(doc: ReadDoc, ifNewer = false): void {
    if (typeof doc.tenantId !== 'string' || doc.tenantId === '' || typeof doc.id !== 'string' || doc.id === '') {
      throw new TypeError(`${this.name}: a document needs a string tenantId and id`);
    }
    const json = JSON.stringify(doc);
    this.learnArrays(doc);
    try {
      (ifNewer ? this.upsertIfNewer : this.upsert).run(doc.tenantId, doc.id, storedPosition(doc), json);
    } catch (error) {
      throw duplicateOr(error, this.name, { tenantId: doc.tenantId, id: doc.id });
    }
  }

  /** Inserts a new document; its key taken already is a DuplicateKeyError (an upsert that did not match). */
  create(doc: ReadDoc): void {
    const json = JSON.stringify(doc);
    this.learnArrays(doc);
    try {
      this.insert.run(doc.tenantId, doc.id, storedPosition(doc), json);
    } catch (error) {
      throw duplicateOr(error, this.name, { tenantId: doc.tenantId, id: doc.id });
    }
  }

  private learnArrays(doc: ReadDoc): void {
    if (this.arrayPaths.learn(doc)) this.saveArrayPaths.run(JSON.stringify(this.arrayPaths.list()), this.name);
  }
}

function duplicateOr(error: unknown, collection: string, keys: Record<string, unknown>): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new DuplicateKeyError(collection, keys);
  return error;
}
