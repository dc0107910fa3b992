// The read-model store port, shaped on MongoDB collections. Three adapters: SQLite (persistent, in-process,
// the default), in memory (queried with mingo) and MongoDB. Every document belongs to one tenant; every operation names the tenant, and
// the adapter adds it to the filter, so no query can reach another company's documents.

/** A read-model document. `tenantId` + `id` identify it; adapters may add private keys (e.g. Mongo `_id`). */
export interface ReadDoc {
  tenantId: string;
  id: string;
  [key: string]: unknown;
}

export type Filter = Record<string, unknown>; // MongoDB query document
export type Update = Record<string, unknown>; // MongoDB update operators ($set, $inc, $push, $unset, ...)
export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec; // `id` is always added as the last key, so order is total and cursors are stable
  limit?: number;
  /** Opaque cursor from a previous page's `nextCursor`; must be used with the same filter and sort. */
  after?: string | null;
  skip?: number;
  projection?: Record<string, 0 | 1>;
}

export interface Page<T> {
  items: T[];
  /** Cursor of the page after this one, or null when this is the last. */
  nextCursor: string | null;
}

export interface IndexSpec {
  /** Keys; the adapter puts `tenantId: 1` first when it is not already first. */
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

/**
 * Bulk operations. Projection writes are conditional on the numeric `_position` a document stores (the global
 * position of the last event it applied), so a slower writer never replaces a newer document: `ifNewer` replaces
 * only an absent document or one with a lower `_position` than the replacement's; `ifOlderThan` deletes only a
 * document whose `_position` is lower. A skipped conditional operation is not an error.
 */
export type BulkOp<T extends ReadDoc = ReadDoc> =
  | { kind: 'replace'; doc: T; ifNewer?: boolean } // upsert by (tenantId, id)
  | { kind: 'update'; tenantId: string; filter: Filter; update: Update; upsert?: boolean }
  | { kind: 'delete'; tenantId: string; id: string; ifOlderThan?: number };

/** The `_position` a conditional write compares, or null when the document has none (then the write is unconditional). */
export function storedPosition(doc: Record<string, unknown> | null | undefined): number | null {
  const position = doc?._position;
  return typeof position === 'number' ? position : null;
}

export interface Collection<T extends ReadDoc = ReadDoc> {
  readonly name: string;
  find(tenantId: string, filter?: Filter, options?: FindOptions): Promise<Page<T>>;
  findOne(tenantId: string, filter: Filter): Promise<T | null>;
  /** Fast path for the common lookup by id. */
  get(tenantId: string, id: string): Promise<T | null>;
  count(tenantId: string, filter?: Filter): Promise<number>;
  /** Replace the whole document (insert when missing). */
  replace(doc: T): Promise<void>;
  /** Apply update operators to the first match; with upsert, insert one built from the filter's equality fields. */
  updateOne(
    tenantId: string,
    filter: Filter,
    update: Update,
    options?: { upsert?: boolean },
  ): Promise<{ matched: number; upserted: boolean }>;
  deleteOne(tenantId: string, id: string): Promise<boolean>;
  bulkWrite(ops: BulkOp<T>[]): Promise<void>;
  /** Delete every document of every tenant (used by rebuilds into a fresh collection). */
  drop(): Promise<void>;
}

export interface ReadStore {
  readonly kind: 'embedded' | 'sqlite' | 'mongodb';
  /** Open (or create) a collection and ensure its indexes. Names are already versioned (e.g. `patients_v1`). */
  collection<T extends ReadDoc = ReadDoc>(name: string, indexes?: IndexSpec[]): Promise<Collection<T>>;
  listCollections(): Promise<string[]>;
  dropCollection(name: string): Promise<void>;
  close(): Promise<void>;
  /** Optional: the writes of writeTogether.ts in one transaction (one result per group: null or its error). */
  writeTogether?(groups: NamedWrite[][]): Promise<unknown[]>;
}

/** A write of writeTogether.ts, the collection named: a bulk write or the replacement of one document. */
export type NamedWrite = { name: string; ops: BulkOp[] } | { name: string; replace: ReadDoc };

/** A unique index was violated. */
export class DuplicateKeyError extends Error {
  readonly code = 'duplicate-key';
  constructor(
    readonly collection: string,
    readonly keys: Record<string, unknown>,
  ) {
    super(`duplicate key in ${collection}: ${JSON.stringify(keys)}`);
    this.name = 'DuplicateKeyError';
  }
}

/** Tenant id under which platform-wide documents (projection checkpoints, users, companies) are kept. */
export const PLATFORM_DOCS = 'platform';
