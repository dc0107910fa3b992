// Messages between the event store and its writer thread. Outcomes carry errors as plain data and are
// turned back into the store's own error classes, so callers cannot tell which thread wrote.
import { IdempotencyConflictError, WrongExpectedRevisionError, type AppendResult, type ExpectedRevision } from '../eventStore.js';
import type { AppendOutcome, PreparedAppend } from './sqliteAppendBatch.js';

/** Connection settings the writer copies from the store's own connection (they are per connection). */
export interface WriterSettings {
  file: string;
  /** `name = value` pragmas, applied in order. */
  pragmas: string[];
  busyTimeoutMs: number;
}

export type WireError =
  | { kind: 'wrong-expected-revision'; stream: string; expected: ExpectedRevision; actual: number | 'no_stream' }
  | { kind: 'idempotency-conflict'; stream: string; eventId: string }
  | { kind: 'error'; name: string; message: string; code?: string; stack?: string };

export type WireOutcome = { ok: AppendResult; wrote: boolean } | { error: WireError };

export type ToWriter = { type: 'batch'; id: number; batch: PreparedAppend[] } | { type: 'close' };

export type FromWriter =
  | { type: 'ready' }
  /** The writer could not open its connection: the store writes on its own thread instead. */
  | { type: 'unavailable'; error: WireError }
  | { type: 'done'; id: number; outcomes: WireOutcome[] }
  /** The transaction failed as a whole: nothing of the batch was written. */
  | { type: 'failed'; id: number; error: WireError };

export function errorToWire(err: unknown): WireError {
  if (err instanceof WrongExpectedRevisionError) return { kind: 'wrong-expected-revision', stream: err.stream, expected: err.expected, actual: err.actual };
  if (err instanceof IdempotencyConflictError) return { kind: 'idempotency-conflict', stream: err.stream, eventId: err.eventId };
  const e = err as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown } | null;
  return {
    kind: 'error',
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    ...(typeof e?.stack === 'string' ? { stack: e.stack } : {}),
  };
}

export function errorFromWire(w: WireError): Error {
  if (w.kind === 'wrong-expected-revision') return new WrongExpectedRevisionError(w.stream, w.expected, w.actual);
  if (w.kind === 'idempotency-conflict') return new IdempotencyConflictError(w.stream, w.eventId);
  const err = Object.assign(new Error(w.message), w.code ? { code: w.code } : {});
  err.name = w.name;
  if (w.stack) err.stack = w.stack;
  return err;
}

export const outcomeToWire = (o: AppendOutcome): WireOutcome => ('error' in o ? { error: errorToWire(o.error) } : o);
export const outcomeFromWire = (o: WireOutcome): AppendOutcome => ('error' in o ? { error: errorFromWire(o.error) } : o);
