// RateLimit-Policy and RateLimit (IETF httpapi RateLimit header fields draft) from the throttles the request met, 429s too.
import type Koa from 'koa';
import type { ResponseDecl } from './routeTypes.js';
import { rateLimitFields, type RateLimitLog } from '../rateLimits.js';

/** The contract's words for both headers, said once (components.headers) for every throttled route. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': 'The quota policies this request was counted against (IETF RateLimit draft): `"name";q=quota;w=seconds`',
  RateLimit: 'What is left of each policy: `"name";r=remaining;t=seconds until reset`',
} as const;

/** The request's log the throttles write into (the route pipeline hands it on as RequestContext.rateLimits). */
export const rateLimitLogOf = (ctx: Koa.Context): RateLimitLog | undefined => ctx.state.rateLimits as RateLimitLog | undefined;

/** Installed outside the error mapping, so a 429 problem carries them beside its Retry-After. */
export function rateLimitHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    const observations: RateLimitLog = new Map();
    ctx.state.rateLimits = observations;
    try {
      await next();
    } finally {
      if (observations.size > 0 && !ctx.headerSent) {
        ctx.set(rateLimitFields([...observations.values()]));
      }
    }
  };
}

/** A throttled route (one that declares a 429) declares both headers on its successes and on the 429. */
export function withRateLimitHeaders(declared: Record<number, ResponseDecl>): Record<number, ResponseDecl> {
  if (!declared[429]) return declared;
  const out: Record<number, ResponseDecl> = {};
  for (const [status, decl] of Object.entries(declared)) {
    const counted = Number(status) < 300 || Number(status) === 429;
    out[Number(status)] = counted ? { ...decl, headers: { ...decl.headers, ...RATE_LIMIT_HEADERS } } : decl;
  }
  return out;
}
