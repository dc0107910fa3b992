import type { CommandEnvelope, DecidedEvent, Decider } from './decider.js';
import { DomainError } from './decider.js';
import type { EventMetadata, EventStore, ExpectedRevision, NewEvent, RecordedEvent } from '../stores/eventStore.js';
import { streamName, WrongExpectedRevisionError } from '../stores/eventStore.js';
import { eventId, newId } from './eventIds.js';
import { retryDelayMs, serializedOnStream } from './streamWriteQueue.js';
import { foldEvents, loadFromSnapshot, snapshotIfDue, snapshotPolicyOf, type LoadedAggregate } from './snapshots.js';
import { earlierRun, keyedIdSeed } from './keyedRetry.js';
import type { TraceContext } from '../observability/traceContext.js';
import { observeAppend } from '../observability/metrics.js';
import { withSpan } from '../observability/tracing.js';

/** Who, where and why of a command: becomes the metadata of every event it produces. */
export interface CommandContext {
  tenantId: string;
  actor: string;
  sessionId: string | null;
  correlationId: string;
  /** The request's W3C trace: its ids go into the events' metadata (traceId, spanId). */
  trace?: TraceContext;
  causationId?: string | null;
  /** Client Idempotency-Key (already scoped to the actor and route by the HTTP layer), if sent. */
  idempotencyKey?: string | null;
  ip: string | null;
  userAgent: string | null;
  reason?: string | null;
  /** Command time; defaults to now. */
  at?: string;
}

export interface CommandResult<S> {
  state: S;
  /** Revision of the stream's last event after the command (-1 when the stream is still empty). */
  revision: number;
  /** Global position of the last appended event; null when the command decided nothing. */
  position: bigint | null;
  events: RecordedEventLike[];
}

export type RecordedEventLike = Pick<RecordedEvent, 'id' | 'type' | 'data' | 'metadata'> & { revision: number };

/** The caller's If-Match revision did not match the stream: HTTP 412. */
export class PreconditionFailedError extends Error {
  readonly code = 'precondition-failed';
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`the record changed: expected revision ${expected}, current revision ${actual}`);
    this.name = 'PreconditionFailedError';
  }
}

/** Optimistic concurrency lost repeatedly: HTTP 409. */
export class ConcurrencyConflictError extends Error {
  readonly code = 'concurrency-conflict';
  constructor(readonly stream: string) {
    super(`the record ${stream} was changed concurrently; retry`);
    this.name = 'ConcurrencyConflictError';
  }
}

/**
 * The aggregate's current state and revision, loaded from its latest snapshot and the events after it (`events` then
 * holds only those) unless the decider opted out of snapshots; `whole` folds every event (a caller that needs them all).
 */
export async function loadAggregate<S, E extends DecidedEvent>(
  store: EventStore,
  decider: Pick<Decider<CommandEnvelope, E, S>, 'initialState' | 'evolve' | 'snapshot'>,
  stream: string,
  options: { whole?: boolean } = {},
): Promise<LoadedAggregate<S>> {
  const policy = snapshotPolicyOf(decider);
  if (policy && !options.whole) {
    const fromSnapshot = await loadFromSnapshot(store, decider, stream, policy);
    if (fromSnapshot) return fromSnapshot;
  }
  const events = await store.readStream(stream);
  const last = events[events.length - 1];
  return {
    state: foldEvents(decider, decider.initialState, events),
    revision: last?.revision ?? -1,
    events,
    lastEventId: last?.id ?? null,
  };
}

/**
 * Load -> decide -> append with the expected revision. With `ifMatch` the command is applied only to that
 * revision (412 otherwise). Without it, a lost race is retried a few times against the fresh state, which is
 * safe because `decide` re-checks every rule on the state it actually sees.
 * With `assumeNew` (a stream that almost surely does not exist yet, e.g. a fresh random id) the first attempt
 * skips the read and decides on the initial state; the append's 'no_stream' check still guards it, and a
 * stream that does exist is then loaded as usual. Ignored with an idempotency key (a retry must be recognised).
 */
export function handleCommand<C extends CommandEnvelope, E extends DecidedEvent, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  command: Omit<C, 'at' | 'actor' | 'tenantId'> & Partial<Pick<C, 'at'>>,
  ctx: CommandContext,
  options: CommandOptions = {},
): Promise<CommandResult<S>> {
  const stream = streamName(ctx.tenantId, decider.category, command.aggregateId);
  return serializedOnStream(store, stream, () =>
    withSpan(
      `command ${decider.category}`,
      ctx.trace,
      (trace) => decideAndAppend(store, decider, stream, command, trace === ctx.trace ? ctx : { ...ctx, trace }, options),
      {
        'command.category': decider.category,
      },
    ),
  );
}

export interface CommandOptions {
  ifMatch?: number | null;
  expectNew?: boolean;
  assumeNew?: boolean;
}

/** Who wrote a snapshot: the service, for the command that loaded the stream (its correlation id ties them). */
const snapshotMetadata = (ctx: CommandContext, at: string): EventMetadata => ({
  tenantId: ctx.tenantId,
  actor: 'system',
  sessionId: null,
  correlationId: ctx.correlationId,
  causationId: null,
  commandId: newId(),
  occurredAt: at,
  ip: null,
  userAgent: null,
  reason: 'snapshot',
});

/** Lost races left after serializing in-process come from other processes: retried this many times. */
const MAX_ATTEMPTS = 8;

async function decideAndAppend<C extends CommandEnvelope, E extends DecidedEvent, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  stream: string,
  command: Omit<C, 'at' | 'actor' | 'tenantId'> & Partial<Pick<C, 'at'>>,
  ctx: CommandContext,
  options: CommandOptions,
): Promise<CommandResult<S>> {
  const at = command.at ?? ctx.at ?? new Date().toISOString();
  const commandId = ctx.idempotencyKey ?? newId();
  const full = { ...command, at, actor: ctx.actor, tenantId: ctx.tenantId } as C;
  const optimistic = options.assumeNew === true && !ctx.idempotencyKey && options.ifMatch == null;
  for (let attempt = 0; ; attempt++) {
    const assumed = optimistic && attempt === 0;
    const loaded: LoadedAggregate<S> = assumed
      ? { state: decider.initialState, revision: -1, events: [], lastEventId: null }
      : await loadAggregate(store, decider, stream);
    const { state, revision } = loaded;
    // Taken before deciding: a refused attempt (a throttled sign-in) is exactly what must not fold a long tail again.
    const policy = snapshotPolicyOf(decider);
    if (policy) await snapshotIfDue(store, decider, stream, policy, loaded, snapshotMetadata(ctx, at));
    if (ctx.idempotencyKey) {
      // A retry of a command that already landed (same idempotency key): answer with what it did.
      const applied = await earlierRun(store, stream, ctx.tenantId, ctx.idempotencyKey, loaded);
      if (applied.length > 0) {
        const last = applied[applied.length - 1]!;
        return { state, revision, position: last.position, events: applied };
      }
    }
    // Existence before the precondition: on an absent stream the decider answers (not-found), so another
    // company's record looks exactly as absent with If-Match as without it.
    if (options.ifMatch != null && revision >= 0 && options.ifMatch !== revision) {
      throw new PreconditionFailedError(options.ifMatch, revision);
    }
    const decided = decider.decide(full, state);
    if (options.ifMatch != null && revision < 0 && decided.length > 0) throw new PreconditionFailedError(options.ifMatch, revision);
    if (decided.length === 0) return { state, revision, position: null, events: [] };
    const metadata: EventMetadata = {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      sessionId: ctx.sessionId,
      correlationId: ctx.correlationId,
      causationId: ctx.causationId ?? null,
      commandId,
      occurredAt: at,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      reason: ctx.reason ?? null,
      ...(ctx.trace ? { traceId: ctx.trace.traceId, spanId: ctx.trace.spanId } : {}),
    };
    // With an idempotency key, ids are tied to the key alone: a retry after a success then carries the
    // same ids, and the store acknowledges it without writing again. Without one nothing is retried: random ids.
    const idBase = ctx.idempotencyKey ? keyedIdSeed(stream, ctx.idempotencyKey) : null;
    const newEvents: NewEvent[] = decided.map((e, i) => ({
      id: idBase === null ? newId() : eventId(ctx.tenantId, idBase, i),
      type: e.type,
      data: e.data,
      metadata,
    }));
    const expectedRevision: ExpectedRevision = revision < 0 ? 'no_stream' : revision;
    try {
      const started = performance.now();
      const result = await withSpan('event store append', ctx.trace, () => store.appendToStream(stream, newEvents, { expectedRevision }), {
        'event_store.events': newEvents.length,
      });
      observeAppend((performance.now() - started) / 1000);
      let next = state;
      for (const e of decided) next = decider.evolve(next, e);
      const first = result.nextExpectedRevision - decided.length + 1;
      return {
        state: next,
        revision: result.nextExpectedRevision,
        position: result.position,
        events: newEvents.map((e, i) => ({ ...e, revision: first + i })),
      };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError)) throw err;
      if (options.ifMatch != null) throw new PreconditionFailedError(options.ifMatch, typeof err.actual === 'number' ? err.actual : -1);
      if (options.expectNew && revision < 0) throw new DomainError('already-exists', 'a record with this id already exists', 409);
      if (attempt >= MAX_ATTEMPTS - 1) throw new ConcurrencyConflictError(stream);
      // The optimistic first attempt lost only to an existing stream: load it at once, no pause.
      if (!(optimistic && attempt === 0)) await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
    }
  }
}
