// RateLimit-Policy and RateLimit (IETF httpapi RateLimit header fields draft) from the throttles the request met, 429s too.
import type Koa from 'koa';
import type { ResponseDecl } from './routeTypes.js';
import { collectRateLimits, type RateLimitObservation } from '../rateLimits.js';

/** The contract's words for both headers, said once (components.headers) for every throttled route. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': 'The quota policies this request was counted against (IETF RateLimit draft): `"name";q=quota;w=seconds`',
  RateLimit: 'What is left of each policy: `"name";r=remaining;t=seconds until reset`',
} as const;

const name = (o: RateLimitObservation): string => JSON.stringify(o.policy.name);

export function policyField(observations: RateLimitObservation[]): string {
  return observations
    .map((o) => {
      const { quota, windowSeconds, unit } = o.policy;
      return `${name(o)};q=${quota}${windowSeconds ? `;w=${windowSeconds}` : ''}${unit && unit !== 'requests' ? `;qu="${unit}"` : ''}`;
    })
    .join(', ');
}

export function limitField(observations: RateLimitObservation[]): string {
  return observations.map((o) => `${name(o)};r=${o.remaining}${o.resetSeconds === null ? '' : `;t=${o.resetSeconds}`}`).join(', ');
}

/** Installed outside the error mapping, so a 429 problem carries them beside its Retry-After. */
export function rateLimitHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    const { result, observations } = collectRateLimits(() => next());
    try {
      await result;
    } finally {
      if (observations.size > 0 && !ctx.headerSent) {
        const all = [...observations.values()];
        ctx.set('RateLimit-Policy', policyField(all));
        ctx.set('RateLimit', limitField(all));
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
