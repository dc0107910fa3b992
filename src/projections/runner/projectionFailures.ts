// What stops a projection, and for how long. A handler error on an event is a poison event (its scope is parked,
// see parkedScopes.ts); anything else (the subscription dropped, a read-store read or write failed, the checkpoint
// could not be written) is transient: the projection stops, waits with exponential backoff and jitter, and resumes
// from its checkpoint.

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A read-model store call failed under a handler (a MongoDB election, a lost connection): not the handler's logic,
 * so the event is retried instead of parked. Handlers may throw it too for an outside resource that is down.
 */
export class ReadModelUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`read store unavailable: ${errorText(cause)}`, { cause });
    this.name = 'ReadModelUnavailableError';
  }
}

/** A handler error on an event is poison; store and subscription errors (and errors outside any event) are transient. */
export function isPoison(error: unknown, event: unknown): boolean {
  return event !== null && !(error instanceof ReadModelUnavailableError);
}

export interface RetryPolicy {
  /** Delay before the first retry; each failed retry doubles it... */
  initialMs: number;
  /** ...up to this. */
  maxMs: number;
}

/** Exponential backoff with "equal jitter": half the capped delay, plus a random share of the other half. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const capped = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(Math.max(0, attempt - 1), 30));
  return Math.round(capped / 2 + (random() * capped) / 2);
}

/** The current failure of a projection: since when it has made no progress, and when it tries again. */
export interface SlotFailure {
  since: Date;
  attempts: number;
  nextAttemptAt: Date | null;
  /** When the last recovery from it happened: a new failure soon after continues this one (a flapping store). */
  recoveredAt: Date | null;
}
