// RFC 9457 problem details. Every error the API answers is one of these, as application/problem+json; any
// layer may throw one (sign-in, queries, routes) and the HTTP layer renders it.

export interface FieldError {
  /** JSON pointer into the request: /body/email, /query/limit, /params/id, /headers/if-match */
  pointer: string;
  message: string;
}

export interface ProblemBody {
  type: string; // '/problems/<code>'
  title: string;
  status: number;
  detail?: string;
  instance?: string; // the request path
  correlationId?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** An error that carries the answer the API gives for it: status, stable problem code, title and detail. */
export class ProblemError extends Error {
  /** A refusal that still wrote (DomainError.writtenAt): the answer carries the position, sealed, as X-Event-Position. */
  writtenAt?: bigint;

  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail?: string,
    readonly headers: Record<string, string> = {},
    readonly errors?: FieldError[],
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail ?? title);
    this.name = 'ProblemError';
  }
}

export const problemType = (code: string): string => `/problems/${code}`;

export const unauthorized = (detail = 'A valid access token is required', error = 'invalid_token') =>
  new ProblemError(401, 'unauthorized', 'Unauthorized', detail, {
    'WWW-Authenticate': `Bearer realm="dialysis", error="${error}", error_description="${detail.replace(/"/g, "'")}"`,
  });

export const forbidden = (permission: string) =>
  new ProblemError(403, 'forbidden', 'Forbidden', `This action needs the permission '${permission}'`, {}, undefined, { permission });

export const tooManyRequests = (retryAfterSeconds: number, detail = 'Too many requests; retry later') =>
  new ProblemError(429, 'too-many-requests', 'Too Many Requests', detail, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

/** A read model has not applied a write within the bounded wait: the client retries shortly. */
export const readModelBehind = (detail = 'The read model has not caught up with the write yet; retry shortly'): ProblemError =>
  new ProblemError(503, 'projection-behind', 'Service Unavailable', detail, { 'Retry-After': '1' });

export const notFoundProblem = (detail = 'Not found') => new ProblemError(404, 'not-found', 'Not Found', detail);
