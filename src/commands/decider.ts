// The shape every aggregate follows: pure `decide` and `evolve`, no clock, id generator or I/O.

/** Everything a decider may know about the command beyond its data: time and ids come in from outside. */
export interface CommandEnvelope<T extends string = string, D = unknown> {
  type: T;
  data: D;
  /** Command time (UTC ISO-8601); deciders use it instead of reading a clock. */
  at: string;
  /** The acting user id (or 'system'). */
  actor: string;
  /** The aggregate id the command targets. */
  aggregateId: string;
  /** The tenant the aggregate belongs to. */
  tenantId: string;
}

/** An event as a decider emits it: type and data only; ids and metadata are added by command handling. */
export interface DecidedEvent<T extends string = string, D = Record<string, unknown>> {
  type: T;
  data: D;
}

export interface Decider<C extends CommandEnvelope, E extends DecidedEvent, S> {
  /** Category of the aggregate's streams (`<tenant>.<category>-<id>`), camelCase, no '-' or '.'. */
  category: string;
  initialState: S;
  evolve(state: S, event: E): S;
  decide(command: C, state: S): E[];
  /**
   * How loads snapshot the state (default: every aggregate, DEFAULT_SNAPSHOT_POLICY in snapshots.ts): loaded from its
   * latest snapshot and the events after it. `{ never: reason }` opts out (the reason says why the fold must stay whole).
   */
  snapshot?: SnapshotPolicy | NoSnapshots;
}

/** A decider whose loads always fold the whole stream; `never` says why. */
export interface NoSnapshots {
  never: string;
}

/** How an aggregate's state is snapshotted; `version` changes whenever the state's shape or `evolve` does. */
export interface SnapshotPolicy {
  /** Snapshots of another version (or of another build of the code) are ignored: the stream is folded whole again. */
  version: number;
  /** A load that folds at least this many events after the latest snapshot takes a new one (default 100). */
  every?: number;
}

/**
 * A broken business rule. `code` is stable and part of the public contract: it becomes the problem type
 * `/problems/<code>`. `status` is the HTTP status it maps to (409 by default, 404 for absent records).
 */
export class DomainError extends Error {
  /** A refusal that still wrote (a compensation: units given back): its last event's position, to read it back with. */
  writtenAt?: bigint;

  constructor(
    readonly code: string,
    message: string,
    readonly status: 400 | 404 | 409 | 422 | 403 | 423 = 409,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function rule(code: string, message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError(code, message, 409, details);
}

export function notFound(what: string): DomainError {
  return new DomainError('not-found', `${what} not found`, 404);
}

/**
 * Decides `command` on the initial state now (a pre-check, e.g. before claiming a unique value) and gives a decider
 * that answers that same command on that same state with these events instead of deciding again (decide is pure).
 */
export function decideUpFront<C extends CommandEnvelope, E extends DecidedEvent, S>(
  decider: Decider<C, E, S>,
  command: C,
): Decider<C, E, S> {
  const decided = decider.decide(command, decider.initialState);
  const same = (c: C) => c.type === command.type && c.aggregateId === command.aggregateId && c.data === command.data && c.at === command.at;
  return {
    ...decider,
    decide: (c, state) => (state === decider.initialState && same(c) ? decided : decider.decide(c, state)),
  };
}
