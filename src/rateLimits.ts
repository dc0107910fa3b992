// What the throttles a request met said about it (quota, what is left, when it resets), for its RateLimit headers. Passed
// explicitly (a per-request log on the request context), never through async-hooks storage: its hooks tax every await.

/** A quota policy (IETF RateLimit draft): `quota` per `windowSeconds`, or `quota` concurrent requests without a window. */
export interface RateLimitPolicy {
  /** The policy's name in RateLimit-Policy and RateLimit: a short token. */
  name: string;
  quota: number;
  windowSeconds?: number;
  unit?: 'requests' | 'concurrent-requests';
}

export interface RateLimitObservation {
  policy: RateLimitPolicy;
  remaining: number;
  /** Seconds until the next request is counted free again (when exhausted: the Retry-After); null for concurrency slots in use. */
  resetSeconds: number | null;
}

/** One request's observations by policy name (the last word of each policy wins); created by the RateLimit middleware. */
export type RateLimitLog = Map<string, RateLimitObservation>;

/** A throttle reports its state into the request's log (a no-op without one: a call from outside a request). */
export function observeRateLimit(
  log: RateLimitLog | null | undefined,
  policy: RateLimitPolicy,
  remaining: number,
  resetSeconds: number | null,
): void {
  log?.set(policy.name, {
    policy,
    remaining: Math.max(0, remaining),
    resetSeconds: resetSeconds === null ? null : Math.max(0, Math.ceil(resetSeconds)),
  });
}

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

/** Both header fields of a set of observations (a 429 raised outside a request's log carries its own). */
export const rateLimitFields = (observations: RateLimitObservation[]): Record<'RateLimit-Policy' | 'RateLimit', string> => ({
  'RateLimit-Policy': policyField(observations),
  RateLimit: limitField(observations),
});
