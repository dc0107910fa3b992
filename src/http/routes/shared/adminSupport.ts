// What the administration groups (Empresas, Usuarios, Roles) share: problem responses, the caller of a platform
// write made from a request, and small schema builders.
import type { PlatformCaller } from '../../../commands/platform/platformWrites.js';
import { freeText, problem } from '../../commonSchemas.js';
import type { JsonSchema, RequestContext, ResponseDecl, TenantRequestContext } from '../../routeTypes.js';

/** Params or query a route does not declare. */
export type NoInput = Record<string, never>;

export const conflict409 = problem('A business rule refused the change (the code is in type), or a concurrent change');
export const precondition412 = problem('If-Match does not match the current revision');
export const required428 = problem('If-Match is missing: send the ETag you last read');
export const behind503 = problem('The write was recorded but its read model did not apply it in time; retry', {
  'Retry-After': 'Seconds to wait',
});
export const badCursor400 = problem('The cursor is malformed or belongs to another query');

export const WRITE_HEADERS = {
  'X-Event-Position': 'Global position of the write: pass it as minPosition to read your write anywhere',
};
export const RECORD_HEADERS = { ETag: 'W/"<revision>": send it back in If-Match to update', ...WRITE_HEADERS };

export const ok = (description: string, schema?: JsonSchema, headers?: Record<string, string>): ResponseDecl => ({
  description,
  ...(schema ? { schema } : {}),
  ...(headers ? { headers } : {}),
});

/** Who acts in a platform write made through a route: the signed-in user (or API client), with the request's trail. */
export const callerOf = (ctx: RequestContext, reason?: string | null): PlatformCaller => ({
  reason: reason ?? null,
  actor: ctx.auth?.userId ?? 'anonymous',
  correlationId: ctx.correlationId,
  sessionId: ctx.auth?.sessionId ?? null,
  ip: ctx.ip,
  userAgent: ctx.userAgent,
  idempotencyKey: ctx.idempotencyKey,
});

export const tenantOf = (ctx: RequestContext): string => (ctx as TenantRequestContext).auth.tenantId;

export const reasonSchema = freeText(500, 'Why: recorded with the event and shown in the history');

export const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
export const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
export const ROLE_CODE: JsonSchema = {
  type: 'string',
  pattern: '^[a-z][a-z0-9-]{1,39}$',
  description: 'Role code (lower case, digits, dashes)',
};
export const UUID: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' };
