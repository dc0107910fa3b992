// Read-your-writes waits: callers park until the chosen projections have applied a position. Woken by
// checkpoint advances (no polling); a bounded timeout answers false.
export interface WaitTarget {
  reached(position: bigint): boolean;
  /** True when the target can no longer advance (a stopped runner): waiting is pointless. */
  stuck(): boolean;
  /** True when reaching the position will not show the write (its tenant is parked): answer false at once. */
  refuses(position: bigint): boolean;
}

interface Waiter {
  position: bigint;
  targets: WaitTarget[];
  resolve(reached: boolean): void;
  timer: NodeJS.Timeout;
}

export class PositionWaiters {
  private readonly waiters = new Set<Waiter>();

  /** `onNotify`: told of every advance too (the projector thread passes them on to the main thread). */
  constructor(private readonly onNotify?: () => void) {}

  wait(position: bigint, targets: WaitTarget[], timeoutMs: number): Promise<boolean> {
    const verdict = this.verdict(position, targets);
    if (verdict !== null) return Promise.resolve(verdict);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        targets,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Call after any checkpoint advance, parking or state change. */
  notify(): void {
    this.onNotify?.();
    for (const waiter of this.waiters) {
      const verdict = this.verdict(waiter.position, waiter.targets);
      if (verdict === null) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(verdict);
    }
  }

  /** Answers every pending wait with false (shutdown). */
  cancelAll(): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters.clear();
  }

  private verdict(position: bigint, targets: WaitTarget[]): boolean | null {
    if (targets.some((t) => t.refuses(position))) return false;
    if (targets.every((t) => t.reached(position))) return true;
    if (targets.some((t) => !t.reached(position) && t.stuck())) return false;
    return null;
  }
}
