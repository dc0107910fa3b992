// The projector thread (PROJECTIONS_THREAD=auto|worker): every projection (projectorRegistry.ts) on connections of their own (the event
// file read-only, the read-model file read-write), off the request loop; it reports each checkpoint advance and each
// write to the main thread (src/projections/runner/threadedRunner.ts), which answers reads and read-your-writes waits.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { Logger, LogLevel } from '../../logger.js';
import { projectionsFor } from '../projectorRegistry.js';
import { LIMITS } from '../../limits.js';
import { createProjectionRunner } from './projectionRunner.js';
import type { FromProjectorThread, ProjectorThreadData, ToProjectorThread } from './threadMessages.js';
import type { SlotView } from './runnerTypes.js';
import { sqliteEventFile } from '../../stores/openEventStore.js';
import { READ_STORE_FILE } from '../../stores/openReadStore.js';
import { openSqliteEventReader } from '../../stores/sqlite/sqliteEventReader.js';
import { EventStoreUnusableError } from '../../stores/eventStore.js';
import { openFollowingReadStore } from '../../stores/sqliteRead/followingReadStore.js';
import { CheckpointFence } from '../../stores/sqliteRead/checkpointFence.js';

const port = parentPort!;
const data = workerData as ProjectorThreadData;
const post = (message: FromProjectorThread): void => port.postMessage(message);

/** Log lines go to the main thread's logger (its level, its output; tests capture them there). */
const log =
  (level: Exclude<LogLevel, 'silent'>) =>
  (msg: string, fields?: Record<string, unknown>): void => {
    try {
      post({ type: 'log', level, msg, ...(fields ? { fields } : {}) });
    } catch {
      post({
        type: 'log',
        level,
        msg,
        fields: { detail: String(JSON.stringify(fields, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))) },
      });
    }
  };
const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };

async function run(): Promise<void> {
  const events = openSqliteEventReader({ file: sqliteEventFile(data.dataDir), storeId: data.storeId, durable: BigInt(data.durable) });
  const reads = await openFollowingReadStore({
    file: path.join(data.dataDir, READ_STORE_FILE),
    logger,
    cacheMiB: data.readStoreCacheMiB,
    fence: new CheckpointFence(data.fence),
    onDamage: (reason) => post({ type: 'damage', reason }),
  });
  const touched = new Map<string, Set<string> | null>();
  const sent = new Map<string, string>();
  let scheduled = false;
  const P = LIMITS.projections;
  const runner = createProjectionRunner({
    events,
    reads,
    logger,
    lease: { ttlMs: P.leaseTtlSeconds * 1000, renewMs: P.leaseRenewSeconds * 1000, holder: data.holder },
    watch: {
      changed: () => schedule(),
      touched(collection, tenantId) {
        const tenants = touched.get(collection);
        if (tenantId === null) touched.set(collection, null);
        else if (tenants) tenants.add(tenantId);
        else if (tenants === undefined) touched.set(collection, new Set([tenantId]));
        schedule();
      },
    },
  });
  for (const projection of projectionsFor(data.projections)) runner.register(projection);

  const keyOf = (v: SlotView) => `${v.checkpoint}|${Object.values(v.collections).join(',')}|${v.refilling}|${v.parked.length}`;
  /** The views that changed since they were last sent (all of them when `all`). */
  const views = (all = false): SlotView[] =>
    runner.views().filter((view) => {
      const key = keyOf(view);
      if (!all && sent.get(view.name) === key) return false;
      sent.set(view.name, key);
      return true;
    });
  const report = (): void => {
    scheduled = false;
    const writes = [...touched].flatMap(([collection, tenants]): [string, string | null][] =>
      tenants === null ? [[collection, null]] : [...tenants].map((tenant): [string, string] => [collection, tenant]),
    );
    touched.clear();
    const changed = views();
    if (writes.length > 0 || changed.length > 0) post({ type: 'changed', touched: writes, views: changed });
  };
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(report);
  }

  const answer = (id: number, work: () => Promise<Omit<Extract<FromProjectorThread, { type: 'reply' }>, 'type' | 'id'> | void>) =>
    void work().then(
      (reply) => post({ type: 'reply', id, ...(reply ?? {}) }),
      (error: unknown) => post({ type: 'reply', id, error: error instanceof Error ? error.message : String(error) }),
    );

  port.on('message', (message: ToProjectorThread) => {
    switch (message.type) {
      case 'durable':
        return events.durableUpTo(BigInt(message.position));
      case 'status':
        return answer(message.id, async () => ({ status: await runner.status() }));
      case 'rebuild':
        return answer(message.id, async () => {
          await runner.rebuild(message.name, (progress) => post({ type: 'progress', id: message.id, progress }));
          report();
        });
      case 'refill':
        return answer(message.id, async () => {
          await reads.reopen(); // the main thread put a fresh file in place of the damaged one
          await runner.refill(message.first);
          report();
          return { views: views(true) };
        });
      case 'stop':
        return void stop(BigInt(message.head));
    }
  });

  async function stop(head: bigint): Promise<void> {
    events.durableUpTo(head);
    // Everything the service answered is projected before it stops (bounded: a failing projection resumes at the next start).
    const reached = await runner.waitFor(head, { timeoutMs: 10_000 });
    await runner.stop();
    report();
    await events.close();
    await reads.close();
    logger.info('projector thread stopped', { position: head.toString(), caughtUp: reached });
    post({ type: 'stopped' });
    port.close();
  }

  await runner.start();
  post({ type: 'started', views: views(true) });
}

run().catch((error: unknown) => {
  if (error instanceof EventStoreUnusableError) post({ type: 'failed', error: error.message, unusable: true });
  else post({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
