// The widgets section's data directory, built once under bench/tmp and reused (keyed by version, patients and the day
// it ends on): the real service bootstraps it and the reference records go through its routes (widgetSeed.ts); then N
// patients of the bench company (dataset.ts's patient histories, some hospitalized or transferred lately) and a year
// of their sessions, three a week (widgetSessions.ts), are written with the store's own statements (scaleLog.ts's
// bulkWriter), one transaction per day, in the order of the days, as a floor appends them.
import fs from 'node:fs';
import path from 'node:path';
import { decidePatient, patientDecider } from '../src/commands/pacientes/patientDecider.js';
import type { CommandEnvelope, DecidedEvent } from '../src/commands/decider.js';
import { eventId } from '../src/commands/eventIds.js';
import { openEventDatabase } from '../src/stores/sqlite/sqliteSchema.js';
import { READ_STORE_FILE } from '../src/stores/openReadStore.js';
import { benchPatientId, datasetRandom, patientStreams, type DatasetStream } from './dataset.js';
import { bulkWriter, EVENTS_FILE } from './scaleLog.js';
import { startService } from './processes.js';
import type { BenchCredentials } from './http.js';
import { seedReferences, type WidgetSeed } from './widgetSeed.js';
import { sessionStreamFor, type PatientTrack } from './widgetSessions.js';

/** Bump when the log's content changes, so an older cache is rebuilt instead of reused. */
export const WIDGET_LOG_VERSION = 2;
const DAYS = 365;
const GENERATION_CACHE_KIB = 256 * 1024;

export interface WidgetLog {
  dir: string;
  patients: number;
  sessions: number;
  events: number;
  generationSeconds: number;
  seed: WidgetSeed;
}

const dayPlus = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** 0 Sunday ... 6 Saturday. */
const weekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();

/** Patients on the floor lately change status: one in 50 hospitalized 3 days ago, one in 97 transferred 20 days ago. */
function patientWithStatus(
  tenantId: string,
  n: number,
  today: string,
  rand: () => number,
): { stream: DatasetStream; lastDay: string | null } {
  const stream = patientStreams(tenantId, n, rand)[0]!;
  const change = n % 50 === 7 ? { status: 'hospitalized', days: 3 } : n % 97 === 5 ? { status: 'transferred', days: 20 } : null;
  if (!change) return { stream, lastDay: null };
  let state = patientDecider.initialState;
  for (const e of stream.events) state = patientDecider.evolve(state, e as unknown as DecidedEvent as never);
  const date = dayPlus(today, -change.days);
  const at = `${date}T15:00:00.000Z`;
  const cmd = {
    type: 'ChangePatientStatus',
    data: { status: change.status, reason: 'bench' },
    at,
    actor: 'bench-nurse',
    aggregateId: benchPatientId(n),
    tenantId,
  };
  for (const e of decidePatient(cmd as CommandEnvelope<string, unknown> as never, state) as DecidedEvent[]) {
    const last = stream.events[stream.events.length - 1]!;
    stream.events.push({
      id: eventId(tenantId, stream.stream, stream.events.length),
      type: e.type,
      data: e.data,
      metadata: { ...last.metadata, occurredAt: at },
    });
  }
  return { stream, lastDay: dayPlus(date, -1) };
}

export async function ensureWidgetLog(
  root: string,
  patients: number,
  service: { env: Record<string, string>; port: number; creds: BenchCredentials },
  log: (s: string) => void,
): Promise<WidgetLog> {
  const prefix = `widgets-v${WIDGET_LOG_VERSION}-${patients}-`;
  // Reused on the day it was built only: the board and the month's widgets read the company's today.
  const dir = path.join(root, `${prefix}${new Date().toISOString().slice(0, 10)}`);
  const done = path.join(dir, 'COMPLETE');
  if (fs.existsSync(done)) return { dir, ...(JSON.parse(fs.readFileSync(done, 'utf8')) as Omit<WidgetLog, 'dir'>) };
  for (const name of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    if (name.startsWith(prefix)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
  fs.mkdirSync(dir, { recursive: true });

  log(`  widgets log: bootstrapping ${dir} and creating the reference records through the real service`);
  const started = Date.now();
  const first = await startService({ ...service.env, DATA_DIR: dir }, service.port);
  let seed: WidgetSeed;
  try {
    seed = await seedReferences(first.url, service.creds);
  } finally {
    await first.stop();
  }
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dir, READ_STORE_FILE + suffix), { force: true });

  const { db } = openEventDatabase(path.join(dir, EVENTS_FILE));
  try {
    db.pragma(`cache_size = -${GENERATION_CACHE_KIB}`);
    const write = bulkWriter(db);
    const rand = datasetRandom();
    const tracks: PatientTrack[] = [];
    let events = 0;
    for (let n = 0; n < patients; n += 1000) {
      const streams: DatasetStream[] = [];
      for (let k = n; k < Math.min(patients, n + 1000); k++) {
        const { stream, lastDay } = patientWithStatus(seed.companyId, k, seed.today, rand);
        streams.push(stream);
        tracks.push({
          n: k,
          patientId: benchPatientId(k),
          dryWeightKg: 55 + (k % 40),
          lastDay,
          previousNetPostWeightKg: null,
          previousEndedAt: null,
        });
      }
      events += write.immediate(streams);
    }
    // Positions only order the folds that judge a session; the store assigns the real ones.
    const position = { next: 1n };
    let sessions = 0;
    for (let d = DAYS - 1; d >= 0; d--) {
      const date = dayPlus(seed.today, -d);
      const wd = weekday(date);
      if (wd === 0) continue;
      const streams: DatasetStream[] = [];
      for (const track of tracks) {
        // Mon-Wed-Fri for even patients, Tue-Thu-Sat for odd ones.
        if (wd % 2 !== (track.n % 2 === 0 ? 1 : 0)) continue;
        if (track.lastDay !== null && date > track.lastDay) continue;
        streams.push(sessionStreamFor(seed, track, date, rand, position));
      }
      sessions += streams.length;
      events += write.immediate(streams);
      if (d % 30 === 0) {
        const seconds = (Date.now() - started) / 1000;
        log(`  widgets log: ${date}: ${sessions} sessions, ${events} events (${Math.round(events / seconds)} events/s)`);
      }
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const figures = { patients, sessions, events, generationSeconds: Math.round((Date.now() - started) / 1000), seed };
    fs.writeFileSync(path.join(dir, 'COMPLETE'), JSON.stringify(figures));
    log(`  widgets log: ${patients} patients, ${sessions} sessions, ${events} events in ${figures.generationSeconds} s`);
    return { dir, ...figures };
  } finally {
    db.close();
  }
}
