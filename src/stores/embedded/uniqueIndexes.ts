// Unique indexes of an embedded collection: one Map per index from the key values to the owning id, so a
// write checks uniqueness in O(1). As in MongoDB, a missing field indexes as null (two docs missing it collide).
import { DuplicateKeyError, type IndexSpec, type ReadDoc } from '../readStore.js';
import { valueAt } from '../readCursor.js';

interface UniqueIndex {
  fields: string[];
  owners: Map<string, string>; // key values (JSON, tenantId first) -> id
}

export function withTenantFirst(keys: IndexSpec['keys']): IndexSpec['keys'] {
  if (Object.keys(keys)[0] === 'tenantId') return keys;
  const { tenantId: _dropped, ...rest } = keys;
  return { tenantId: 1, ...rest };
}

export class UniqueIndexes {
  private readonly indexes = new Map<string, UniqueIndex>();

  constructor(private readonly collection: string) {}

  get size(): number {
    return this.indexes.size;
  }

  /** Adds a unique index over existing documents; throws DuplicateKeyError when they already violate it. */
  add(spec: IndexSpec, docs: Iterable<ReadDoc>): void {
    const fields = Object.keys(withTenantFirst(spec.keys));
    const name = spec.name ?? fields.join('_');
    if (this.indexes.has(name)) return;
    const index: UniqueIndex = { fields, owners: new Map() };
    for (const doc of docs) {
      const key = keyOf(index, doc);
      if (index.owners.has(key)) throw this.duplicate(index, doc);
      index.owners.set(key, doc.id);
    }
    this.indexes.set(name, index);
  }

  /** Checks `next` against every index, then moves the entries of `previous` (if any) to it. */
  write(previous: ReadDoc | undefined, next: ReadDoc): void {
    if (this.indexes.size === 0) return;
    if (previous && this.unchanged(previous, next)) return;
    const keys: string[] = [];
    for (const index of this.indexes.values()) {
      const key = keyOf(index, next);
      const owner = index.owners.get(key);
      if (owner !== undefined && owner !== next.id) throw this.duplicate(index, next);
      keys.push(key);
    }
    let i = 0;
    for (const index of this.indexes.values()) {
      const key = keys[i++]!;
      if (previous) {
        const oldKey = keyOf(index, previous);
        if (oldKey === key) continue;
        if (index.owners.get(oldKey) === previous.id) index.owners.delete(oldKey);
      }
      index.owners.set(key, next.id);
    }
  }

  private unchanged(previous: ReadDoc, next: ReadDoc): boolean {
    for (const index of this.indexes.values()) if (!sameValues(index, previous, next)) return false;
    return true;
  }

  remove(doc: ReadDoc): void {
    for (const index of this.indexes.values()) {
      const key = keyOf(index, doc);
      if (index.owners.get(key) === doc.id) index.owners.delete(key);
    }
  }

  clear(): void {
    for (const index of this.indexes.values()) index.owners.clear();
  }

  private duplicate(index: UniqueIndex, doc: ReadDoc): DuplicateKeyError {
    return new DuplicateKeyError(this.collection, Object.fromEntries(index.fields.map((f) => [f, valueAt(doc, f)])));
  }
}

/** Cheap common case: the indexed fields did not change (compared as primitives; objects go the long way). */
function sameValues(index: UniqueIndex, a: ReadDoc, b: ReadDoc): boolean {
  for (const field of index.fields) {
    const x = valueAt(a, field);
    if (x !== valueAt(b, field) || (x !== null && typeof x === 'object')) return false;
  }
  return true;
}

/** The index key as the JSON of its values, separated by commas (unambiguous, like a JSON array body). */
function keyOf(index: UniqueIndex, doc: ReadDoc): string {
  let key = '';
  for (const field of index.fields) key += `${JSON.stringify(valueAt(doc, field))},`;
  return key;
}
