// What the administration groups (Empresas, Usuarios, Roles) share: problem responses, the caller of a platform
// write made from a request, and small schema builders.
import Type, { type TString, type TStringOptions } from 'typebox';
import type { PlatformCaller } from '../../../commands/platform/platformWrites.js';
import type { PrivilegedCaller } from '../../../commands/platform/privilegeWrites.js';
import { decidePrivilege } from '../../../commands/platform/privilege/decider.js';
import { freeText, problem } from '../../commonSchemas.js';
import { ProblemError } from '../../../problems.js';
import { PLATFORM_DOCS } from '../../../stores/readStore.js';
import { platformCollections } from '../../../queries/platform/memberships.js';
import { permissionsOf } from '../../../permissions/builtInRoles.js';
import { isModulePermission } from '../../../commands/generador/shared/modulePermissions.js';
import { companyModulePermissions } from '../../../queries/generador/modulePermissions.js';
import { permissionCatalog } from '../../../queries/platform/permissionCatalog.js';
import type { JsonSchema, RequestContext, ResponseDecl, TenantRequestContext } from '../../routeTypes.js';

import { conflict409 } from './recordSupport.js';

export { badCursor400, conflict409, IF_MATCH_PROBLEMS, RECORD_HEADERS, type NoInput } from './recordSupport.js';

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
/**
 * The answers of an admin write on one record: its answer (200, 201 or 204), the refusals (403), not found (404), a
 * conflicting write (409, unless the write cannot conflict) and the read model behind (503).
 */
export function writeOnRecordAnswers(
  answer: Record<number, ResponseDecl>,
  refused: ResponseDecl,
  notFound: ResponseDecl,
  { conflicts = true } = {},
): Record<number, ResponseDecl> {
  const conflict: Record<number, ResponseDecl> = conflicts ? { 409: conflict409 } : {};
  return { ...answer, 403: refused, 404: notFound, ...conflict, 503: behind503 };
}

export const callerOf = (ctx: RequestContext, reason?: string | null): PlatformCaller => ({
  reason: reason ?? null,
  actor: ctx.auth?.userId ?? 'anonymous',
  correlationId: ctx.correlationId,
  ...(ctx.trace ? { trace: ctx.trace } : {}),
  sessionId: ctx.auth?.sessionId ?? null,
  ip: ctx.ip,
  userAgent: ctx.userAgent,
  idempotencyKey: ctx.idempotencyKey,
  rateLimits: ctx.rateLimits,
});

export const tenantOf = (ctx: RequestContext): string => (ctx as TenantRequestContext).auth.tenantId;

export const reasonSchema = freeText(500, 'Why: recorded with the event and shown in the history');

export const str = (description: string, extra: TStringOptions = {}): TString => Type.String({ description, ...extra });
export const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
export const ROLE_CODE = Type.String({ pattern: '^[a-z][a-z0-9-]{1,39}$', description: 'Role code (lower case, digits, dashes)' });
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const UUID = Type.String({ pattern: UUID_PATTERN });

/** Nobody hands out more than they hold: the roles (or permissions) granted must be within the caller's own permissions. */
export async function mustHoldWhatTheyGrant(ctx: RequestContext, grant: { roles?: string[]; permissions?: string[] }): Promise<void> {
  const auth = (ctx as TenantRequestContext).auth;
  const company = await platformCollections(ctx.services).companies.get(PLATFORM_DOCS, auth.tenantId);
  const catalog = permissionCatalog();
  // Permissions outside the catalogue grant nothing (the decider refuses them with 422): only real ones are compared.
  // So are the permissions of the company's own modules (one of a module it has not defined is the decider's 422 too).
  const wanted = grant.permissions ?? [];
  const modules = wanted.some(isModulePermission) ? await companyModulePermissions(ctx as TenantRequestContext) : [];
  const asked = wanted.filter((p) => catalog.includes(p) || modules.includes(p));
  const granted = [...asked, ...(company && grant.roles ? permissionsOf(company.roles, grant.roles, catalog) : [])];
  decidePrivilege(auth.permissions, { type: 'Grant', permissions: granted });
}

/** The caller of a privilege check: the company it acts in and what it holds there on this request. */
export const privilegedCaller = (ctx: RequestContext): PrivilegedCaller => {
  const auth = (ctx as TenantRequestContext).auth;
  return { companyId: auth.tenantId, permissions: auth.permissions };
};

const REFUSALS = {
  outranked: 'the member, API client or role acted on holds a permission you do not (`/problems/target-more-privileged`)',
  grant: 'a role or permission granted is one you do not hold (`/problems/grant-beyond-caller`, permissions[] names them)',
  shared: 'the account also belongs to another company or the platform (`/problems/account-shared`)',
} as const;

/** The 403 answers of an administration route beyond the framework's: nobody acts above or grants beyond themselves. */
export const refusals403 = (...reasons: (keyof typeof REFUSALS)[]): ResponseDecl => problem(reasons.map((r) => REFUSALS[r]).join('; '));

/**
 * Account-wide actions (a new activation token, a second-factor reset) reach only accounts that belong to this company
 * alone: an account shared with another company, or a platform administrator's, is the platform's to reset.
 */
export async function mustBeCompanyOwnedAccount(ctx: RequestContext, userId: string): Promise<void> {
  const auth = (ctx as TenantRequestContext).auth;
  const models = platformCollections(ctx.services);
  const [user, memberships] = await Promise.all([
    models.users.get(PLATFORM_DOCS, userId),
    models.memberships.find(PLATFORM_DOCS, { userId, active: true }, { limit: 100 }),
  ]);
  const shared = !user || user.platformAdmin || memberships.items.some((m) => m.companyId !== auth.tenantId);
  if (shared) {
    throw new ProblemError(
      403,
      'account-shared',
      'Forbidden',
      'This account also belongs to another company or to the platform: only a platform administrator can act on the whole account',
    );
  }
}
