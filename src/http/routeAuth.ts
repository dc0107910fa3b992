// Who is calling, from the route's declared auth: 'public' needs nothing, 'session' a valid bearer token,
// 'tenant' also a company selected on the session, then the declared permission; 'platform' a platform administrator.
import type Koa from 'koa';
import type { AppServices } from '../services.js';
import { ProblemError, forbidden, unauthorized } from '../problems.js';
import type { Principal } from '../auth/principal.js';
import type { RouteDecl } from './routeTypes.js';
import { isOptionalModule } from '../commands/platform/company/events.js';
import { opsPrincipal } from './opsAuth.js';

/** Verifies an access token (signature, claims, live session); throws ProblemError 401 when it is not valid. */
export type Authenticate = (
  token: string,
  ctx: { services: AppServices; ip: string | null; userAgent: string | null },
) => Promise<Principal>;

// RFC 6750 b64token.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export const missingToken = (): ProblemError =>
  new ProblemError(401, 'unauthorized', 'Unauthorized', 'An access token is required: send Authorization: Bearer <token>', {
    'WWW-Authenticate': 'Bearer realm="dialysis"',
  });

export const companyNotSelected = (): ProblemError =>
  new ProblemError(
    403,
    'company-not-selected',
    'Company Not Selected',
    'This route works inside a company: select a company with POST /tenants/{id}/select first',
  );

export const platformAdminRequired = (): ProblemError =>
  new ProblemError(
    403,
    'platform-admin-required',
    'Forbidden',
    'This operation belongs to the platform: it needs a platform administrator',
  );

export const peopleOnly = (): ProblemError =>
  new ProblemError(403, 'people-only', 'Forbidden', 'This route is for people signed in with a session; an API client token cannot use it');

export const moduleDisabled = (tag: string): ProblemError =>
  new ProblemError(403, 'module-disabled', 'Module Disabled', `The ${tag} module is switched off for this company (its data is kept)`);

export const companySuspended = (): ProblemError =>
  new ProblemError(
    403,
    'company-suspended',
    'Company Suspended',
    'The company is suspended: its records can be read for audit, but nothing can be changed until the platform reactivates it',
  );

export function clientOf(ctx: Koa.Context): { ip: string | null; userAgent: string | null } {
  const userAgent = ctx.get('user-agent');
  return { ip: ctx.ip || null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}

export async function principalFor(
  route: RouteDecl,
  ctx: Koa.Context,
  services: AppServices,
  authenticate: Authenticate,
): Promise<Principal | null> {
  if (route.auth === 'public') return null;
  const header = ctx.get('authorization');
  if (!header) throw missingToken();
  const ops = opsPrincipal(services, header, ctx.get('x-ops-user'));
  if (ops) {
    ctx.state.principal = ops;
    if (route.auth !== 'platform') throw platformAdminRequired(); // the operator token reaches platform operations only
    return ops;
  }
  const match = BEARER.exec(header);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"', 'invalid_request');
  const principal = await authenticate(match[1]!, { services, ...clientOf(ctx) });
  ctx.state.principal = principal; // who was refused, for the access audit of a refused read
  // Session routes (tenants, selection, own account) are for people; a program's token is already bound to its company.
  if (route.auth === 'session' && principal.clientId) throw peopleOnly();
  if (route.auth === 'platform') {
    if (!principal.platformAdmin) throw platformAdminRequired();
    return principal;
  }
  if (route.auth === 'tenant') {
    if (principal.tenantId === null) throw companyNotSelected();
    if (isOptionalModule(route.tag) && !principal.company?.modules.includes(route.tag)) throw moduleDisabled(route.tag);
    if (route.method !== 'get' && principal.company?.status === 'suspended') throw companySuspended();
  }
  if (route.permission && !principal.permissions.has(route.permission)) throw forbidden(route.permission);
  return principal;
}
