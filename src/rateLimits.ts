// What the throttles a request met said about it (quota, what is left, when it resets), for its RateLimit headers.
import { AsyncLocalStorage } from 'node:async_hooks';

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

const observed = new AsyncLocalStorage<Map<string, RateLimitObservation>>();

/** Runs a request, collecting what the throttles it meets observe (the last word of each policy wins). */
export function collectRateLimits<T>(run: () => T): { result: T; observations: Map<string, RateLimitObservation> } {
  const observations = new Map<string, RateLimitObservation>();
  return { result: observed.run(observations, run), observations };
}

/** A throttle reports its state for the current request (a no-op outside a collecting request). */
export function observeRateLimit(policy: RateLimitPolicy, remaining: number, resetSeconds: number | null): void {
  observed.getStore()?.set(policy.name, {
    policy,
    remaining: Math.max(0, remaining),
    resetSeconds: resetSeconds === null ? null : Math.max(0, Math.ceil(resetSeconds)),
  });
}
