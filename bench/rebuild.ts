// Rebuild rate of the patients projection (the real one) over the benchmark event log, into the embedded
// read store, through the real projection runner.
import path from 'node:path';
import { openSqliteEventStore } from '../src/stores/sqlite/sqliteEventStore.js';
import { createEmbeddedReadStore } from '../src/stores/embedded/embeddedReadStore.js';
import { createProjectionRunner } from '../src/projections/runner/projectionRunner.js';
import { pacientesProjection, PACIENTES_PROJECTION } from '../src/projections/pacientes/pacientesProjection.js';
import { createLogger } from '../src/logger.js';

export interface RebuildFigures {
  events: number;
  catchUpSeconds: number;
  catchUpEventsPerSecond: number;
  rebuildSeconds: number;
  rebuildEventsPerSecond: number;
  heapUsedMiB: number;
}

export async function benchRebuild(dataDir: string): Promise<RebuildFigures> {
  const events = await openSqliteEventStore({ file: path.join(dataDir, 'events.sqlite') });
  const reads = createEmbeddedReadStore();
  const runner = createProjectionRunner({ events, reads, logger: createLogger('warn') });
  runner.register(pacientesProjection);
  const head = Number(await events.headPosition());

  // Start on an empty read store = catch-up over the whole log (what every embedded start does).
  let t = process.hrtime.bigint();
  await runner.start();
  const catchUpSeconds = Number(process.hrtime.bigint() - t) / 1e9;

  // Explicit rebuild into a fresh versioned collection set, then switch.
  t = process.hrtime.bigint();
  await runner.rebuild(PACIENTES_PROJECTION);
  const rebuildSeconds = Number(process.hrtime.bigint() - t) / 1e9;
  const heapUsedMiB = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  await runner.stop();
  await reads.close();
  await events.close();
  return {
    events: head,
    catchUpSeconds: Number(catchUpSeconds.toFixed(2)),
    catchUpEventsPerSecond: Math.round(head / catchUpSeconds),
    rebuildSeconds: Number(rebuildSeconds.toFixed(2)),
    rebuildEventsPerSecond: Math.round(head / rebuildSeconds),
    heapUsedMiB,
  };
}
