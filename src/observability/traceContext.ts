// W3C Trace Context (traceparent/tracestate): parsed and validated at the edge, then carried like the correlation id
// (request context -> command context -> event metadata); no async-context hooks, which would tax every promise.
import { randomFillSync } from 'node:crypto';

export interface TraceContext {
  traceId: string;
  /** The service's own span for this unit of work (what the answer's traceparent names). */
  spanId: string;
  /** The caller's span, when it sent a valid traceparent. */
  parentSpanId: string | null;
  /** '01' sampled, '00' not. */
  flags: string;
  tracestate: string | null;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
// A list member: key=value, key lower-case (optionally tenant@system), value printable without ',' or '='.
const TRACESTATE_MEMBER =
  /^[a-z0-9][_0-9a-z\-*/]{0,255}(@[a-z][_0-9a-z\-*/]{0,13})?=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/** The caller's trace, or null when the header is absent or malformed (then a new trace starts). */
export function parseTraceparent(header: string | undefined): { traceId: string; parentSpanId: string; flags: string } | null {
  if (!header) return null;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return null;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  if (version === '00' && rest !== undefined) return null; // version 00 has exactly four fields
  return { traceId, parentSpanId: spanId, flags: version === '00' ? flags : Number.parseInt(flags, 16) & 1 ? '01' : '00' };
}

/** tracestate is passed on only when it is a valid list (at most 32 members, 512 characters): else dropped. */
export function parseTracestate(header: string | undefined): string | null {
  if (!header || header.length > 512) return null;
  const members = header
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (members.length === 0 || members.length > 32 || !members.every((s) => TRACESTATE_MEMBER.test(s))) return null;
  return members.join(',');
}

// Ids from a pool of random bytes refilled 4 KiB at a time: a randomBytes() call per id costs ~2 us of every request.
const POOL = Buffer.alloc(4096);
let used = POOL.length;
function randomHex(bytes: number): string {
  if (used + bytes > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  used += bytes;
  return POOL.toString('hex', used - bytes, used);
}

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);

export const formatTraceparent = (t: Pick<TraceContext, 'traceId' | 'spanId' | 'flags'>): string =>
  `00-${t.traceId}-${t.spanId}-${t.flags}`;

/** The request's trace from its headers: the caller's trace continued, or a new one. */
export function traceFromHeaders(traceparent: string | undefined, tracestate: string | undefined): TraceContext {
  const parent = parseTraceparent(traceparent);
  if (!parent) return { traceId: newTraceId(), spanId: newSpanId(), parentSpanId: null, flags: '01', tracestate: null };
  return { ...parent, spanId: newSpanId(), tracestate: parseTracestate(tracestate) };
}

/**
 * The trace an event was appended in, continued by what it causes (a process manager's appends, a webhook delivery):
 * the same trace id, a new span whose parent is the event's. Null when the event was appended outside a trace.
 */
export function causedTrace(metadata: { traceId?: string; spanId?: string }): TraceContext | null {
  if (!metadata.traceId) return null;
  return { traceId: metadata.traceId, spanId: newSpanId(), parentSpanId: metadata.spanId ?? null, flags: '01', tracestate: null };
}

/** causedTrace as the optional `trace` of a command context: spread into it. */
export function traceCausedBy(metadata: { traceId?: string; spanId?: string }): { trace?: TraceContext } {
  const trace = causedTrace(metadata);
  return trace ? { trace } : {};
}
