// The floor widgets at scale (issue 25): the widgets-floor projection folds a company's patients and a year of
// sessions through the runner's own batch into the SQLite read store (events/s), then each widget's read is timed.
// Run: npx tsx bench/widgetsFloor.ts [--patients 10000] [--days 365]. Figures are printed, never asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '../src/stores/eventStore.js';
import type { Collection } from '../src/stores/readStore.js';
import { openSqliteReadStore } from '../src/stores/sqliteRead/sqliteReadStore.js';
import { ProjectionBatch } from '../src/projections/runner/projectionBatch.js';
import { ParkedScopes } from '../src/projections/runner/parkedScopes.js';
import { versionSuffix } from '../src/projections/runner/checkpoints.js';
import { eventTypeSet, type ProjectedDoc } from '../src/projections/runner/projection.js';
import { floorProjection } from '../src/projections/widgets/floorProjection.js';
import { floorWidgets } from '../src/queries/widgets/floorWidgets.js';
import type { WidgetReadContext } from '../src/queries/widgets/widgetDefinition.js';
import type { ReadServices } from '../src/readServices.js';

const option = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const PATIENTS = option('patients', 10_000);
const DAYS = option('days', 365);
const LOCATIONS = 10;
const SHIFTS_PER_LOCATION = 4;
const BATCH = 5000;
const TENANT = 'benchfloor';
const TODAY = '2026-11-26';
const DAY_MS = 86_400_000;

const dateBefore = (days: number): string => new Date(Date.parse(`${TODAY}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

/** The log, in order: the patients, then each day's sessions (3 a week per patient) from a year ago to today. */
function* events(): Generator<RecordedEvent> {
  let position = 0n;
  const event = (category: string, id: string, type: string, data: Record<string, unknown>, revision: number): RecordedEvent => ({
    id: `e${++position}`,
    type,
    data,
    metadata: { tenantId: TENANT, actor: 'bench', occurredAt: '2026-11-26T08:00:00.000Z' } as RecordedEvent['metadata'],
    streamName: `${TENANT}.${category}-${id}`,
    revision,
    position,
  });
  for (let p = 0; p < PATIENTS; p++) {
    yield event('patient', `p${p}`, 'PatientRegistered', { status: 'active', isolation: p % 20 === 0 ? ['HCV'] : [] }, 0);
    if (p % 50 === 0) yield event('patient', `p${p}`, 'PatientStatusChanged', { status: 'hospitalized', previousStatus: 'active' }, 1);
  }
  const flow = ['PatientCheckedIn', 'SessionStarted', 'SessionEnded', 'SessionSignedByNurse', 'SessionValidatedByPhysician'];
  for (let age = DAYS - 1; age >= 0; age--) {
    const date = dateBefore(age);
    // Older days are validated; the last days stop earlier: awaiting validation, signature, or still on the floor.
    const steps = age > 3 ? 5 : age === 0 ? 1 : 5 - age;
    for (let p = (age % 7) % 2; p < PATIENTS; p += 2) {
      if ((p + age) % 7 === 6) continue;
      const sessionId = `s${date}-${p}`;
      const location = `loc${p % LOCATIONS}`;
      const shift = `${location}-shift${Math.floor(p / LOCATIONS) % SHIFTS_PER_LOCATION}`;
      let revision = 0;
      yield event(
        'dialysisSession',
        sessionId,
        'SessionScheduled',
        { patientId: `p${p}`, date, locationId: location, shiftId: shift },
        revision++,
      );
      if (p % 97 === 0) {
        yield event('dialysisSession', sessionId, 'SessionMarkedNoShow', {}, revision);
        continue;
      }
      for (const type of flow.slice(0, steps)) yield event('dialysisSession', sessionId, type, {}, revision++);
    }
  }
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'widgets-floor-'));
  const reads = await openSqliteReadStore({ file: path.join(dir, 'reads.sqlite') });
  try {
    const open = async (logical: string, indexes: Parameters<typeof reads.collection>[1] = []) =>
      reads.collection<ProjectedDoc>(logical + versionSuffix(floorProjection.version), indexes);
    const collections = new Map<string, Collection<ProjectedDoc>>();
    for (const [logical, indexes] of Object.entries(floorProjection.collections)) collections.set(logical, await open(logical, indexes));

    const types = eventTypeSet(floorProjection);
    const parked = new ParkedScopes();
    let batch = new ProjectionBatch(floorProjection, collections, 0n, parked);
    let count = 0;
    const started = process.hrtime.bigint();
    for (const recorded of events()) {
      await batch.apply(recorded, types);
      if (++count % BATCH === 0) {
        await batch.writeBack();
        batch = new ProjectionBatch(floorProjection, collections, recorded.position, parked);
      }
    }
    await batch.writeBack();
    const foldSeconds = Number(process.hrtime.bigint() - started) / 1e9;

    // The patients' names (the awaiting list reads at most `limit` of them) and the shifts' names (the board's labels).
    const patients = await reads.collection<ProjectedDoc>('patients_bench');
    for (let p = 0; p < PATIENTS; p += 1000) {
      const docs = Array.from({ length: Math.min(1000, PATIENTS - p) }, (_, n) => ({
        tenantId: TENANT,
        id: `p${p + n}`,
        givenNames: 'Ana',
        familyNames: `Paciente ${p + n}`,
        _position: 1,
      }));
      await patients.bulkWrite(docs.map((doc) => ({ kind: 'replace' as const, doc })));
    }
    const shifts = await reads.collection<ProjectedDoc>('shifts_bench');
    const served = (projection: string, logical: string): Collection<ProjectedDoc> =>
      projection === floorProjection.name ? collections.get(logical)! : logical === 'patients' ? patients : shifts;
    const services = { projections: { collection: served } } as unknown as ReadServices;
    const ctx: WidgetReadContext = {
      services,
      auth: { tenantId: TENANT },
      today: TODAY,
      now: new Date(`${TODAY}T10:00:00Z`),
      permissions: new Set(['widgets:read', 'pacientes:read', 'dialisis:read', 'pacientes:notes']),
    };
    console.log(
      `widgets-floor: ${count} events (${PATIENTS} patients, ${DAYS} days) folded into SQLite in ${foldSeconds.toFixed(1)} s: ${Math.round(count / foldSeconds)} events/s`,
    );
    for (const widget of floorWidgets.widgets) {
      for (const params of widget.id === 'today-board' ? [{}, { locationId: 'loc3' }, { date: dateBefore(200) }] : [{}]) {
        const times: number[] = [];
        for (let run = 0; run < 320; run++) {
          const t = process.hrtime.bigint();
          await widget.read(params, ctx);
          if (run >= 20) times.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        times.sort((a, b) => a - b);
        const sample = JSON.stringify(await widget.read(params, ctx)).length;
        console.log(
          `${widget.id} ${JSON.stringify(params)}: p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms (${sample} bytes of data)`,
        );
      }
    }
  } finally {
    await reads.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
