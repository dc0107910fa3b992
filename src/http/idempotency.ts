// Idempotency-Key on `idempotent` routes: a retried request replays the first answer instead of acting
// twice. Completed requests are recorded as events (`<tenant>.idempotency-<uuidv5>`), like everything else.
import { createHash } from 'node:crypto';
import type { EventStore, EventMetadata, RecordedEvent } from '../stores/eventStore.js';
import { IdempotencyConflictError, streamName, WrongExpectedRevisionError } from '../stores/eventStore.js';
import { eventId, uuidV5 } from '../commands/eventIds.js';
import { ProblemError } from '../problems.js';
import type { HttpResult } from './routeTypes.js';
import { LIMITS } from '../limits.js';
import { toJson } from './validation.js';
import type { Logger } from '../logger.js';

export const IDEMPOTENT_REQUEST_COMPLETED = 'IdempotentRequestCompleted';
const REPLAYED_HEADERS = ['location', 'etag', 'x-event-position'];

export interface IdempotentRequest {
  /** 'platform' or the selected company (see commandContext.tenantScopeOf). */
  tenant: string;
  userId: string | null;
  sessionId: string | null;
  method: string;
  /** The route's path template (/pacientes/{id}), not the concrete path. */
  routePath: string;
  key: string;
  params: unknown;
  body: unknown;
  correlationId: string;
  ip: string | null;
  userAgent: string | null;
}

interface CompletedRecord {
  method: string;
  route: string;
  fingerprint: string;
  status: number;
  body: unknown;
  headers: Record<string, string>;
  contentType: string | null;
  completedAt: string;
}

/** JSON with object keys sorted, so equal requests hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const requestFingerprint = (params: unknown, body: unknown): string =>
  createHash('sha256')
    .update(canonicalJson({ params: params ?? {}, body: body ?? null }))
    .digest('hex');

/** The client's key scoped to tenant, user, method and route: a uuidv5 that also names the record stream. */
export const scopedIdempotencyKey = (r: Pick<IdempotentRequest, 'tenant' | 'userId' | 'method' | 'routePath' | 'key'>): string =>
  uuidV5(JSON.stringify(['idempotency', r.tenant, r.userId ?? 'anonymous', r.method.toUpperCase(), r.routePath, r.key]));

function pickHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (REPLAYED_HEADERS.includes(name.toLowerCase())) out[name] = value;
  return out;
}

export interface IdempotencyGuard {
  /** Replays a completed answer, refuses a reused or in-flight key, or runs `exec` with the scoped key and records a 2xx. */
  run(request: IdempotentRequest, exec: (scopedKey: string) => Promise<HttpResult>): Promise<HttpResult>;
}

export function createIdempotencyGuard(deps: { events: EventStore; logger: Logger; now(): Date }): IdempotencyGuard {
  const inFlight = new Set<string>();

  async function lastRecord(stream: string): Promise<RecordedEvent | null> {
    const events = await deps.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return events[0] ?? null;
  }

  async function record(stream: string, r: IdempotentRequest, scoped: string, expected: number, rec: CompletedRecord): Promise<void> {
    const metadata: EventMetadata = {
      tenantId: r.tenant,
      actor: r.userId ?? 'anonymous',
      sessionId: r.sessionId,
      correlationId: r.correlationId,
      causationId: null,
      commandId: scoped,
      occurredAt: rec.completedAt,
      ip: r.ip,
      userAgent: r.userAgent,
      reason: null,
    };
    const event = {
      id: eventId(r.tenant, `${stream}\u0000completed\u0000${expected + 1}`, 0),
      type: IDEMPOTENT_REQUEST_COMPLETED,
      data: { ...rec },
      metadata,
    };
    try {
      await deps.events.appendToStream(stream, [event], { expectedRevision: expected < 0 ? 'no_stream' : expected });
    } catch (err) {
      // Another process completed the same key first: its record stands, ours is redundant.
      if (err instanceof WrongExpectedRevisionError || err instanceof IdempotencyConflictError) {
        deps.logger.debug('idempotency record lost a race', { stream });
        return;
      }
      // The request itself succeeded; a retry still finds its events through the command ids.
      deps.logger.error('could not record an idempotent answer', { stream, correlationId: r.correlationId, error: err });
    }
  }

  return {
    async run(r, exec) {
      const scoped = scopedIdempotencyKey(r);
      const stream = streamName(r.tenant, 'idempotency', scoped);
      if (inFlight.has(stream)) {
        throw new ProblemError(
          409,
          'idempotency-key-in-flight',
          'Conflict',
          'A request with this Idempotency-Key is still being processed; retry later',
          { 'Retry-After': '1' },
        );
      }
      inFlight.add(stream);
      try {
        const fingerprint = requestFingerprint(r.params, r.body);
        const last = await lastRecord(stream);
        const now = deps.now();
        let generation = 0;
        if (last) {
          const rec = last.data as unknown as CompletedRecord;
          const age = now.getTime() - Date.parse(rec.completedAt);
          if (age >= 0 && age < LIMITS.idempotency.ttlSeconds * 1000) {
            if (rec.fingerprint !== fingerprint) {
              throw new ProblemError(
                422,
                'idempotency-key-reused',
                'Unprocessable Content',
                'This Idempotency-Key was already used with a different request body; use a new key',
              );
            }
            return {
              status: rec.status,
              body: rec.body ?? undefined,
              headers: { ...rec.headers, 'Idempotent-Replayed': 'true' },
              ...(rec.contentType ? { contentType: rec.contentType } : {}),
            };
          }
          // Expired: the key starts a new generation, so its command ids differ from the first use.
          generation = last.revision + 1;
        }
        const handlerKey = generation === 0 ? scoped : `${scoped}.${generation}`;
        const result = await exec(handlerKey);
        const jsonBody: unknown = result.body === undefined || Buffer.isBuffer(result.body) ? undefined : JSON.parse(toJson(result.body));
        if (result.status >= 200 && result.status < 300 && !Buffer.isBuffer(result.body)) {
          await record(stream, r, handlerKey, last ? last.revision : -1, {
            method: r.method.toUpperCase(),
            route: r.routePath,
            fingerprint,
            status: result.status,
            body: jsonBody ?? null,
            headers: pickHeaders(result.headers),
            contentType: result.contentType ?? null,
            completedAt: deps.now().toISOString(),
          });
        }
        return result;
      } finally {
        inFlight.delete(stream);
      }
    },
  };
}
