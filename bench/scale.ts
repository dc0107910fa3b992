// Flat start-up and memory (issue 12, part 3) over a large event log: the real service with its default SQLite
// read store, first started without a read-model file (the full catch-up) and then restarted on the same data
// directory (projections resume from their checkpoints); patient queries against it next to the in-memory read
// store over 1M events (the former default); and an explicit rebuild of the Pacientes projection into SQLite.
import fs from 'node:fs';
import path from 'node:path';
import { openSqliteEventStore } from '../src/stores/sqlite/sqliteEventStore.js';
import { openSqliteReadStore } from '../src/stores/sqliteRead/sqliteReadStore.js';
import { READ_STORE_FILE } from '../src/stores/openReadStore.js';
import { createProjectionRunner } from '../src/projections/runner/projectionRunner.js';
import { pacientesProjection, PACIENTES_PROJECTION } from '../src/projections/pacientes/pacientesProjection.js';
import { createLogger } from '../src/logger.js';
import { activityOf, memoryOf, startService, type Started } from './processes.js';
import { EVENTS_FILE, ensureScaleLog, type ScaleLog } from './scaleLog.js';
import { benchQueries, type QueryFigures } from './scaleQueries.js';
import type { BenchCredentials } from './http.js';
import type { Target } from './targets.js';

export const TARGETS = { restartSeconds: 2, restartRssMiB: 512, rebuildEventsPerSecond: 150_000, queryRatio: 1 };
/** The log of the in-memory comparison: today's default read store over 1M events. */
const COMPARISON_EVENTS = 1_000_000;
/** A process is settled (its background integrity check of the log done) when it uses under 5% of a core ... */
const SETTLED_CPU_SHARE = 0.05;
/** ... and reads under 4 MiB a second (an I/O-bound check of a large log uses little CPU). */
const SETTLED_READ_BYTES = 4 * 2 ** 20;
const SETTLE_LIMIT_MS = 30 * 60_000;
/** A first start over 10M events catches up for many minutes. */
const READY_LIMIT_MS = 3 * 60 * 60_000;

export interface ScaleOptions {
  scratch: string;
  events: number;
  ports: { scale: number; memory: number };
  env: Record<string, string>;
  creds: BenchCredentials;
  loadSeconds: number;
  log: (s: string) => void;
}

export type { Target };

export interface ScaleFigures {
  events: number;
  patients: number;
  firstStart: { readySeconds: number; eventsPerSecond: number; peakRssMiB: number };
  restart: { readySeconds: number; rssMiB: number; peakRssMiB: number; settledSeconds: number | null; settledRssMiB: number };
  queries: { sqlite: QueryFigures; memory1M: QueryFigures & { events: number }; ratios: Record<string, number> };
  rebuild: { events: number; seconds: number; eventsPerSecond: number };
  targets: Target[];
}

/**
 * Waits until the process is idle: its background quick_check of an existing log has ended (until then its
 * appends, and so sign-in, wait). Ms waited, or null when it was still busy at the limit.
 */
export async function settle(service: Started): Promise<number | null> {
  const pid = service.child.pid!;
  const started = Date.now();
  let before = activityOf(pid);
  while (Date.now() - started < SETTLE_LIMIT_MS) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = activityOf(pid);
    if (now.cpuSeconds - before.cpuSeconds < SETTLED_CPU_SHARE && now.readChars - before.readChars < SETTLED_READ_BYTES)
      return Date.now() - started;
    before = now;
  }
  return null;
}

const seconds = (ms: number) => Number((ms / 1000).toFixed(2));
const ratio = (a: number, b: number) => Number((a / b).toFixed(2));

function removeReadModels(dir: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dir, READ_STORE_FILE + suffix), { force: true });
}

async function firstStartAndRestart(o: ScaleOptions, log: ScaleLog) {
  removeReadModels(log.dir);
  o.log('  first start (no read-model file: every projection catches up over the whole log) ...');
  const first = await startService({ ...o.env, DATA_DIR: log.dir }, o.ports.scale, [], READY_LIMIT_MS);
  const firstMemory = memoryOf(first.child.pid!);
  await first.stop();
  o.log(`  first start ready in ${seconds(first.readyMs)} s; restarting ...`);

  const again = await startService({ ...o.env, DATA_DIR: log.dir }, o.ports.scale, [], READY_LIMIT_MS);
  const atReady = memoryOf(again.child.pid!);
  try {
    const settledMs = await settle(again);
    const settledRssMiB = memoryOf(again.child.pid!).rssMiB;
    o.log(
      `  restart ready in ${seconds(again.readyMs)} s, settled ${settledMs === null ? 'not' : seconds(settledMs)} s later; queries ...`,
    );
    const queries = await benchQueries(again.url, o.creds, log.patients, o.loadSeconds, 'SQLite read store', again.child.pid!);
    return {
      firstStart: {
        readySeconds: seconds(first.readyMs),
        eventsPerSecond: Math.round(log.events / (first.readyMs / 1000)),
        peakRssMiB: firstMemory.peakRssMiB,
      },
      restart: {
        readySeconds: seconds(again.readyMs),
        ...atReady,
        settledSeconds: settledMs === null ? null : seconds(settledMs),
        settledRssMiB,
      },
      queries,
    };
  } finally {
    await again.stop();
  }
}

async function memoryComparison(o: ScaleOptions): Promise<QueryFigures & { events: number }> {
  const log = await ensureScaleLog(o.scratch, COMPARISON_EVENTS, { env: o.env, port: o.ports.memory }, o.log);
  o.log('  the in-memory read store over 1M events (READ_STORE=memory) ...');
  const service = await startService({ ...o.env, DATA_DIR: log.dir, READ_STORE: 'memory' }, o.ports.memory, [], READY_LIMIT_MS);
  try {
    await settle(service);
    return {
      events: log.events,
      ...(await benchQueries(service.url, o.creds, log.patients, o.loadSeconds, 'in-memory, 1M', service.child.pid!)),
    };
  } finally {
    await service.stop();
  }
}

/** runner.rebuild of Pacientes in the service's read-model file (left by the restart), once the log is checked. */
async function rebuildIntoSqlite(o: ScaleOptions, log: ScaleLog) {
  const events = await openSqliteEventStore({ file: path.join(log.dir, EVENTS_FILE) });
  const reads = await openSqliteReadStore({ file: path.join(log.dir, READ_STORE_FILE) });
  const runner = createProjectionRunner({ events, reads, logger: createLogger('warn') });
  runner.register(pacientesProjection);
  try {
    await events.integrity;
    await runner.start();
    const head = Number(await events.headPosition());
    o.log(`  rebuilding ${PACIENTES_PROJECTION} over ${head} events into SQLite ...`);
    let reported = 0;
    const t = process.hrtime.bigint();
    await runner.rebuild(PACIENTES_PROJECTION, (p) => {
      if (p.done - reported < 2_000_000) return;
      reported = p.done;
      o.log(`    ${p.done} / ${p.total} (${p.ratePerSecond} events/s)`);
    });
    const secs = Number(process.hrtime.bigint() - t) / 1e9;
    return { events: head, seconds: Number(secs.toFixed(2)), eventsPerSecond: Math.round(head / secs) };
  } finally {
    await runner.stop();
    await reads.close();
    await events.close();
  }
}

function targetsOf(f: Omit<ScaleFigures, 'targets'>): Target[] {
  const row = (figure: string, value: number, target: string, met: boolean): Target => ({ figure, value, target, met });
  return [
    row('restart: ready (s)', f.restart.readySeconds, `<= ${TARGETS.restartSeconds}`, f.restart.readySeconds <= TARGETS.restartSeconds),
    row('restart: RSS after ready (MiB)', f.restart.rssMiB, `<= ${TARGETS.restartRssMiB}`, f.restart.rssMiB <= TARGETS.restartRssMiB),
    row('restart: peak RSS (MiB)', f.restart.peakRssMiB, `<= ${TARGETS.restartRssMiB}`, f.restart.peakRssMiB <= TARGETS.restartRssMiB),
    ...Object.entries(f.queries.ratios).map(([name, value]) => row(`query ${name} (SQLite/in-memory 1M)`, value, '<= 1', value <= 1)),
    row(
      'rebuild (events/s)',
      f.rebuild.eventsPerSecond,
      `>= ${TARGETS.rebuildEventsPerSecond}`,
      f.rebuild.eventsPerSecond >= TARGETS.rebuildEventsPerSecond,
    ),
  ];
}

export async function benchScale(o: ScaleOptions): Promise<ScaleFigures> {
  const log = await ensureScaleLog(o.scratch, o.events, { env: o.env, port: o.ports.scale }, o.log);
  const { firstStart, restart, queries: sqlite } = await firstStartAndRestart(o, log);
  const memory1M = await memoryComparison(o);
  const rebuild = await rebuildIntoSqlite(o, log);
  // ~37 GB at 10M events, never reused (the next run's first start starts without them): the later sections need the disk.
  removeReadModels(log.dir);
  const ratios = {
    firstPageP50: ratio(sqlite.firstPage.p50Ms, memory1M.firstPage.p50Ms),
    deepPageP50: ratio(sqlite.deepPage.p50Ms, memory1M.deepPage.p50Ms),
    byIdP50: ratio(sqlite.byId.p50Ms, memory1M.byId.p50Ms),
    // Under load, the inverse of requests/s: every ratio is SQLite's cost over the in-memory store's (<= 1: as fast).
    firstPageUnderLoad: ratio(memory1M.firstPageLoad.requestsPerSecond, sqlite.firstPageLoad.requestsPerSecond),
    byIdUnderLoad: ratio(memory1M.byIdLoad.requestsPerSecond, sqlite.byIdLoad.requestsPerSecond),
  };
  const figures = { events: log.events, patients: log.patients, firstStart, restart, queries: { sqlite, memory1M, ratios }, rebuild };
  return { ...figures, targets: targetsOf(figures) };
}
