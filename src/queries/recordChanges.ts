// What an event changed in a record, field by field (issue 23 item 2): the record folded before and after it, compared
// as JSON; each change names its field by JSON pointer (RFC 6901), with the value before and after (null when absent).
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** Bookkeeping of a stored document, never a change of the record: its revision, tenant and projected position. */
const BOOKKEEPING = new Set(['revision', 'tenantId']);
const isBookkeeping = (key: string): boolean => BOOKKEEPING.has(key) || key.startsWith('_');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
/** A JSON value as it travels: undefined is absent (null), a bigint its decimal string. */
const json = (v: unknown): unknown =>
  v === undefined ? null : (JSON.parse(JSON.stringify(v ?? null, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x))) as unknown);

function walk(from: unknown, to: unknown, field: string, out: FieldChange[], top: boolean): void {
  if (isObject(from) && isObject(to)) {
    for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
      if (top && isBookkeeping(key)) continue;
      walk(from[key], to[key], `${field}/${escape(key)}`, out, false);
    }
    return;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    for (let i = 0; i < Math.max(from.length, to.length); i++) walk(from[i], to[i], `${field}/${i}`, out, false);
    return;
  }
  const [a, b] = [json(from), json(to)];
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ field: field === '' ? '/' : field, from: a, to: b });
}

/** The fields an event changed: none absent before is the record's creation (every field from null). */
export function changesBetween(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walk(isObject(before) ? before : {}, isObject(after) ? after : {}, '', out, true);
  return out;
}
