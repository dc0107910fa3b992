// Equality indexes of an embedded collection: for the first key after tenantId of each declared index, per
// tenant, the ids of the documents holding each value, so `find(tenant, { patientId })` tests a patient's
// notes instead of every note of the company. Candidates are still tested with the whole filter (mingo), so
// results are those of a scan; only string, finite-number and boolean values are looked up.
import type { IndexSpec, ReadDoc } from '../readStore.js';
import { withTenantFirst } from './uniqueIndexes.js';

type Key = string | number | boolean;
/** One id kept bare: most values (names, dates) belong to a single document. */
type Ids = string | Set<string>;

interface TenantEntries {
  byValue: Map<Key, Ids>;
  /** Documents whose value is an array: an equality may match one of its elements, so they are always candidates. */
  arrays: Set<string>;
}

/** A value an equality filter can be answered with from the index. */
export function isKey(value: unknown): value is Key {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && !Number.isNaN(value));
}

class FieldIndex {
  private readonly tenants = new Map<string, TenantEntries>();
  constructor(readonly field: string) {}

  write(previous: ReadDoc | undefined, next: ReadDoc): void {
    const after = next[this.field];
    if (previous && previous[this.field] === after && !Array.isArray(after)) return;
    if (previous) this.remove(previous);
    if (Array.isArray(after)) this.entriesOf(next.tenantId).arrays.add(next.id);
    else if (isKey(after)) {
      const entries = this.entriesOf(next.tenantId);
      const ids = entries.byValue.get(after);
      if (ids === undefined) entries.byValue.set(after, next.id);
      else if (typeof ids === 'string') entries.byValue.set(after, new Set([ids, next.id]));
      else ids.add(next.id);
    }
  }

  remove(doc: ReadDoc): void {
    const value = doc[this.field];
    const entries = this.tenants.get(doc.tenantId);
    if (!entries) return;
    if (Array.isArray(value)) entries.arrays.delete(doc.id);
    else if (isKey(value)) {
      const ids = entries.byValue.get(value);
      if (ids === doc.id) entries.byValue.delete(value);
      else if (typeof ids === 'object') {
        ids.delete(doc.id);
        if (ids.size === 1) entries.byValue.set(value, ids.values().next().value!);
      }
    }
  }

  /** Ids of the documents that may equal `value` (possibly more, never fewer). */
  candidates(tenantId: string, value: Key): Iterable<string> {
    const entries = this.tenants.get(tenantId);
    if (!entries) return [];
    const ids = entries.byValue.get(value);
    const exact = ids === undefined ? [] : typeof ids === 'string' ? [ids] : ids;
    return entries.arrays.size === 0 ? exact : [...exact, ...entries.arrays];
  }

  clear(): void {
    this.tenants.clear();
  }

  private entriesOf(tenantId: string): TenantEntries {
    let entries = this.tenants.get(tenantId);
    if (!entries) this.tenants.set(tenantId, (entries = { byValue: new Map(), arrays: new Set() }));
    return entries;
  }
}

export class EqualityIndexes {
  private readonly fields = new Map<string, FieldIndex>();

  /** Indexes the first key after tenantId of `spec` (not `id`, already a lookup; not a dotted path). */
  add(spec: IndexSpec, docs: Iterable<ReadDoc>): void {
    const field = Object.keys(withTenantFirst(spec.keys))[1];
    if (field === undefined || field === 'id' || field.includes('.') || field.startsWith('$') || this.fields.has(field)) return;
    const index = new FieldIndex(field);
    for (const doc of docs) index.write(undefined, doc);
    this.fields.set(field, index);
  }

  write(previous: ReadDoc | undefined, next: ReadDoc): void {
    for (const index of this.fields.values()) index.write(previous, next);
  }

  remove(doc: ReadDoc): void {
    for (const index of this.fields.values()) index.remove(doc);
  }

  clear(): void {
    for (const index of this.fields.values()) index.clear();
  }

  /** The index answering a top-level plain equality of `filter`, with its value; null when none applies. */
  lookup(filter: Record<string, unknown>): { index: FieldIndex; value: Key } | null {
    if (this.fields.size === 0) return null;
    for (const [field, index] of this.fields) {
      const value = filter[field];
      if (Object.hasOwn(filter, field) && isKey(value)) return { index, value };
    }
    return null;
  }
}
