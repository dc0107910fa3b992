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
      // A full page means catching up: give the event loop a turn, so a long catch-up never holds requests and I/O.
      if (page.length === options.pageSize) await new Promise<void>((resolve) => setImmediate(resolve));
      else if (!dirty && !stopped) await waitForWork();
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

/**
 * One read per page for every subscription of a store: subscriptions woken by the same commit at the same position
 * (the live projections and process managers) share the page read first, its events included. A page is kept until
 * the next commit or the next turn of the event loop, so none is older than the wake-up that asks for it.
 */
export function sharedPageReader(
  read: (after: bigint, maxCount: number, tenant?: string) => RecordedEvent[],
  onCommit: (listener: () => void) => () => void,
): (after: bigint, maxCount: number, tenant?: string) => RecordedEvent[] {
  const pages = new Map<string, RecordedEvent[]>();
  let clearing: NodeJS.Immediate | null = null;
  const forget = () => {
    pages.clear();
    if (clearing) clearImmediate(clearing);
    clearing = null;
  };
  onCommit(forget);
  return (after, maxCount, tenant) => {
    const key = `${after}\u0000${maxCount}\u0000${tenant ?? ''}`;
    let page = pages.get(key);
    if (!page) {
      page = read(after, maxCount, tenant);
      pages.set(key, page);
      clearing ??= setImmediate(forget);
    }
    return page;
  };
}
