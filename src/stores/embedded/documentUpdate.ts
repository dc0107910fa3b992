// Update operators and upserts for the embedded store, with MongoDB's semantics: mingo applies the
// operators; the wrapper adds what mingo lacks (upsert seeding from the filter, $setOnInsert).
import { update as applyOperators, type Modifier } from 'mingo/updater';
import { setValue } from 'mingo/util';
import type { Filter, ReadDoc, Update } from '../readStore.js';
import { plainClone } from './plainClone.js';

type AnyDoc = Record<string, unknown>;

function isOperatorObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** The equality fields of a filter (top level, `$eq` and `$and`), which MongoDB copies into an upserted document. */
export function equalityFields(filter: Filter, into: AnyDoc = {}): AnyDoc {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) equalityFields(part as Filter, into);
    } else if (!key.startsWith('$')) {
      if (!isOperatorObject(value)) setValue(into, key, plainClone(value));
      else if (value && typeof value === 'object' && '$eq' in value) setValue(into, key, plainClone((value as AnyDoc).$eq));
    }
  }
  return into;
}

function checkOperators(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0 || keys.some((k) => !k.startsWith('$'))) {
    throw new TypeError('update must be a document of update operators ($set, $inc, ...); use replace() for whole documents');
  }
}

function run(doc: AnyDoc, operators: Update): void {
  if (Object.keys(operators).length === 0) return;
  applyOperators(doc, operators as Modifier<AnyDoc>, undefined, undefined, { cloneMode: 'deep' });
}

/** A new copy of `doc` with the operators applied; `tenantId` and `id` cannot change. */
export function updatedCopy<T extends ReadDoc>(doc: T, update: Update): T {
  checkOperators(update);
  const { $setOnInsert: _ignored, ...operators } = update;
  const next = plainClone(doc) as AnyDoc;
  run(next, operators);
  if (next.tenantId !== doc.tenantId || next.id !== doc.id) throw new TypeError('update must not change tenantId or id');
  return next as T;
}

/** The document an upsert inserts: the filter's equality fields, then $setOnInsert, then the other operators. */
export function upsertedDoc<T extends ReadDoc>(tenantId: string, filter: Filter, update: Update): T {
  checkOperators(update);
  const { $setOnInsert, ...operators } = update;
  const doc = equalityFields(filter);
  if ($setOnInsert) run(doc, { $set: $setOnInsert });
  run(doc, operators);
  if (doc.tenantId !== undefined && doc.tenantId !== tenantId) throw new TypeError('upsert names another tenantId');
  doc.tenantId = tenantId;
  if (typeof doc.id !== 'string' || doc.id === '') throw new TypeError('upsert needs a string id, from the filter or the update');
  return doc as T;
}
