// The RecordAccessed events of the access audit: what one event holds (a read, or repeated reads folded into one),
// the daily per-tenant stream it goes to, and the byte-sized chunks appends are made of.
import type { NewEvent } from '../stores/eventStore.js';
import { streamName } from '../stores/eventStore.js';

export const RECORD_ACCESSED = 'RecordAccessed';

/** How a read ended: answered (2xx), refused for want of permission (403), or refused as not found (404). */
export type AccessOutcome = 'allowed' | 'denied' | 'not-found';

export interface AccessRecord {
  recordType: string;
  recordId: string | null;
  /** Route path template, e.g. /pacientes/{id}. */
  route: string;
  method: string;
  status: number;
  actor: string;
  sessionId: string | null;
  tenantId: string;
  ip: string | null;
  userAgent: string | null;
  correlationId: string;
  /** ISO-8601 UTC. */
  at: string;
  /** Absent on entries written before outcomes were recorded: those were all 'allowed'. */
  outcome?: AccessOutcome;
  /** Patients the answer named (a bounded share of them: a long list is split over several entries). */
  patientIds?: readonly string[];
}

/** `<tenant>.accessLog-<yyyymmdd>`: one stream per tenant and UTC day. */
export const accessLogStream = (tenantId: string, at: string): string =>
  streamName(tenantId, 'accessLog', at.slice(0, 10).replace(/-/g, ''));

export interface Queued {
  id: string; // fixed at enqueue, so a retried append of the same entry is acknowledged, not duplicated
  entry: AccessRecord;
  attempts: number;
  /** Reads folded into this entry, and the time of the last one. */
  count: number;
  lastAt: string;
}

/** What makes two reads the same access: who, from where, which record, through which route, with which outcome. */
export const coalesceKey = (e: AccessRecord): string =>
  [
    e.tenantId,
    e.actor,
    e.sessionId,
    e.ip,
    e.userAgent,
    e.recordType,
    e.recordId,
    e.route,
    e.method,
    e.status,
    e.outcome,
    ...(e.patientIds ?? []),
  ].join('\u0000');

/** What was read and how often (data); who, from where and when first in the metadata, as every event carries them. */
export function eventOf({ id, entry, count, lastAt }: Queued): NewEvent {
  const { recordType, recordId, route, method, status, outcome = 'allowed', patientIds } = entry;
  return {
    id,
    type: RECORD_ACCESSED,
    data: { recordType, recordId, route, method, status, outcome, ...(patientIds ? { patientIds } : {}), count, lastAt },
    metadata: {
      tenantId: entry.tenantId,
      actor: entry.actor,
      sessionId: entry.sessionId,
      correlationId: entry.correlationId,
      causationId: null,
      commandId: id,
      occurredAt: entry.at,
      ip: entry.ip,
      userAgent: entry.userAgent,
      reason: null,
    },
  };
}

/** Consecutive runs of a stream's events, each under the byte limit of one append. */
export function chunksBySize(items: { queued: Queued; event: NewEvent }[], maxBytes: number): { queued: Queued; event: NewEvent }[][] {
  const chunks: { queued: Queued; event: NewEvent }[][] = [];
  let current: { queued: Queued; event: NewEvent }[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item.event)) + 1;
    if (current.length > 0 && bytes + size > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
