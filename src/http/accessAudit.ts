// Who read which clinical record, when and from where (HIPAA 164.312(b)). Reads must never wait for or
// fail because of the audit: entries are queued and appended in batches as RecordAccessed events to a
// per-tenant daily stream, retried on failure, and flushed on close.
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
}

export function createAccessAuditWriter(deps: {
  events: EventStore;
  logger: Logger;
  flushIntervalMs?: number;
  maxBatch?: number;
  /** Beyond this many unwritten entries the oldest are dropped (and logged) to protect memory. */
  maxQueue?: number;
}): AccessAuditWriter {
  const interval = deps.flushIntervalMs ?? LIMITS.accessAudit.flushIntervalMs;
  const maxBatch = deps.maxBatch ?? LIMITS.accessAudit.maxBatch;
  const maxQueue = deps.maxQueue ?? 200_000;
  let queue: Queued[] = [];
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let failures = 0;

  const schedule = (delay: number) => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, delay);
    timer.unref();
  };

  async function writeBatch(batch: Queued[]): Promise<void> {
    const byStream = new Map<string, NewEvent[]>();
    for (const { id, entry } of batch) {
      const stream = accessLogStream(entry.tenantId, entry.at);
      const event: NewEvent = {
        id,
        type: RECORD_ACCESSED,
        data: { ...entry },
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
      const list = byStream.get(stream);
      if (list) list.push(event);
      else byStream.set(stream, [event]);
    }
    for (const [stream, events] of byStream) await deps.events.appendToStream(stream, events, { expectedRevision: 'any' });
  }

  /**
   * Writes full batches, and with `all` everything queued before the call; what arrives meanwhile waits for
   * a full batch or the interval timer (chasing each new arrival would commit a few entries at a time).
   */
  async function drain(all: boolean): Promise<void> {
    let owed = all ? queue.length : 0;
    while (queue.length >= maxBatch || owed > 0) {
      const batch = queue.slice(0, maxBatch);
      try {
        await writeBatch(batch);
        // Past the written entries (the overflow guard may have dropped some of them meanwhile).
        const last = queue.indexOf(batch[batch.length - 1]!);
        if (last >= 0) queue = queue.slice(last + 1);
        owed -= batch.length;
        failures = 0;
      } catch (err) {
        failures++;
        deps.logger.error('access audit append failed; will retry', { pending: queue.length, failures, error: err });
        schedule(Math.min(interval * 2 ** failures, 30_000));
        return;
      }
    }
    if (queue.length > 0) schedule(interval);
  }

  // Drains run one after another; a flush during a drain waits for it and then drains what arrived since.
  let chain: Promise<void> = Promise.resolve();
  const run = (all: boolean): Promise<void> => (chain = chain.then(() => drain(all)));
  const flush = (): Promise<void> => run(true);
  // One full-batch drain queued at a time: under load a drain per request would commit a few entries each.
  let batchDrainQueued = false;
  const drainFullBatches = () => {
    if (batchDrainQueued) return;
    batchDrainQueued = true;
    void run(false).finally(() => (batchDrainQueued = false));
  };

  return {
    record(entry) {
      if (closed) {
        deps.logger.warn('access audit entry after close: dropped', { correlationId: entry.correlationId });
        return;
      }
      queue.push({ id: newId(), entry });
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
      for (let attempt = 0; attempt < 3 && queue.length > 0; attempt++) await flush();
      if (queue.length > 0) deps.logger.error('access audit entries not written at close', { pending: queue.length });
    },
    get pending() {
      return queue.length;
    },
  };
}
