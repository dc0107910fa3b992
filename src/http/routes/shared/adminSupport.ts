// What the administration groups (Empresas, Usuarios, Roles) share: problem responses, the caller of a platform
// write made from a request, and small schema builders.
import type { PlatformCaller } from '../../../commands/platform/platformWrites.js';
import { freeText, problem } from '../../commonSchemas.js';
import type { JsonSchema, RequestContext, ResponseDecl, TenantRequestContext } from '../../routeTypes.js';

export { badCursor400, conflict409, precondition412, RECORD_HEADERS, required428, type NoInput } from './recordSupport.js';

export const behind503 = problem('The write was recorded but its read model did not apply it in time; retry', {
  'Retry-After': 'Seconds to wait',
});

export const WRITE_HEADERS = {
  'X-Event-Position': 'Global position of the write: pass it as minPosition to read your write anywhere',
};

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
