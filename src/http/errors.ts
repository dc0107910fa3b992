// Turns anything thrown while answering a request into an RFC 9457 problem. Known errors keep their
// meaning (status and stable code); anything else is a 500 that says nothing about internals.
import { STATUS_CODES } from 'node:http';
import type Koa from 'koa';
import { ProblemError, problemType, type FieldError, type ProblemBody } from '../problems.js';
import { DomainError } from '../commands/decider.js';
import { ConcurrencyConflictError, PreconditionFailedError } from '../commands/handleCommand.js';
import { IdempotencyConflictError, WrongExpectedRevisionError } from '../stores/eventStore.js';
import { DuplicateKeyError } from '../stores/readStore.js';
import { InvalidCursorError } from '../stores/readCursor.js';
import { LIMITS } from '../limits.js';
import type { Logger } from '../logger.js';
import { storageProblemOf } from './storageProblems.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const titleOf = (status: number): string => STATUS_CODES[status] ?? 'Error';

// Problem members an extension must never overwrite.
const RESERVED = new Set(['type', 'title', 'status', 'detail', 'instance', 'correlationId', 'errors']);

function withoutReserved(extra: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(extra ?? {})) if (!RESERVED.has(k)) out[k] = v;
  return out;
}

// A domain rule naming fields ({field: 'birthDate'} paths in the command data, or ready JSON pointers)
// answers them in errors[] like a schema violation does.
function fieldErrorsOf(details: Record<string, unknown> | undefined): FieldError[] | undefined {
  const list = details?.errors;
  if (!Array.isArray(list)) return undefined;
  const out: FieldError[] = [];
  for (const item of list as Record<string, unknown>[]) {
    const message = typeof item?.message === 'string' ? item.message : 'is invalid';
    if (typeof item?.pointer === 'string') out.push({ pointer: item.pointer, message });
    else if (typeof item?.field === 'string') out.push({ pointer: `/body/${item.field.replace(/^\//, '')}`, message });
  }
  return out.length > 0 ? out : undefined;
}

/** Errors raised by koa-bodyparser / raw-body / co-body carry a status and sometimes a `type`. */
interface ParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

function fromParser(err: unknown): ProblemError | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as ParserError;
  const status = e.status ?? e.statusCode;
  if (typeof status !== 'number') return null;
  if (status === 413 || e.type === 'entity.too.large') {
    return new ProblemError(413, 'payload-too-large', 'Payload Too Large', `The request body exceeds ${LIMITS.body.maxBytes} bytes`);
  }
  if (status === 400 && (err instanceof SyntaxError || e.type === 'entity.parse.failed')) {
    return new ProblemError(400, 'malformed-json', 'Bad Request', 'The request body is not valid JSON (an object or array is expected)');
  }
  if (status === 415 || e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') {
    return new ProblemError(415, 'unsupported-media-type', 'Unsupported Media Type', 'Send the body as application/json in UTF-8');
  }
  if (e.type === 'request.aborted' || e.type === 'request.size.invalid' || e.type === 'stream.encoding.set') {
    return new ProblemError(400, 'bad-request', 'Bad Request', 'The request body could not be read');
  }
  // Other client errors raised by Koa itself (ctx.throw / http-errors with expose): keep the status only.
  if (status >= 400 && status < 500 && e.expose) return new ProblemError(status, 'bad-request', titleOf(status), titleOf(status));
  return null;
}

/** The ProblemError an error stands for, or null when it is unexpected (a 500). */
export function toHttpError(err: unknown): ProblemError | null {
  if (err instanceof ProblemError) return err;
  if (err instanceof DomainError) {
    return new ProblemError(
      err.status,
      err.code,
      titleOf(err.status),
      err.message,
      {},
      fieldErrorsOf(err.details),
      withoutReserved(err.details),
    );
  }
  if (err instanceof PreconditionFailedError) {
    return new ProblemError(
      412,
      'precondition-failed',
      'Precondition Failed',
      'The record changed since you read it (If-Match does not match); read it again and retry',
      {},
      undefined,
      {
        expectedRevision: err.expected,
        currentRevision: err.actual,
      },
    );
  }
  if (err instanceof ConcurrencyConflictError || err instanceof WrongExpectedRevisionError) {
    return new ProblemError(409, 'concurrency-conflict', 'Conflict', 'The record was changed concurrently; retry');
  }
  if (err instanceof IdempotencyConflictError) {
    return new ProblemError(
      422,
      'idempotency-key-reused',
      'Unprocessable Content',
      'This Idempotency-Key was already used for a different request',
    );
  }
  if (err instanceof InvalidCursorError) {
    return new ProblemError(
      400,
      'invalid-cursor',
      'Bad Request',
      'The cursor is malformed or belongs to another query; start again without it',
      {},
      [{ pointer: '/query/cursor', message: 'is not a cursor of this query' }],
    );
  }
  const storage = storageProblemOf(err);
  if (storage) return storage;
  if (err instanceof DuplicateKeyError) {
    return new ProblemError(409, 'duplicate', 'Conflict', 'A record with the same unique key already exists');
  }
  return fromParser(err);
}

export function problemBody(e: ProblemError, instance: string, correlationId: string): ProblemBody {
  return {
    ...withoutReserved(e.extensions),
    type: problemType(e.code),
    title: e.title,
    status: e.status,
    detail: e.message,
    instance,
    correlationId,
    ...(e.errors && e.errors.length > 0 ? { errors: e.errors } : {}),
  };
}

/** Writes a problem answer on the Koa context. */
export function sendProblem(ctx: Koa.Context, e: ProblemError, correlationId: string): void {
  ctx.status = e.status;
  for (const [name, value] of Object.entries(e.headers)) ctx.set(name, value);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = PROBLEM_CONTENT_TYPE;
  ctx.body = JSON.stringify(problemBody(e, ctx.path, correlationId));
}

export const internalError = (): ProblemError =>
  new ProblemError(500, 'internal', 'Internal Server Error', 'An unexpected error occurred; quote the correlationId when reporting it');

/** The problem errorMapping answered (ctx.state.problem), for the access line: its code, and whether it is a fault. */
export interface AnsweredProblem {
  code: string;
  /**
   * A fault of this service: an exception nobody expected, or a 500 raised on purpose (a response breaking its
   * contract). Any other problem is an answer the code chose, a 5xx too: 503 not-ready while starting, a read model
   * rebuilding, writes held, 507 on a full disk; a cause that needs an operator is logged at error where it is found.
   */
  fault: boolean;
}

/** Koa middleware: every error below it becomes a problem; unexpected ones are logged with their stack. */
export function errorMapping(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const correlationId = String(ctx.state.correlationId ?? '');
      let mapped = toHttpError(err);
      if (!mapped) {
        logger.error('unexpected error', { correlationId, method: ctx.method, path: ctx.path, error: err });
        mapped = internalError();
      } else if (mapped.status === 500) {
        logger.error('server error', { correlationId, method: ctx.method, path: ctx.path, status: mapped.status, code: mapped.code });
      }
      ctx.state.problem = { code: mapped.code, fault: mapped.status === 500 } satisfies AnsweredProblem;
      // Drop headers a handler may have set before failing (ETag, Location...): they describe a success.
      for (const name of ['etag', 'location', 'x-event-position', 'idempotent-replayed']) ctx.remove(name);
      sendProblem(ctx, mapped, correlationId);
    }
  };
}
