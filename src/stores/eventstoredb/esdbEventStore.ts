// EventStoreDB adapter (@eventstore/db-client 6.x). Only this folder imports the client, so a switch to
// @kurrent/kurrentdb-client (expectedRevision -> streamState) stays inside it.
import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type Position,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import type {
  AppendResult,
  ChainGenesis,
  ChainHead,
  ChainedEvent,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadChainOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../eventStore.js';
import { IdempotencyConflictError, WrongExpectedRevisionError, tenantOfStream } from '../eventStore.js';
import { linkEvents, splitChain, tenantQueue } from './esdbChain.js';
import {
  IDENTITY_STREAM,
  UNKNOWN_POSITION,
  isApplicationEvent,
  matchesTenant,
  subscribeToAll,
  toChained,
  toLinked,
  toRecorded,
} from './esdbEvents.js';

export { IDENTITY_STREAM } from './esdbEvents.js';
import { assertValidAppend, assertValidRead, sameEventContent } from '../eventMatching.js';
import { findEventReadingBackwards } from '../eventLookup.js';

const DEFAULT_READ_ALL_PAGE = 1000;
/** $all is read in chunks of this many records; the tenant filter is applied client-side (readAll has no server filter in 6.x). */
const SCAN_CHUNK = 1000;
const IDENTITY_EVENT = 'EventStoreIdentified';

export async function openEsdbEventStore(opts: { url: string }): Promise<EventStore> {
  const client = EventStoreDBClient.connectionString(opts.url);
  try {
    // Fail the start early and clearly when the server is unreachable.
    await collect(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, deadline: 15_000 }));
  } catch (err) {
    await client.dispose().catch(() => undefined);
    throw new Error(`EventStoreDB at ${redact(opts.url)} is not reachable: ${(err as Error).message}`, { cause: err });
  }

  async function readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return readStreamAs(stream, options, toRecorded);
  }

  async function readStreamAs<T>(stream: string, options: ReadStreamOptions, build: (e: EsdbRecordedEvent) => T): Promise<T[]> {
    assertValidRead({ fromRevision: options.fromRevision, maxCount: options.maxCount });
    if (options.maxCount === 0) return [];
    const backwards = options.direction === 'backwards';
    const fromRevision = options.fromRevision !== undefined ? BigInt(options.fromRevision) : backwards ? END : START;
    try {
      const read = client.readStream(stream, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision,
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
      });
      const out: T[] = [];
      for await (const resolved of read) if (resolved.event && isApplicationEvent(resolved.event)) out.push(build(resolved.event));
      return out;
    } catch (err) {
      if (err instanceof StreamNotFoundError) return []; // thrown during iteration for a missing stream
      throw err;
    }
  }

  /** Reads $all forwards after `after` until `maxCount` matching events or the end of the log. */
  async function scanForwards<T = RecordedEvent>(
    after: bigint,
    maxCount: number,
    tenant: string | undefined,
    build: (e: EsdbRecordedEvent) => T | null = toRecorded as (e: EsdbRecordedEvent) => T,
  ): Promise<T[]> {
    const out: T[] = [];
    let from: Position | typeof START = after > 0n ? { commit: after, prepare: after } : START;
    let seen = after; // readAll's fromPosition is inclusive: skip what was already looked at
    for (;;) {
      let records = 0;
      const read = client.readAll({ direction: FORWARDS, fromPosition: from, maxCount: SCAN_CHUNK });
      for await (const resolved of read as AsyncIterable<AllStreamResolvedEvent>) {
        records++;
        const e = resolved.event;
        if (!e?.position || e.position.commit <= seen) continue;
        seen = e.position.commit;
        from = e.position;
        const built = isApplicationEvent(e) && matchesTenant(e.streamId, tenant) ? build(e) : null;
        if (built !== null) out.push(built);
        if (out.length >= maxCount) {
          await read.cancel(); // leaving the loop early: end the gRPC call too
          return out;
        }
      }
      if (records < SCAN_CHUNK) return out;
    }
  }

  /** The marker's store id, or null when no marker was written yet. */
  async function readIdentityMarker(): Promise<string | null> {
    try {
      for await (const resolved of client.readStream(IDENTITY_STREAM, { direction: FORWARDS, fromRevision: START, maxCount: 1 })) {
        const storeId = (resolved.event?.data as { storeId?: unknown } | undefined)?.storeId;
        if (typeof storeId === 'string' && storeId !== '') return storeId;
      }
      return null;
    } catch (err) {
      if (err instanceof StreamNotFoundError) return null;
      throw err;
    }
  }

  /** Written once (expected revision no_stream): when another instance wrote first, its marker is read back. */
  async function identityOfStore(): Promise<string> {
    const found = await readIdentityMarker();
    if (found !== null) return found;
    try {
      const marker = jsonEvent({ type: IDENTITY_EVENT, data: { storeId: randomUUID() } });
      await client.appendToStream(IDENTITY_STREAM, marker, { expectedRevision: NO_STREAM });
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
    }
    const written = await readIdentityMarker();
    if (written === null) throw new Error(`EventStoreDB: the identity marker in ${IDENTITY_STREAM} cannot be read back`);
    return written;
  }
  let identity: Promise<string> | null = null;

  /** Throws IdempotencyConflictError when any of the ids is already in the stream (a different append used it). */
  async function assertIdsUnused(stream: string, events: NewEvent[]): Promise<void> {
    const ids = new Set(events.map((e) => e.id.toLowerCase()));
    const reused = (await readStream(stream)).find((e) => ids.has(e.id.toLowerCase()));
    if (reused) throw new IdempotencyConflictError(stream, reused.id);
  }

  /** The newest application event (of the tenant, when given): backwards from the end of $all. */
  async function latestOf(tenant: string | undefined): Promise<EsdbRecordedEvent | null> {
    let from: Position | typeof END = END;
    for (;;) {
      let records = 0;
      let oldest: Position | null = null;
      const read = client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: SCAN_CHUNK });
      for await (const resolved of read as AsyncIterable<AllStreamResolvedEvent>) {
        records++;
        const e = resolved.event;
        if (!e?.position) continue;
        oldest = e.position;
        if (isApplicationEvent(e) && matchesTenant(e.streamId, tenant)) {
          await read.cancel();
          return e;
        }
      }
      if (records < SCAN_CHUNK || oldest === null) return null;
      from = oldest; // backwards reads start strictly before the given position
    }
  }

  /** Each tenant's chain head as this process last wrote it (this process is the store's one writer). */
  const chainHeads = new Map<string, Omit<ChainHead, 'position'> | null>();
  const oneAtATime = tenantQueue();
  async function chainHeadToLink(tenant: string): Promise<Omit<ChainHead, 'position'> | null> {
    if (chainHeads.has(tenant)) return chainHeads.get(tenant)!;
    const last = await latestOf(tenant);
    const link = last ? splitChain(last.metadata as Record<string, unknown>).link : null;
    return link ? { hash: link.hash, count: link.seq + 1 } : null;
  }

  async function appendLinked(stream: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const tenant = tenantOfStream(stream);
    const linked = linkEvents(tenant, stream, await chainHeadToLink(tenant), events);
    const payload = events.map((e, i) => jsonEvent({ id: e.id.toLowerCase(), type: e.type, data: e.data, metadata: linked.metadata[i]! }));
    chainHeads.delete(tenant); // unknown until the append is confirmed
    const result = await appendPayload(stream, events, payload, options);
    // A retried append is acknowledged without being written: then the head is read again on the next append.
    if (result.written.hash === linked.head.hash) chainHeads.set(tenant, linked.head);
    return result.ok;
  }

  async function appendPayload(
    stream: string,
    events: NewEvent[],
    payload: ReturnType<typeof jsonEvent>[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<{ ok: AppendResult; written: { hash: string | null } }> {
    let result;
    try {
      result = await client.appendToStream(stream, payload, { expectedRevision: toEsdbExpected(options.expectedRevision) });
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
      await assertIdsUnused(stream, events);
      const actual = err.actualVersion === 'no_stream' || err.actualVersion === undefined ? 'no_stream' : Number(err.actualVersion);
      throw new WrongExpectedRevisionError(stream, options.expectedRevision, actual);
    }
    // ESDB acknowledges a retried append by event id alone; read the revisions back to make sure the
    // acknowledged events are ours (same ids, types and data), not an earlier append under the same ids.
    const last = Number(result.nextExpectedRevision);
    let stored = await readStreamAs(stream, { fromRevision: Math.max(0, last - events.length + 1), maxCount: events.length }, toLinked);
    if (!sameEvents(stored, events)) {
      // Not where the acknowledgement points: look for our ids anywhere in the stream before calling it a conflict.
      const all = await readStreamAs(stream, {}, toLinked);
      const start = all.findIndex((e) => e.id.toLowerCase() === events[0]!.id.toLowerCase());
      stored = start < 0 ? [] : all.slice(start, start + events.length);
      if (!sameEvents(stored, events)) throw new IdempotencyConflictError(stream, events[0]!.id);
    }
    const lastStored = stored[stored.length - 1]!;
    const position = lastStored.position >= 0n ? lastStored.position : (result.position?.commit ?? UNKNOWN_POSITION);
    return { ok: { nextExpectedRevision: lastStored.revision, position }, written: { hash: lastStored.hash } };
  }

  return {
    kind: 'eventstoredb',

    appendToStream(stream: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
      assertValidAppend(stream, events, options.expectedRevision);
      // One append of a tenant at a time: each links to the one before it, in the order of $all.
      return oneAtATime(tenantOfStream(stream), () => appendLinked(stream, events, options));
    },

    readStream,

    readEventById: (stream: string, eventId: string) => findEventReadingBackwards(readStream, stream, eventId),

    async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
      assertValidRead({ maxCount: options.maxCount });
      const limit = options.maxCount ?? DEFAULT_READ_ALL_PAGE;
      if (limit === 0) return [];
      return scanForwards(options.after ?? 0n, limit, options.tenant);
    },

    subscribe(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void> | void): Subscription {
      return subscribeToAll(client, options, handler);
    },

    async headPosition(tenant?: string): Promise<bigint> {
      return (await latestOf(tenant))?.position?.commit ?? 0n;
    },

    async readChain(tenant: string, options: ReadChainOptions = {}): Promise<ChainedEvent[]> {
      assertValidRead({ maxCount: options.maxCount });
      const limit = options.maxCount ?? DEFAULT_READ_ALL_PAGE;
      if (limit === 0) return [];
      return scanForwards(options.after ?? 0n, limit, tenant, toChained);
    },

    async chainGenesis(tenant: string): Promise<ChainGenesis | null> {
      const [first] = await scanForwards(0n, 1, tenant, (e) => (toChained(e)?.hash ? toRecorded(e) : null));
      return first ? { tenant, fromPosition: first.position } : null;
    },

    async chainHead(tenant: string): Promise<ChainHead | null> {
      const last = await latestOf(tenant);
      const link = last ? splitChain(last.metadata as Record<string, unknown>).link : null;
      return link && last?.position ? { position: last.position.commit, hash: link.hash, count: link.seq + 1 } : null;
    },

    identity(): Promise<string> {
      identity ??= identityOfStore();
      identity.catch(() => (identity = null)); // a failed attempt (server unreachable) is tried again next time
      return identity;
    },

    async close(): Promise<void> {
      await client.dispose();
    },
  };
}

/** The stored events are exactly the appended ones: same ids in the same order, same types and data. */
function sameEvents(stored: RecordedEvent[], events: NewEvent[]): boolean {
  return (
    stored.length === events.length &&
    stored.every((s, i) => s.id.toLowerCase() === events[i]!.id.toLowerCase() && sameEventContent(s, events[i]!))
  );
}

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return 'any';
  if (expected === 'no_stream') return 'no_stream';
  if (expected === 'stream_exists') return 'stream_exists';
  return BigInt(expected);
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
