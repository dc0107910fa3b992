// What the routes of every record group share: problem responses, record headers, the command context of a request,
// and field-rule errors answered like schema violations.
import type { CommandContext } from '../../../commands/handleCommand.js';
import { DomainError } from '../../../commands/decider.js';
import type { FieldProblem } from '../../../commands/shared/fieldChecks.js';
import { commandContextOf } from '../../commandContext.js';
import { pageOf, problem } from '../../commonSchemas.js';
import { ProblemError } from '../../../problems.js';
import type { JsonSchema, RequestContext, ResponseDecl, TenantRequestContext } from '../../routeTypes.js';

/** Params or query a route does not declare. */
export type NoInput = Record<string, never>;
/** Query of the reads that accept minPosition (minPositionQueryProperty). */
export type MinPositionQuery = { minPosition?: string };
/** Query of the list routes (pageQueryProperties): the schema's default fills in limit. */
export type PageQuery = MinPositionQuery & { limit: number; cursor?: string };

export const RECORD_HEADERS = {
  ETag: 'W/"<revision>": send it back in If-Match to update',
  'X-Event-Position': 'Global position of the write: pass it as minPosition to read your write anywhere',
};
/** A single-record read: its ETag and, read with asOf or version, the version and the event that made it so. */
export const READ_HEADERS = {
  ETag: RECORD_HEADERS.ETag,
  'X-Record-Event':
    'With asOf or version: the version then and the event that made it, version=3, type="…", occurredAt="…", actor="…" (RFC 8941)',
  'X-Event-Position': "With asOf or version: that event's position, sealed",
};
export const conflict409 = problem('A business rule refused the change (code in type), or a concurrent change');
/** A refusal that may still have written: units given back when a serialized issue or a transfer's destination refused. */
export const givenBack409 = problem('A business rule refused the change (code in type), or a concurrent change', {
  'X-Event-Position': 'When the refusal gave units back to the stock: that write, to read the balance back with (minPosition)',
});
export const precondition412 = problem('If-Match does not match the current revision');
export const badCursor400 = problem('The cursor is malformed or belongs to another query (sort order)');
export const required428 = problem('If-Match is missing: send the ETag you last read');
/** What a write naming the revision it read (If-Match) answers besides its own: refused (409), stale (412), missing (428). */
export const IF_MATCH_PROBLEMS = { 409: conflict409, 412: precondition412, 428: required428 };
export const unavailable503 = problem('The read model did not reach minPosition within the bounded wait; retry', {
  'Retry-After': 'Seconds to wait',
});
/** The answers of a page read: the page, a bad cursor, the record it belongs to not found (when any), a read model behind. */
export function pageResponses(description: string, item: JsonSchema, notFound?: ResponseDecl): Record<number, ResponseDecl> {
  const responses: Record<number, ResponseDecl> = { 200: { description, schema: pageOf(item) }, 400: badCursor400, 503: unavailable503 };
  if (notFound) responses[404] = notFound;
  return responses;
}
export const ok = (description: string, schema: JsonSchema, headers: Record<string, string> = RECORD_HEADERS): ResponseDecl => ({
  description,
  schema,
  headers,
});
/** The answers of a record's report that may be asked as CSV: the report (JSON or text/csv), no such record, the read model behind. */
export const csvReportResponses = (description: string, schema: JsonSchema, notFound: ResponseDecl): Record<number, ResponseDecl> => ({
  200: { description: `${description} (text/csv when asked)`, schema },
  404: notFound,
  503: unavailable503,
});
/** A 201 answer: the new record with its ETag and position, and Location (described). */
export const createdOk = (description: string, schema: JsonSchema, location: string): ResponseDecl =>
  ok(description, schema, { ...RECORD_HEADERS, Location: location });

export const tenantCtx = (ctx: RequestContext): TenantRequestContext => ctx as TenantRequestContext;

/** Command metadata of a request; the reason (if any) travels in every event's metadata. */
export const commandCtx = (ctx: RequestContext, reason?: string | null): CommandContext =>
  commandContextOf(ctx, { reason: reason ?? null });

/** Field rules broken in the decider answer exactly like schema violations: 422 with a pointer per field. */
export async function withFieldPointers<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const errors =
      err instanceof DomainError && err.code === 'validation-failed' ? (err.details?.errors as FieldProblem[] | undefined) : undefined;
    if (!errors) throw err;
    const problem = new ProblemError(
      422,
      'validation-failed',
      'Unprocessable Content',
      err instanceof Error ? err.message : 'Invalid data',
      {},
      errors.map((e) => ({ pointer: `/body/${e.field}`, message: e.message })),
    );
    problem.writtenAt = (err as DomainError).writtenAt;
    throw problem;
  }
}
