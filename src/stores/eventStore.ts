// The event store port. Two adapters implement it: SQLite (embedded default) and EventStoreDB.
// Semantics follow EventStoreDB so the two behave the same under the shared contract suite.

/** Who/when/why of every event. Stored beside the data, never inside it. */
export interface EventMetadata {
  tenantId: string; // tenant id, or 'platform' for platform aggregates
  actor: string; // user id, or 'system'
  sessionId: string | null;
  correlationId: string;
  causationId: string | null;
  commandId: string;
  occurredAt: string; // ISO-8601 UTC, from the command (deciders never read a clock)
  ip: string | null;
  userAgent: string | null;
  reason: string | null;
  /** W3C trace of the request that appended it (32 hex), and the service's span in it (16 hex); absent outside one. */
  traceId?: string;
  spanId?: string;
}

export interface NewEvent<T extends string = string, D = Record<string, unknown>> {
  /** UUID, derived from the Idempotency-Key when there is one (see eventIds.ts): retries reuse it. Else random. */
  id: string;
  type: T;
  data: D;
  metadata: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = Record<string, unknown>> {
  id: string;
  type: T;
  data: D;
  metadata: EventMetadata;
  streamName: string;
  /** 0-based revision inside its stream. */
  revision: number;
  /** Global position in the log: strictly increasing in commit order. */
  position: bigint;
}

/** 'any' | 'no_stream' (stream must not exist) | 'stream_exists' | exact 0-based revision of the last event. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: number;
  /** Global position of the last appended event. */
  position: bigint;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive revision to start from (default: start for forwards, end for backwards). */
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: return events strictly after this position. Default: from the start. */
  after?: bigint;
  /** Only events of streams named `<tenant>.` */
  tenant?: string;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** Exclusive: deliver events strictly after this position. Default: from the start. */
  after?: bigint;
  tenant?: string;
}

export interface Subscription {
  /** Stops delivery; resolves once the handler in flight (if any) has finished. */
  stop(): Promise<void>;
  /** Resolves when the subscription fails (handler threw or the store failed). */
  readonly failed: Promise<Error>;
}

// ---- the tenant hash chain (chain/hashChain.ts defines the hash) ----
/** An event as the chain holds it: its stored hash, null for an event written before its tenant's chain began. */
export interface ChainedEvent extends RecordedEvent {
  hash: string | null;
}

/** Where a tenant's chain starts: events before this position were written before the chain existed. */
export interface ChainGenesis {
  tenant: string;
  fromPosition: bigint;
}

export interface ChainHead {
  position: bigint;
  hash: string;
  /** Chained events up to and including the head. */
  count: number;
}

export interface ReadChainOptions {
  /** Exclusive position (default: the chain's start). */
  after?: bigint;
  maxCount?: number;
}

export interface EventStore {
  readonly kind: 'sqlite' | 'eventstoredb';
  appendToStream(stream: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** Empty array for a missing stream. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * The event with this id when this stream holds it, else null: how a keyed command finds its earlier run without
   * reading the stream (SQLite: the event-id index; EventStoreDB: the stream read backwards, no fold).
   */
  readEventById(stream: string, eventId: string): Promise<RecordedEvent | null>;
  /** One page of the global log, in position order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Catch-up subscription: history after `after`, then live events, with no gap and no duplicate.
   * The handler is awaited: events are handled strictly one after another.
   */
  subscribe(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void> | void): Subscription;
  /** A tenant's chained events (from its genesis), in position order, each with its stored hash. */
  readChain(tenant: string, options?: ReadChainOptions): Promise<ChainedEvent[]>;
  /** Where the tenant's chain starts; null before its first chained event. */
  chainGenesis(tenant: string): Promise<ChainGenesis | null>;
  /** The tenant's last chained event's position and hash, and how many events the chain holds; null when none. */
  chainHead(tenant: string): Promise<ChainHead | null>;
  /** Position of the last event in the log (0n when empty), optionally within one tenant. */
  headPosition(tenant?: string): Promise<bigint>;
  /**
   * A random id created once with the store and kept in it: every handle on the same log (and a restored copy of it)
   * reports it, another log has another. Projection checkpoints carry it, so positions of one log never resume another.
   */
  identity(): Promise<string>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  readonly code = 'wrong-expected-revision';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** An event id was reused for a different append: a client reused an idempotency key for another request. */
export class IdempotencyConflictError extends Error {
  readonly code = 'idempotency-conflict';
  constructor(
    readonly stream: string,
    readonly eventId: string,
  ) {
    super(`event id ${eventId} was already used for a different append (stream ${stream})`);
    this.name = 'IdempotencyConflictError';
  }
}

/** The data file cannot be used: corrupt, or written by an unknown schema version. Start must stop. */
export class EventStoreUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStoreUnusableError';
  }
}

// Stream names are pure and live apart so the event contracts (src/commands/**/*Events.ts) can build them.
export { TENANT_ID_PATTERN, PLATFORM_TENANT, streamName, tenantOfStream, categoryOfStream, aggregateIdOfStream } from './streamNames.js';
