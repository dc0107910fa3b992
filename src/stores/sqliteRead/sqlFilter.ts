// MongoDB query documents narrowed to SQL over JSON documents. The SQL only narrows: every candidate row is
// still tested with mingo unless the translation is `exact`, so MongoDB's semantics (array fields, type
// bracketing) are never lost; it only decides how much the index can skip.
import type { Filter } from '../readStore.js';

export interface SqlCondition {
  sql: string;
  params: unknown[];
  /** True when the SQL matches exactly what MongoDB would (no mingo test needed). */
  exact: boolean;
}

export interface FieldColumns {
  /** SQL expression of a dotted path, or null when the path may hold arrays (then only mingo can judge it). */
  expression(path: string): string | null;
  /** The expression a unique index uses for the path (missing and null collide there, as in MongoDB), if any. */
  uniqueExpression(path: string): string | null;
}

const EVERYTHING: SqlCondition = { sql: '1', params: [], exact: false };

/** JSON path literal of a dotted field path; null for names SQL paths cannot quote safely. */
export function jsonPath(path: string): string | null {
  const parts = path.split('.');
  if (parts.some((p) => p === '' || /["'\\]/.test(p) || p.startsWith('$'))) return null;
  return '$' + parts.map((p) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `."${p}"`)).join('');
}

export function translateFilter(filter: Filter | undefined, columns: FieldColumns): SqlCondition {
  if (!filter) return { sql: '1', params: [], exact: true };
  const parts: SqlCondition[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) parts.push(all(value.map((f) => translateFilter(f as Filter, columns))));
    else if (key === '$or' && Array.isArray(value)) parts.push(any(value.map((f) => translateFilter(f as Filter, columns))));
    else if (key.startsWith('$')) parts.push(EVERYTHING);
    else parts.push(field(key, value, columns));
  }
  return all(parts);
}

export function all(parts: SqlCondition[]): SqlCondition {
  const narrowing = parts.filter((p) => p.sql !== '1');
  return {
    sql: narrowing.length === 0 ? '1' : narrowing.map((p) => `(${p.sql})`).join(' AND '),
    params: narrowing.flatMap((p) => p.params),
    exact: parts.every((p) => p.exact),
  };
}

function any(parts: SqlCondition[]): SqlCondition {
  if (parts.length === 0) return { sql: '0', params: [], exact: true };
  // One branch that cannot narrow makes the whole alternative unable to narrow.
  if (parts.some((p) => p.sql === '1')) return { sql: '1', params: [], exact: parts.every((p) => p.exact) };
  return { sql: parts.map((p) => `(${p.sql})`).join(' OR '), params: parts.flatMap((p) => p.params), exact: parts.every((p) => p.exact) };
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RegExp) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function field(path: string, value: unknown, columns: FieldColumns): SqlCondition {
  const column = columns.expression(path);
  if (column === null) return EVERYTHING;
  if (!isOperatorObject(value)) return equals(path, column, value, columns);
  return all(Object.entries(value).map(([operator, operand]) => compare(path, column, operator, operand, columns)));
}

function equals(path: string, column: string, value: unknown, columns: FieldColumns): SqlCondition {
  if (value === null) return { sql: `${column} IS NULL`, params: [], exact: true };
  // JSON true/false read back as 1/0 in SQL, and a number could then match a boolean: mingo decides those.
  if (typeof value === 'string') return { sql: `${columns.uniqueExpression(path) ?? column} = ?`, params: [value], exact: true };
  if (typeof value === 'number' && Number.isFinite(value)) return { sql: `${column} = ?`, params: [value], exact: false };
  if (typeof value === 'boolean') return { sql: `${column} = ?`, params: [value ? 1 : 0], exact: false };
  return EVERYTHING;
}

const RANGE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

function compare(path: string, column: string, operator: string, operand: unknown, columns: FieldColumns): SqlCondition {
  if (operator === '$eq') return equals(path, column, operand, columns);
  if (operator in RANGE && (typeof operand === 'string' || (typeof operand === 'number' && Number.isFinite(operand)))) {
    // Narrows only: a number range could also take booleans (1/0), a string range objects (JSON text): mingo decides.
    return { sql: `${column} ${RANGE[operator]} ?`, params: [operand], exact: false };
  }
  if (operator === '$ne' && operand === null) return { sql: `${column} IS NOT NULL`, params: [], exact: true };
  if (operator === '$ne' && typeof operand === 'string')
    return { sql: `(${column} IS NULL OR ${column} <> ?)`, params: [operand], exact: true };
  if (operator === '$exists' && typeof operand === 'boolean') {
    if (column === 'id' || column === 'tenant_id') return { sql: operand ? '1' : '0', params: [], exact: true };
    const path$ = jsonPath(path)!;
    return { sql: `json_type(doc, '${path$}') IS ${operand ? 'NOT ' : ''}NULL`, params: [], exact: true };
  }
  if (operator === '$in' && Array.isArray(operand)) return within(column, operand);
  return EVERYTHING;
}

function within(column: string, values: unknown[]): SqlCondition {
  const scalars = values.filter((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
  const hasNull = values.includes(null);
  if (scalars.length + (hasNull ? 1 : 0) !== values.length) return EVERYTHING; // regexes, objects, booleans: mingo
  const branches: string[] = [];
  if (scalars.length > 0) branches.push(`${column} IN (${scalars.map(() => '?').join(', ')})`);
  if (hasNull) branches.push(`${column} IS NULL`);
  if (branches.length === 0) return { sql: '0', params: [], exact: true };
  return { sql: branches.join(' OR '), params: scalars, exact: scalars.every((v) => typeof v === 'string') };
}

/**
 * "After these sort values" as one row-value comparison, which SQLite answers by seeking in the sort's index (the
 * $or of keysetFilter makes it scan from the first row); only when every key runs one way and every value is a
 * string or a number (a null compares as unknown). Exact for strings; numbers leave booleans to mingo.
 */
export function rowValueSeek(columns: (string | null)[], directions: (1 | -1)[], values: unknown[]): SqlCondition | null {
  if (columns.some((c) => c === null) || directions.some((d) => d !== directions[0])) return null;
  if (!values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) return null;
  const [ahead, atLeast] = directions[0] === 1 ? ['>', '>='] : ['<', '<='];
  // The bound on the first key alone is what lets SQLite seek in an expression index; the row value then decides.
  return {
    sql: `${columns[0]} ${atLeast} ? AND (${columns.join(', ')}) ${ahead} (${values.map(() => '?').join(', ')})`,
    params: [values[0], ...values],
    exact: values.every((v) => typeof v === 'string'),
  };
}
