// Helpers shared by the event store adapters: validating requests and recognising a retried append.
import type { ExpectedRevision, NewEvent, ReadStreamOptions } from './eventStore.js';

/** JSON with object keys sorted, so two equal documents compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}

/** Same type and same data (key order ignored): the test for "the same event" on an idempotent retry. */
export function sameEventContent(a: { type: string; data: unknown }, b: { type: string; data: unknown }): boolean {
  return a.type === b.type && canonicalJson(a.data) === canonicalJson(b.data);
}

/** Rejects malformed appends before they reach a store: programming errors, not conflicts. */
export function assertValidAppend(stream: string, events: NewEvent[], expected: ExpectedRevision): void {
  if (typeof stream !== 'string' || stream.length === 0) throw new TypeError('stream name must be a non-empty string');
  if (!Array.isArray(events) || events.length === 0) throw new TypeError(`append to ${stream}: at least one event is required`);
  if (typeof expected === 'number' && (!Number.isSafeInteger(expected) || expected < 0)) {
    throw new RangeError(`append to ${stream}: expected revision must be a revision >= 0, 'any', 'no_stream' or 'stream_exists'`);
  }
  if (typeof expected === 'string' && !['any', 'no_stream', 'stream_exists'].includes(expected)) {
    throw new RangeError(`append to ${stream}: unknown expected revision ${expected}`);
  }
  const ids = new Set<string>();
  for (const e of events) {
    if (typeof e.id !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(e.id)) {
      throw new TypeError(`append to ${stream}: event id must be a UUID, got ${String(e.id)}`);
    }
    if (ids.has(e.id.toLowerCase())) throw new TypeError(`append to ${stream}: event id ${e.id} appears twice in one append`);
    ids.add(e.id.toLowerCase());
    if (typeof e.type !== 'string' || e.type.length === 0 || e.type.startsWith('$')) {
      throw new TypeError(`append to ${stream}: event type must be a non-empty string not starting with '$'`);
    }
  }
}

/** Does the stream's current revision (-1 = no stream) satisfy the expected revision? */
export function revisionMatches(expected: ExpectedRevision, current: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current < 0;
  if (expected === 'stream_exists') return current >= 0;
  return current === expected;
}

/** Where an identical earlier append must have started for `expected` to make a retry idempotent. */
export function retryStartMatches(expected: ExpectedRevision, firstRevision: number): boolean {
  if (expected === 'no_stream') return firstRevision === 0;
  if (typeof expected === 'number') return firstRevision === expected + 1;
  return true;
}

/** Revisions and counts are non-negative integers; anything else is a caller bug, not an empty result. */
export function assertValidRead(options: Pick<ReadStreamOptions, 'fromRevision' | 'maxCount'>): void {
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
    }
  }
}
