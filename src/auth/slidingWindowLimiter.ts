// Counts events per key in a sliding time window (per-IP login throttle). In memory, per process.
import { observeRateLimit, type RateLimitLog, type RateLimitPolicy } from '../rateLimits.js';

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly policy: RateLimitPolicy | null;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** Named: the request's RateLimit headers report this limiter (rateLimits.ts). */
    policyName?: string,
  ) {
    this.policy = policyName ? { name: policyName, quota: limit, windowSeconds: Math.round(windowMs / 1000) } : null;
  }

  /** Records an attempt at `nowMs`; returns 0 when allowed, else the seconds until one is allowed again. */
  hit(key: string, nowMs: number, log?: RateLimitLog): number {
    const recent = (this.hits.get(key) ?? []).filter((t) => nowMs - t < this.windowMs && t <= nowMs);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return this.report(recent, nowMs, log);
    }
    recent.push(nowMs);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.sweep(nowMs);
    this.report(recent, nowMs, log);
    return 0;
  }

  /** Seconds until an attempt would be allowed (0: now), without recording one. */
  waitFor(key: string, nowMs: number, log?: RateLimitLog): number {
    return this.report(
      (this.hits.get(key) ?? []).filter((t) => nowMs - t < this.windowMs && t <= nowMs),
      nowMs,
      log,
    );
  }

  /** The wait (0 when a request is allowed), reported with what is left and when the oldest counted request leaves the window. */
  private report(recent: number[], nowMs: number, log: RateLimitLog | undefined): number {
    const untilOldestLeaves = recent.length > 0 ? Math.max(1, Math.ceil((recent[0]! + this.windowMs - nowMs) / 1000)) : 0;
    if (this.policy) observeRateLimit(log, this.policy, this.limit - recent.length, untilOldestLeaves);
    return recent.length >= this.limit ? untilOldestLeaves : 0;
  }

  private sweep(nowMs: number): void {
    for (const [key, times] of this.hits) if (times.every((t) => nowMs - t >= this.windowMs)) this.hits.delete(key);
  }
}
