// Counts events per key in a sliding time window (per-IP login throttle). In memory, per process.

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records an attempt at `nowMs`; returns 0 when allowed, else the seconds until one is allowed again. */
  hit(key: string, nowMs: number): number {
    const recent = (this.hits.get(key) ?? []).filter((t) => nowMs - t < this.windowMs && t <= nowMs);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return Math.max(1, Math.ceil((recent[0]! + this.windowMs - nowMs) / 1000));
    }
    recent.push(nowMs);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.sweep(nowMs);
    return 0;
  }

  /** Seconds until an attempt would be allowed (0: now), without recording one. */
  waitFor(key: string, nowMs: number): number {
    const recent = (this.hits.get(key) ?? []).filter((t) => nowMs - t < this.windowMs && t <= nowMs);
    return recent.length >= this.limit ? Math.max(1, Math.ceil((recent[0]! + this.windowMs - nowMs) / 1000)) : 0;
  }

  private sweep(nowMs: number): void {
    for (const [key, times] of this.hits) if (times.every((t) => nowMs - t >= this.windowMs)) this.hits.delete(key);
  }
}
