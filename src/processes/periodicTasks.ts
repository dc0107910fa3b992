// Work the service repeats on a timer (reconciliations): each task runs once at start, then every `everyMs` after its
// previous run ended, so runs of one task never overlap. A failed run is logged and the next one comes as planned.
import type { Logger } from '../logger.js';

export interface PeriodicTask<S> {
  /** Stable name, for the logs. */
  name: string;
  everyMs: number;
  /** A reconciliation (repairs what a crash left half done): /ready waits for its first run after a start. */
  reconciliation?: boolean;
  run(services: S): Promise<void>;
}

export interface PeriodicTaskRunner {
  /** Stops the timers and waits for runs in flight. */
  stop(): Promise<void>;
  /** Names of the reconciliations whose first run since the start has not ended yet. */
  reconciling(): string[];
}

export function startPeriodicTasks<S>(deps: { logger: Logger; services: () => S }, tasks: readonly PeriodicTask<S>[]): PeriodicTaskRunner {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const firstRuns = new Set(tasks.filter((task) => task.reconciliation).map((task) => task.name));

  const schedule = (task: PeriodicTask<S>, delayMs: number): void => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = task
        .run(deps.services())
        .catch((err: unknown) => deps.logger.error('periodic task failed', { task: task.name, error: String(err) }))
        .finally(() => {
          inFlight.delete(run);
          firstRuns.delete(task.name);
          schedule(task, task.everyMs);
        });
      inFlight.add(run);
    }, delayMs);
    timer.unref(); // never keeps the process alive on its own
    timers.add(timer);
  };
  for (const task of tasks) schedule(task, 0);

  return {
    reconciling: () => [...firstRuns],
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all([...inFlight]);
    },
  };
}
