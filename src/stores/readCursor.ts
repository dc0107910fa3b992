// Keyset pagination shared by both read-store adapters: a stable total order (the requested sort keys,
// then `id`) and an opaque cursor holding the last item's sort values, so pages never skip or repeat a
// document even when many share a sort value. The same cursor works against the embedded and Mongo stores.
import { compare } from 'mingo/util';
import type { Filter, SortSpec } from './readStore.js';

/** The cursor is malformed, or was made for another sort: the HTTP layer answers 400. */
export class InvalidCursorError extends Error {
  readonly code = 'invalid-cursor';
  constructor(message = 'invalid cursor') {
    super(message);
    this.name = 'InvalidCursorError';
  }
}

export type SortKey = readonly [field: string, direction: 1 | -1];

/** The requested keys up to `id`, with `id` ascending appended when absent: `id` is unique per tenant. */
export function sortKeysOf(sort: SortSpec | undefined): SortKey[] {
  const keys: SortKey[] = [];
  for (const [field, direction] of Object.entries(sort ?? {})) {
    if (direction !== 1 && direction !== -1) throw new TypeError(`sort direction of ${field} must be 1 or -1`);
    keys.push([field, direction]);
    if (field === 'id') return keys;
  }
  keys.push(['id', 1]);
  return keys;
}

/** Value at a dotted path; missing reads as null, as MongoDB sorts it. */
export function valueAt(doc: unknown, path: string): unknown {
  if (path.indexOf('.') < 0) {
    const value = doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>)[path] : undefined;
    return value === undefined ? null : value;
  }
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value === undefined ? null : value;
}

export function sortValuesOf(doc: unknown, keys: readonly SortKey[]): unknown[] {
  return keys.map(([field]) => valueAt(doc, field));
}

/** What a sort value may be in a cursor: an object or array would reach the store's filter as an operator. */
function isCursorValue(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

export function encodeCursor(keys: readonly SortKey[], values: unknown[]): string {
  if (!values.every(isCursorValue)) throw new TypeError(`sort values must be scalars to page on (${keys.map(([f]) => f).join(', ')})`);
  return Buffer.from(JSON.stringify({ k: keys.map(([f, d]) => (d === 1 ? f : `-${f}`)), v: values })).toString('base64url');
}

/** The last item's sort values (scalars only); throws InvalidCursorError unless the cursor was made for these keys. */
export function decodeCursor(cursor: string, keys: readonly SortKey[]): (string | number | boolean | null)[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  const { k, v } = (parsed ?? {}) as { k?: unknown; v?: unknown };
  const expected = keys.map(([f, d]) => (d === 1 ? f : `-${f}`));
  if (!Array.isArray(k) || !Array.isArray(v) || v.length !== keys.length || JSON.stringify(k) !== JSON.stringify(expected)) {
    throw new InvalidCursorError('cursor does not belong to this sort order');
  }
  if (!v.every(isCursorValue)) throw new InvalidCursorError('cursor values must be strings, finite numbers, booleans or null');
  return v;
}

/** Order of two sort-value tuples under the keys' directions (MongoDB comparison order per value). */
export function compareSortValues(keys: readonly SortKey[], a: unknown[], b: unknown[]): number {
  for (let i = 0; i < keys.length; i++) {
    const c = compare(a[i] ?? null, b[i] ?? null);
    if (c !== 0) return c * keys[i]![1];
  }
  return 0;
}

/**
 * MongoDB filter for "strictly after these sort values": an $or over each key position. Nulls sort first
 * ascending; comparison operators only match values of the same type (sort keys should hold one type).
 */
export function keysetFilter(keys: readonly SortKey[], values: unknown[]): Filter {
  const branches: Filter[] = [];
  for (let i = 0; i < keys.length; i++) {
    const [field, direction] = keys[i]!;
    const value = values[i] ?? null;
    const after = afterValue(field, direction, value);
    if (after) {
      const equalPrefix: Filter = {};
      for (let j = 0; j < i; j++) equalPrefix[keys[j]![0]] = values[j] ?? null;
      branches.push({ ...equalPrefix, ...after });
    }
  }
  return branches.length === 0 ? { _id: { $exists: false } } : { $or: branches }; // nothing comes after
}

function afterValue(field: string, direction: 1 | -1, value: unknown): Filter | null {
  if (direction === 1) return value === null ? { [field]: { $ne: null } } : { [field]: { $gt: value } };
  if (value === null) return null; // nothing sorts below null in descending order
  return { $or: [{ [field]: { $lt: value } }, { [field]: null }] };
}
