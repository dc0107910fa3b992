// Who read which clinical record, when and from where (HIPAA 164.312(b)). Reads must never wait for or
// fail because of the audit: repeated reads of a record by the same actor within a short window are folded into
// one entry (count, first and last time), and entries are appended in batches as RecordAccessed events to a
// per-tenant daily stream, split by bytes, retried per stream with backoff, and flushed on close.
import type { EventStore, NewEvent } from '../stores/eventStore.js';
import { newId } from '../commands/eventIds.js';
import { LIMITS } from '../limits.js';
import type { Logger } from '../logger.js';
import { accessLogStream, chunksBySize, coalesceKey, eventOf, type AccessRecord, type Queued } from './accessAuditEvents.js';

export { accessLogStream, RECORD_ACCESSED, type AccessRecord } from './accessAuditEvents.js';

export interface AccessAuditWriter {
  /** Queue an entry; never throws, never waits. */
  record(entry: AccessRecord): void;
  /** Append everything queued so far (failures are logged and the entries stay queued). */
  flush(): Promise<void>;
  /** Stop the timer and flush what is left (a few attempts). */
  close(): Promise<void>;
  /** Entries queued and not yet written. */
  readonly pending: number;
}

type DrainMode = 'all' | 'due' | 'full-batches';

/** A stream whose append failed: its entries wait here until its own retry time, which grows with each failure. */
interface Backoff {
  failures: number;
  retryAtMs: number;
  held: Queued[];
}

export function createAccessAuditWriter(deps: {
  events: EventStore;
  logger: Logger;
  flushIntervalMs?: number;
  maxBatch?: number;
  /** Beyond this many unwritten entries the oldest are dropped (and logged) to protect memory. */
  maxQueue?: number;
  coalesceWindowMs?: number;
}): AccessAuditWriter {
  const interval = deps.flushIntervalMs ?? LIMITS.accessAudit.flushIntervalMs;
  const maxBatch = deps.maxBatch ?? LIMITS.accessAudit.maxBatch;
  const maxQueue = deps.maxQueue ?? 200_000;
  const { maxAppendBytes, maxAttempts, retryMaxDelayMs } = LIMITS.accessAudit;
  const coalesceWindowMs = deps.coalesceWindowMs ?? LIMITS.accessAudit.coalesceWindowMs;
  /** Reads still coalescing, by coalesceKey: written when their window closes (or at a flush). */
  const windows = new Map<string, { queued: Queued; closesAtMs: number }>();
  let queue: Queued[] = [];
  /** Streams backing off after a failed append, by name: one tenant's failing stream never delays the others. */
  const backoffs = new Map<string, Backoff>();
  let timer: NodeJS.Timeout | null = null;
  let timerDueMs = Infinity;
  let closed = false;

  /** A drain of what is due after `delay`, unless one is already set to run sooner. */
  const schedule = (delay: number) => {
    if (closed) return;
    const dueMs = Date.now() + delay;
    if (timer) {
      if (timerDueMs <= dueMs) return;
      clearTimeout(timer);
    }
    timerDueMs = dueMs;
    timer = setTimeout(() => {
      timer = null;
      timerDueMs = Infinity;
      void run('due');
    }, delay);
    timer.unref();
  };

  const streamOf = (q: Queued): string => accessLogStream(q.entry.tenantId, q.entry.at);

  /** Appends entries stream by stream, in chunks under the byte limit; after a failed chunk the rest of its stream waits. */
  async function writeBatch(batch: Queued[]): Promise<Map<string, { failed: Queued[]; untried: Queued[]; error: unknown }>> {
    const byStream = new Map<string, { queued: Queued; event: NewEvent }[]>();
    for (const queued of batch) {
      const stream = streamOf(queued);
      const list = byStream.get(stream) ?? [];
      list.push({ queued, event: eventOf(queued) });
      byStream.set(stream, list);
    }
    const failures = new Map<string, { failed: Queued[]; untried: Queued[]; error: unknown }>();
    for (const [stream, items] of byStream) {
      const chunks = chunksBySize(items, maxAppendBytes);
      for (const [index, chunk] of chunks.entries()) {
        try {
          await deps.events.appendToStream(
            stream,
            chunk.map((c) => c.event),
            { expectedRevision: 'any' },
          );
        } catch (error) {
          const untried = chunks.slice(index + 1).flatMap((c) => c.map((item) => item.queued));
          failures.set(stream, { failed: chunk.map((c) => c.queued), untried, error });
          break;
        }
      }
    }
    return failures;
  }

  const contentOf = (entries: Queued[]) => entries.map((q) => ({ id: q.id, count: q.count, lastAt: q.lastAt, ...q.entry }));

  /** Entries that failed too often: logged with their content (never dropped silently), then no longer retried. */
  function setAside(entries: Queued[], error: unknown): void {
    deps.logger.error('access audit entries set aside after repeated append failures', {
      count: entries.length,
      entries: contentOf(entries),
      error,
    });
  }

  /** A failed append: its entries count an attempt and wait for the stream's next retry, or are set aside. */
  function backOff(stream: string, failure: { failed: Queued[]; untried: Queued[]; error: unknown }): void {
    const backoff = backoffs.get(stream) ?? { failures: 0, retryAtMs: 0, held: [] };
    backoff.failures++;
    const delay = Math.min(interval * 2 ** backoff.failures, retryMaxDelayMs);
    backoff.retryAtMs = Date.now() + delay;
    for (const q of failure.failed) q.attempts++;
    const exhausted = failure.failed.filter((q) => q.attempts >= maxAttempts);
    if (exhausted.length > 0) setAside(exhausted, failure.error);
    backoff.held.push(...failure.failed.filter((q) => q.attempts < maxAttempts), ...failure.untried);
    if (backoff.held.length > 0) backoffs.set(stream, backoff);
    else backoffs.delete(stream);
    deps.logger.error('access audit append failed; will retry', {
      stream,
      failed: failure.failed.length,
      retryInMs: delay,
      error: failure.error,
    });
  }

  /** Moves coalescing windows into the queue: every one, or those whose time is up. */
  function closeWindows(every: boolean): void {
    const nowMs = Date.now();
    for (const [key, open] of windows) {
      if (!every && open.closesAtMs > nowMs) continue;
      windows.delete(key);
      queue.push(open.queued);
    }
  }

  /** Puts the held entries of streams whose retry time came (or of every stream) back at the head of the queue. */
  function release(every: boolean): void {
    const nowMs = Date.now();
    const released: Queued[] = [];
    for (const backoff of backoffs.values()) {
      if (!every && backoff.retryAtMs > nowMs) continue;
      released.push(...backoff.held.splice(0));
      backoff.retryAtMs = 0;
    }
    queue = [...released, ...queue];
  }

  /**
   * Writes full batches, and with `all`/`due` everything queued before the call; what arrives meanwhile waits for
   * a full batch or the interval timer (chasing each new arrival would commit a few entries at a time).
   */
  async function drain(mode: DrainMode): Promise<void> {
    if (mode !== 'full-batches') {
      closeWindows(mode === 'all');
      release(mode === 'all');
    }
    let owed = mode === 'full-batches' ? 0 : queue.length;
    while (queue.length >= maxBatch || owed > 0) {
      const batch = queue.slice(0, maxBatch);
      owed -= batch.length;
      const ready: Queued[] = [];
      for (const q of batch) {
        const backoff = backoffs.get(streamOf(q));
        if (backoff && backoff.retryAtMs > Date.now()) backoff.held.push(q);
        else ready.push(q);
      }
      const failures = await writeBatch(ready);
      const done = new Set(batch);
      queue = queue.filter((q) => !done.has(q)); // the overflow guard may have dropped some of them meanwhile
      for (const stream of new Set(ready.map(streamOf))) {
        const failure = failures.get(stream);
        if (failure) backOff(stream, failure);
        else if (backoffs.get(stream)?.held.length === 0) backoffs.delete(stream);
      }
    }
    if (queue.length > 0 || windows.size > 0) schedule(interval);
    for (const backoff of backoffs.values()) schedule(Math.max(0, backoff.retryAtMs - Date.now()));
  }

  // Drains run one after another; a flush during a drain waits for it and then drains what arrived since.
  let chain: Promise<void> = Promise.resolve();
  const run = (mode: DrainMode): Promise<void> => (chain = chain.then(() => drain(mode)));
  const flush = (): Promise<void> => run('all');
  // One full-batch drain queued at a time: under load a drain per request would commit a few entries each.
  let batchDrainQueued = false;
  const drainFullBatches = () => {
    if (batchDrainQueued) return;
    batchDrainQueued = true;
    void run('full-batches').finally(() => (batchDrainQueued = false));
  };
  const heldCount = () => [...backoffs.values()].reduce((sum, b) => sum + b.held.length, 0);

  return {
    record(entry) {
      if (closed) {
        deps.logger.warn('access audit entry after close: dropped', { correlationId: entry.correlationId });
        return;
      }
      const userAgent = entry.userAgent?.slice(0, LIMITS.accessAudit.userAgentMaxChars) ?? null;
      const read = { ...entry, userAgent };
      const key = coalesceKey(read);
      const open = windows.get(key);
      if (open && Date.parse(read.at) - Date.parse(open.queued.entry.at) < coalesceWindowMs) {
        open.queued.count++;
        open.queued.lastAt = read.at;
        return;
      }
      if (open) {
        windows.delete(key);
        queue.push(open.queued);
      }
      windows.set(key, {
        queued: { id: newId(), entry: read, attempts: 0, count: 1, lastAt: read.at },
        closesAtMs: Date.now() + coalesceWindowMs,
      });
      if (queue.length > maxQueue) {
        const dropped = queue.splice(0, queue.length - maxQueue);
        deps.logger.error('access audit queue full: oldest entries dropped', { dropped: dropped.length, entries: contentOf(dropped) });
      }
      if (queue.length >= maxBatch) drainFullBatches();
      else schedule(interval);
    },
    flush,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      for (let attempt = 0; attempt < 3 && queue.length + heldCount() + windows.size > 0; attempt++) await flush();
      const left = [...queue, ...[...backoffs.values()].flatMap((b) => b.held.splice(0))];
      if (left.length > 0) setAside(left, new Error('not written at close'));
    },
    get pending() {
      return queue.length + heldCount() + windows.size;
    },
  };
}
