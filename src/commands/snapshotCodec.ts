// A snapshot stores the state as JSON, which drops what JSON has no word for: an `undefined` field, a Set, a Map, a
// Date, a bigint, NaN, -0. These are written as tagged objects and read back as what they were, so any fold resumes exactly.
const TAG = '\u0000snapshot';

type Tagged = { [TAG]: 'undefined' | 'number' | 'set' | 'map' | 'date' | 'bigint' | 'object'; v?: unknown };

/** The state as JSON can hold it. Throws on what no snapshot can hold (a class instance, a function, a symbol). */
export function encodeSnapshotState(value: unknown): unknown {
  if (value === undefined) return { [TAG]: 'undefined' } satisfies Tagged;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number')
    return Number.isFinite(value) && !Object.is(value, -0)
      ? value
      : ({ [TAG]: 'number', v: Object.is(value, -0) ? '-0' : String(value) } satisfies Tagged);
  if (typeof value === 'bigint') return { [TAG]: 'bigint', v: value.toString() } satisfies Tagged;
  if (typeof value !== 'object') return failOn(value);
  if (Array.isArray(value)) return value.map(encodeSnapshotState);
  if (value instanceof Set) return { [TAG]: 'set', v: [...value].map(encodeSnapshotState) } satisfies Tagged;
  if (value instanceof Map) return { [TAG]: 'map', v: [...value].map(([k, v]) => [encodeSnapshotState(k), encodeSnapshotState(v)]) };
  if (value instanceof Date) return { [TAG]: 'date', v: value.getTime() } satisfies Tagged;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return failOn(value);
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeSnapshotState(v)]));
  // A plain object that happens to use the tag as a key is wrapped, so it is never read back as a tagged value.
  return TAG in out ? ({ [TAG]: 'object', v: out } satisfies Tagged) : out;
}

/** What encodeSnapshotState wrote, as it was. */
export function decodeSnapshotState(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(decodeSnapshotState);
  const tagged = value as Partial<Tagged>;
  switch (tagged[TAG]) {
    case 'undefined':
      return undefined;
    case 'number':
      return tagged.v === '-0' ? -0 : Number(tagged.v);
    case 'bigint':
      return BigInt(tagged.v as string);
    case 'date':
      return new Date(tagged.v as number);
    case 'set':
      return new Set((tagged.v as unknown[]).map(decodeSnapshotState));
    case 'map':
      return new Map((tagged.v as [unknown, unknown][]).map(([k, v]) => [decodeSnapshotState(k), decodeSnapshotState(v)]));
    case 'object':
      return decodeEntries(tagged.v as Record<string, unknown>);
    default:
      return decodeEntries(value as Record<string, unknown>);
  }
}

/** fromEntries defines own properties: a `__proto__` key stays a key. */
function decodeEntries(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeSnapshotState(v)]));
}

function failOn(value: unknown): never {
  const what =
    typeof value === 'object' ? (Object.getPrototypeOf(value) as { constructor?: { name?: string } })?.constructor?.name : typeof value;
  throw new TypeError(`a snapshot cannot hold a ${String(what ?? typeof value)} (${String(value)}): keep the state to plain data`);
}
