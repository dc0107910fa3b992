// Catch-up subscription over a position-ordered log: page after the last handled position until a short
// page, then wait for a wake-up (an in-process commit) or the poll interval (commits by other processes).
// Catch-up and live are the same loop reading "after the last handled position", so nothing is lost or doubled.
import type { RecordedEvent, Subscription } from '../eventStore.js';

export interface PollingSource {
  readPage(after: bigint, maxCount: number): RecordedEvent[];
  /** Registers a wake-up called after every in-process commit; returns the unregister function. */
  onCommit(listener: () => void): () => void;
}

export interface PollingOptions {
  after: bigint;
  pageSize: number;
  pollMs: number;
}

export function startPollingSubscription(
  source: PollingSource,
  options: PollingOptions,
  handler: (event: RecordedEvent) => Promise<void> | void,
): Subscription {
  let stopped = false;
  let dirty = true; // set by every commit; cleared right before a read, so a commit after that read is seen
  let wake: (() => void) | null = null;
  let resolveFailed!: (error: Error) => void;
  const failed = new Promise<Error>((resolve) => (resolveFailed = resolve));

  const unregister = source.onCommit(() => {
    dirty = true;
    wake?.();
  });

  const waitForWork = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.pollMs);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const loop = (async () => {
    let position = options.after;
    while (!stopped) {
      dirty = false;
      const page = source.readPage(position, options.pageSize);
      for (const event of page) {
        if (stopped) return;
        await handler(event);
        position = event.position;
      }
      if (page.length < options.pageSize && !dirty && !stopped) await waitForWork();
    }
  })()
    .catch((err: unknown) => {
      stopped = true;
      resolveFailed(err instanceof Error ? err : new Error(String(err)));
    })
    .finally(unregister);

  return {
    failed,
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
