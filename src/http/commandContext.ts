// Event metadata from a request in one line: group handlers call commandContextOf(ctx) and pass the
// result to handleCommand.
import type { CommandContext } from '../commands/handleCommand.js';
import { PLATFORM_TENANT } from '../stores/eventStore.js';
import type { RequestContext, RouteAuth } from './routeTypes.js';

// The framework records which kind of route built each context: only 'tenant' routes write into the
// company's streams; 'public' and 'session' routes act on platform aggregates even when a company is selected.
const routeAuthOf = new WeakMap<RequestContext, RouteAuth>();

export function markRouteAuth(ctx: RequestContext, auth: RouteAuth): void {
  routeAuthOf.set(ctx, auth);
}

/** Tenant whose streams a request writes to: the selected company on 'tenant' routes, else 'platform'. */
export function tenantScopeOf(ctx: RequestContext): string {
  const auth = routeAuthOf.get(ctx);
  if (auth === 'tenant' || (auth === undefined && ctx.auth?.tenantId)) return ctx.auth?.tenantId ?? PLATFORM_TENANT;
  return PLATFORM_TENANT;
}

export function commandContextOf(
  ctx: RequestContext,
  extra: { reason?: string | null; tenantId?: string; actor?: string; at?: string } = {},
): CommandContext {
  return {
    tenantId: extra.tenantId ?? tenantScopeOf(ctx),
    actor: extra.actor ?? ctx.auth?.userId ?? 'anonymous',
    sessionId: ctx.auth?.sessionId ?? null,
    correlationId: ctx.correlationId,
    ...(ctx.trace ? { trace: ctx.trace } : {}),
    causationId: null,
    idempotencyKey: ctx.idempotencyKey,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    reason: extra.reason ?? null,
    at: extra.at ?? ctx.services.now().toISOString(),
  };
}
