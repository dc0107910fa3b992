// Filters reach mingo and MongoDB as query documents. Every adapter refuses, at its boundary, what no filter of this
// service builds: an operator outside the few it uses ($where, $expr, $function... run code), an object where a
// comparison expects a value, or a pattern given as text. The service builds its patterns as RegExp objects, which
// JSON never produces, so a request value that slipped into a filter can never become a pattern or run code there.
import type { Filter } from './readStore.js';

const LOGICAL = new Set(['$and', '$or', '$nor']);
const COMPARISONS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);
const LISTS = new Set(['$in', '$nin', '$all']);

/** A filter this service would never build; thrown before the store reads anything (a bug, never a client's 4xx). */
export class UnsafeFilterError extends TypeError {
  constructor(detail: string) {
    super(`unsafe read-store filter: ${detail}`);
    this.name = 'UnsafeFilterError';
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RegExp) && !(value instanceof Date);

const isScalar = (value: unknown): boolean =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && !Number.isNaN(value)) ||
  value instanceof Date;

export function assertSafeFilter(filter: Filter | undefined): void {
  if (filter === undefined) return;
  if (!isPlainObject(filter)) throw new UnsafeFilterError('a filter is an object');
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL.has(key)) {
      if (!Array.isArray(value)) throw new UnsafeFilterError(`${key} takes a list of filters`);
      for (const branch of value) assertSafeFilter(branch as Filter);
    } else if (key.startsWith('$')) throw new UnsafeFilterError(`${key} is not an operator this service uses`);
    else assertSafeCondition(key, value);
  }
}

/** The condition on one field: a literal value, a RegExp, or an object of known operators with scalar operands. */
function assertSafeCondition(path: string, condition: unknown): void {
  if (!isPlainObject(condition) || !Object.keys(condition).some((k) => k.startsWith('$'))) return assertLiteral(path, condition);
  for (const [operator, operand] of Object.entries(condition)) {
    if (COMPARISONS.has(operator)) assertLiteral(path, operand, true);
    else if (LISTS.has(operator)) {
      if (!Array.isArray(operand) || !operand.every(isScalar)) throw new UnsafeFilterError(`${path}.${operator} takes a list of values`);
    } else if (operator === '$exists') {
      if (typeof operand !== 'boolean') throw new UnsafeFilterError(`${path}.$exists takes a boolean`);
    } else if (operator === '$regex') {
      if (!(operand instanceof RegExp)) throw new UnsafeFilterError(`${path}.$regex takes a RegExp the service built, never text`);
    } else if (operator === '$not') {
      if (!(operand instanceof RegExp)) assertSafeCondition(path, operand);
    } else if (operator === '$type') {
      if (typeof operand !== 'string' && typeof operand !== 'number') throw new UnsafeFilterError(`${path}.$type takes a type name`);
    } else if (operator === '$size') {
      if (!Number.isSafeInteger(operand)) throw new UnsafeFilterError(`${path}.$size takes an integer`);
    } else if (operator === '$elemMatch') {
      if (!isPlainObject(operand)) throw new UnsafeFilterError(`${path}.$elemMatch takes a filter`);
      assertSafeFilter(operand);
    } else throw new UnsafeFilterError(`${path}.${operator} is not an operator this service uses`);
  }
}

/** A value compared as it is: no key inside it may start with `$` (MongoDB and mingo would read it as an operator). */
function assertLiteral(path: string, value: unknown, scalarOnly = false): void {
  if (isScalar(value) || value instanceof RegExp) return;
  if (scalarOnly) throw new UnsafeFilterError(`${path} is compared with a value, not an object`);
  if (Array.isArray(value)) return value.forEach((item) => assertLiteral(path, item));
  if (value === undefined || typeof value === 'number') return; // undefined and NaN: nothing to read as an operator
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key.startsWith('$')) throw new UnsafeFilterError(`${path}.${key} inside a value`);
    assertLiteral(`${path}.${key}`, inner);
  }
}
