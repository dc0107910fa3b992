// Rebuild rate of the patients projection (the real one) over the benchmark event log, through the real projection
// runner: into the SQLite read store (the default) in a fresh file under the scratch directory, and into the embedded
// read store. Each: the start-up catch-up (fresh collections), then an explicit rebuild into new ones and the switch.
import fs from 'node:fs';
import path from 'node:path';
import { openSqliteEventStore } from '../src/stores/sqlite/sqliteEventStore.js';
import { createEmbeddedReadStore } from '../src/stores/embedded/embeddedReadStore.js';
import { openSqliteReadStore } from '../src/stores/sqliteRead/sqliteReadStore.js';
import type { ReadStore } from '../src/stores/readStore.js';
import { createProjectionRunner } from '../src/projections/runner/projectionRunner.js';
import { pacientesProjection, PACIENTES_PROJECTION } from '../src/projections/pacientes/pacientesProjection.js';
import { createLogger } from '../src/logger.js';

export interface RebuildFigures {
  readStore: 'embedded' | 'sqlite';
  events: number;
  catchUpSeconds: number;
  catchUpEventsPerSecond: number;
  rebuildSeconds: number;
  rebuildEventsPerSecond: number;
  /** CPU (user + system) of this process per event of the rebuild, in µs: what a shared machine changes least. */
  rebuildCpuMicrosPerEvent: number;
  heapUsedMiB: number;
  rssMiB: number;
}

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

async function rebuildInto(dataDir: string, readStore: RebuildFigures['readStore'], reads: ReadStore): Promise<RebuildFigures> {
  const events = await openSqliteEventStore({ file: path.join(dataDir, 'events.sqlite') });
  await events.integrity; // the background check of the log would share the CPU with the replay
  const runner = createProjectionRunner({ events, reads, logger: createLogger('warn') });
  runner.register(pacientesProjection);
  const head = Number(await events.headPosition());

  // Start on an empty read store = catch-up over the whole log (what every embedded start does).
  let t = process.hrtime.bigint();
  await runner.start();
  const catchUpSeconds = Number(process.hrtime.bigint() - t) / 1e9;

  // Explicit rebuild into a fresh versioned collection set, then switch.
  const cpu = cpuSeconds();
  t = process.hrtime.bigint();
  await runner.rebuild(PACIENTES_PROJECTION);
  const rebuildSeconds = Number(process.hrtime.bigint() - t) / 1e9;
  const rebuildCpu = cpuSeconds() - cpu;
  const { heapUsed, rss } = process.memoryUsage();
  await runner.stop();
  await reads.close();
  await events.close();
  return {
    readStore,
    events: head,
    catchUpSeconds: Number(catchUpSeconds.toFixed(2)),
    catchUpEventsPerSecond: Math.round(head / catchUpSeconds),
    rebuildSeconds: Number(rebuildSeconds.toFixed(2)),
    rebuildEventsPerSecond: Math.round(head / rebuildSeconds),
    rebuildCpuMicrosPerEvent: Number(((rebuildCpu * 1e6) / head).toFixed(1)),
    heapUsedMiB: Math.round(heapUsed / 2 ** 20),
    rssMiB: Math.round(rss / 2 ** 20),
  };
}

/** SQLite first: the in-memory store's documents leave the process's RSS high after it is closed. */
export async function benchRebuild(dataDir: string, scratch: string): Promise<RebuildFigures[]> {
  const file = path.join(scratch, 'rebuild-read-models.sqlite');
  const remove = () => ['', '-wal', '-shm'].forEach((suffix) => fs.rmSync(file + suffix, { force: true }));
  remove();
  let sqlite: RebuildFigures;
  try {
    sqlite = await rebuildInto(dataDir, 'sqlite', await openSqliteReadStore({ file }));
  } finally {
    remove();
  }
  return [sqlite, await rebuildInto(dataDir, 'embedded', createEmbeddedReadStore())];
}
