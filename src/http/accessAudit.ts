// Who read which clinical record, when and from where (HIPAA 164.312(b)). Reads must never wait for or
// fail because of the audit: repeated reads of a record by the same actor within a short window are folded into
// one entry (count, first and last time), and entries are appended in batches as RecordAccessed events to a
// per-tenant daily stream, split by bytes, retried per stream with backoff, and flushed on close.
import type { EventStore, NewEvent } from '../stores/eventStore.js';
import { streamName } from '../stores/eventStore.js';
import { newId } from '../commands/eventIds.js';
import { LIMITS } from '../limits.js';
import type { Logger } from '../logger.js';

export const RECORD_ACCESSED = 'RecordAccessed';

export interface AccessRecord {
  recordType: string;
  recordId: string | null;
  /** Route path template, e.g. /pacientes/{id}. */
  route: string;
  method: string;
  status: number;
  actor: string;
  sessionId: string | null;
  tenantId: string;
  ip: string | null;
  userAgent: string | null;
  correlationId: string;
  /** ISO-8601 UTC. */
  at: string;
}

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

/** `<tenant>.accessLog-<yyyymmdd>`: one stream per tenant and UTC day. */
export const accessLogStream = (tenantId: string, at: string): string =>
  streamName(tenantId, 'accessLog', at.slice(0, 10).replace(/-/g, ''));

interface Queued {
  id: string; // fixed at enqueue, so a retried append of the same entry is acknowledged, not duplicated
  entry: AccessRecord;
  attempts: number;
  /** Reads folded into this entry, and the time of the last one. */
  count: number;
  lastAt: string;
}

/** What makes two reads the same access: who, from where, which record, through which route, with which outcome. */
const coalesceKey = (e: AccessRecord): string =>
  [e.tenantId, e.actor, e.sessionId, e.ip, e.userAgent, e.recordType, e.recordId, e.route, e.method, e.status].join('\u0000');

function eventOf({ id, entry, count, lastAt }: Queued): NewEvent {
  return {
    id,
    type: RECORD_ACCESSED,
    data: { ...entry, count, lastAt },
    metadata: {
      tenantId: entry.tenantId,
      actor: entry.actor,
      sessionId: entry.sessionId,
      correlationId: entry.correlationId,
      causationId: null,
      commandId: id,
      occurredAt: entry.at,
      ip: entry.ip,
      userAgent: entry.userAgent,
      reason: null,
    },
  };
}

/** Consecutive runs of a stream's events, each under the byte limit of one append. */
function chunksBySize(items: { queued: Queued; event: NewEvent }[], maxBytes: number): { queued: Queued; event: NewEvent }[][] {
  const chunks: { queued: Queued; event: NewEvent }[][] = [];
  let current: { queued: Queued; event: NewEvent }[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item.event)) + 1;
    if (current.length > 0 && bytes + size > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

type DrainMode = 'all' | 'due' | 'full-batches';

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
  const maxAppendBytes = LIMITS.accessAudit.maxAppendBytes;
  const coalesceWindowMs = deps.coalesceWindowMs ?? LIMITS.accessAudit.coalesceWindowMs;
  /** Reads still coalescing, by coalesceKey: written when their window closes (or at a flush). */
  const windows = new Map<string, { queued: Queued; closesAtMs: number }>();
  const maxAttempts = LIMITS.accessAudit.maxAttempts;
  let queue: Queued[] = [];
  /** Entries whose append failed, tried again by the next full drain (the backoff timer or a flush). */
  const retrying: Queued[] = [];
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let failures = 0;

  const schedule = (delay: number) => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      void run('due');
    }, delay);
    timer.unref();
  };

  /** Appends a batch stream by stream, in chunks under the byte limit; answers the entries that were not written. */
  async function writeBatch(batch: Queued[]): Promise<{ failed: Queued[]; error: unknown }> {
    const byStream = new Map<string, { queued: Queued; event: NewEvent }[]>();
    for (const queued of batch) {
      const stream = accessLogStream(queued.entry.tenantId, queued.entry.at);
      const list = byStream.get(stream) ?? [];
      list.push({ queued, event: eventOf(queued) });
      byStream.set(stream, list);
    }
    const failed: Queued[] = [];
    let error: unknown = null;
    // One stream's failure (a tenant's poison entry, a refused append) never holds back the others.
    for (const [stream, items] of byStream) {
      for (const chunk of chunksBySize(items, maxAppendBytes)) {
        try {
          await deps.events.appendToStream(
            stream,
            chunk.map((c) => c.event),
            { expectedRevision: 'any' },
          );
        } catch (err) {
          error = err;
          failed.push(...chunk.map((c) => c.queued));
        }
      }
    }
    return { failed, error };
  }

  /** Entries that failed too often: logged with their content (never dropped silently), then no longer retried. */
  function setAside(entries: Queued[], error: unknown): void {
    deps.logger.error('access audit entries set aside after repeated append failures', {
      count: entries.length,
      entries: entries.map((q) => ({ id: q.id, ...q.entry })),
      error,
    });
  }

  /**
   * Writes full batches, and with `all` everything queued before the call; what arrives meanwhile waits for
   * a full batch or the interval timer (chasing each new arrival would commit a few entries at a time).
   */
  /** Moves coalescing windows into the queue: every one, or those whose time is up. */
  function closeWindows(every: boolean): void {
    const nowMs = Date.now();
    for (const [key, open] of windows) {
      if (!every && open.closesAtMs > nowMs) continue;
      windows.delete(key);
      queue.push(open.queued);
    }
  }

  async function drain(mode: DrainMode): Promise<void> {
    if (mode !== 'full-batches') closeWindows(mode === 'all');
    const all = mode !== 'full-batches';
    if (all && retrying.length > 0) queue = [...retrying.splice(0), ...queue];
    let owed = all ? queue.length : 0;
    let failedNow = false;
    while (queue.length >= maxBatch || owed > 0) {
      const batch = queue.slice(0, maxBatch);
      const { failed, error } = await writeBatch(batch);
      const done = new Set(batch);
      queue = queue.filter((q) => !done.has(q)); // the overflow guard may have dropped some of them meanwhile
      owed -= batch.length;
      if (failed.length === 0) continue;
      failedNow = true;
      for (const q of failed) q.attempts++;
      const exhausted = failed.filter((q) => q.attempts >= maxAttempts);
      if (exhausted.length > 0) setAside(exhausted, error);
      retrying.push(...failed.filter((q) => q.attempts < maxAttempts));
      deps.logger.error('access audit append failed; will retry', { failed: failed.length, retrying: retrying.length, error });
    }
    failures = failedNow ? failures + 1 : 0;
    if (retrying.length > 0) schedule(Math.min(interval * 2 ** failures, 30_000));
    else if (queue.length > 0 || windows.size > 0) schedule(interval);
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
        deps.logger.error('access audit queue full: oldest entries dropped', { dropped: dropped.length });
      }
      // While failing, only the backoff timer retries.
      if (queue.length >= maxBatch && failures === 0) drainFullBatches();
      else schedule(interval);
    },
    flush,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      for (let attempt = 0; attempt < 3 && queue.length + retrying.length + windows.size > 0; attempt++) await flush();
      const left = [...queue, ...retrying];
      if (left.length > 0) setAside(left, new Error('not written at close'));
    },
    get pending() {
      return queue.length + retrying.length + windows.size;
    },
  };
}
