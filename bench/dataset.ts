// A realistic event log for the rebuild and cold-start benchmarks: patients of two companies with their
// clinical history and nursing notes, decided by the real deciders (so the events are what the service
// writes), appended through the real SQLite store. Kept under bench/tmp and reused while it matches.
import fs from 'node:fs';
import path from 'node:path';
import { decidePatient, patientDecider } from '../src/commands/pacientes/patientDecider.js';
import { nursingNoteDecider } from '../src/commands/pacientes/nursingNote.js';
import type { CommandEnvelope, DecidedEvent } from '../src/commands/decider.js';
import { openSqliteEventStore } from '../src/stores/sqlite/sqliteEventStore.js';
import { eventId, uuidV5 } from '../src/commands/eventIds.js';
import { streamName, type EventMetadata, type EventStore, type NewEvent } from '../src/stores/eventStore.js';

// 2: every id a UUID, as the service's routes require (version 1 named patients bp<n>).
export const DATASET_VERSION = 2;
const TENANTS = ['benchclinica', 'benchnorte'];
const NOTES_PER_PATIENT = 15;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Deterministic UUIDs: the same dataset names the same records in every run. */
const benchId = (name: string): string => uuidV5(`bench:${name}`);
/** The id of the dataset's n-th patient. */
export const benchPatientId = (n: number): string => benchId(`patient:${n}`);

/** The dataset's fixed random sequence: the same seed makes the same log. */
export const datasetRandom = (): (() => number) => rng(42);

function day(offsetDays: number): string {
  return new Date(Date.UTC(2024, 0, 1) + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

const GIVEN = ['María', 'José', 'Luis', 'Ana', 'Carmen', 'Jorge', 'Rosa', 'Juan', 'Lucía', 'Pedro', 'Elena', 'Víctor'];
const FAMILY = ['Quispe', 'Huamán', 'Flores', 'García', 'Rodríguez', 'Mamani', 'Torres', 'Chávez', 'Rojas', 'Vargas'];

type Cmd = CommandEnvelope<string, unknown>;

/** The patient's commands, run through the real decider; returns the decided events. */
function patientHistory(tenantId: string, patientId: string, n: number, rand: () => number): DecidedEvent[] {
  const at = (d: number) => `${day(d)}T1${Math.floor(rand() * 9)}:00:00.000Z`;
  const commands: Array<[string, unknown, number]> = [
    [
      'RegisterPatient',
      {
        documentType: 'DNI',
        documentNumber: String(40_000_000 + n),
        givenNames: `${GIVEN[n % 12]} ${GIVEN[(n * 7) % 12]}`,
        familyNames: `${FAMILY[n % 10]} ${FAMILY[(n * 3) % 10]}`,
        sex: n % 2 ? 'male' : 'female',
        birthDate: day(-20_000 - (n % 9000)),
        admissionDate: day(n % 200),
        etiology: 'diabetic nephropathy',
        dryWeightKg: 55 + (n % 40),
        contact: { mobilePhone: `+51 9${String(n).padStart(8, '0')}` },
        address: { line: `Av. Grau ${n}`, city: 'Lima' },
        emergencyContact: { name: 'Familiar', phone: '+51 999 000 111' },
        bloodGroup: 'O',
        rhFactor: 'positive',
      },
      (n % 200) + 1,
    ],
    ['RecordSerology', { test: 'HBsAg', result: 'negative', sampleDate: day(210) }, 211],
    ['RecordSerology', { test: 'antiHCV', result: n % 25 === 0 ? 'positive' : 'negative', sampleDate: day(210) }, 211],
    ['RecordSerology', { test: 'HIV', result: 'negative', sampleDate: day(210) }, 211],
    ['RecordAllergy', { allergyId: benchId(`${patientId}:a1`), substance: 'penicillin', severity: 'moderate' }, 212],
    ['AddCoverage', { coverageId: benchId(`${patientId}:c1`), payerName: 'EsSalud', memberNumber: `M${n}`, validFrom: day(0) }, 212],
    [
      'CreateVascularAccess',
      { accessId: benchId(`${patientId}:v1`), type: 'nonTunneledCVC', side: 'right', site: 'jugular', creationDate: day(200) },
      213,
    ],
    [
      'CreateVascularAccess',
      { accessId: benchId(`${patientId}:v2`), type: 'AVF', side: 'left', site: 'radiocephalic', creationDate: day(214) },
      214,
    ],
    ['ChangeVascularAccessStatus', { accessId: benchId(`${patientId}:v2`), status: 'active', date: day(280), primary: true }, 280],
    [
      'ChangeVascularAccessStatus',
      { accessId: benchId(`${patientId}:v1`), status: 'removed', date: day(281), reason: 'fistula in use' },
      281,
    ],
  ];
  for (let k = 0; k < 6; k++)
    commands.push(['PrescribeDryWeight', { dryWeightKg: 55 + (n % 40) + Math.round(rand() * 30) / 10 }, 300 + k * 30]);
  commands.push(['CorrectPatientData', { contact: { mobilePhone: '+51 988 777 666' } }, 500]);
  if (n % 10 === 0) commands.push(['ChangePatientStatus', { status: 'hospitalized', reason: 'access infection' }, 520]);
  if (n % 10 === 0) commands.push(['ChangePatientStatus', { status: 'active', reason: 'back from hospital' }, 530]);

  let state = patientDecider.initialState;
  const events: DecidedEvent[] = [];
  for (const [type, data, d] of commands) {
    const cmd = { type, data, at: at(d), actor: 'bench-nurse', aggregateId: patientId, tenantId } as Cmd;
    for (const e of decidePatient(cmd as never, state)) {
      state = patientDecider.evolve(state, e);
      events.push(e);
    }
  }
  return events;
}

function noteHistory(tenantId: string, patientId: string, noteId: string, k: number, rand: () => number): DecidedEvent[] {
  const when = `${day(300 + k)}T10:00:00.000Z`;
  let state = nursingNoteDecider.initialState;
  const events: DecidedEvent[] = [];
  const run = (type: string, data: unknown) => {
    const cmd = { type, data, at: when, actor: 'bench-nurse', aggregateId: noteId, tenantId } as Cmd;
    for (const e of nursingNoteDecider.decide(cmd as never, state)) {
      state = nursingNoteDecider.evolve(state, e);
      events.push(e);
    }
  };
  const soapie = {
    subjective: 'Refiere calambres leves',
    objective: `PA 13${k % 10}/80, peso pre 6${k % 10} kg`,
    assessment: 'Exceso de volumen',
    plan: 'UF 2.5 L',
    intervention: 'Control PA cada 30 min',
    evaluation: 'Tolera sesión',
  };
  run('RecordNursingNote', { patientId, patient: { status: 'active' }, noteType: 'pre', occurredAt: when, soapie });
  if (rand() < 0.2)
    run('AmendNursingNote', {
      patientId,
      reason: 'typo in blood pressure',
      soapie: { ...soapie, objective: `PA 14${k % 10}/85, peso pre 6${k % 10} kg` },
    });
  return events;
}

const metadata = (tenantId: string, occurredAt: string): EventMetadata => ({
  tenantId,
  actor: 'bench-nurse',
  sessionId: null,
  correlationId: 'bench',
  causationId: null,
  commandId: 'bench',
  occurredAt,
  ip: null,
  userAgent: null,
  reason: null,
});

export interface DatasetStream {
  stream: string;
  events: NewEvent[];
}

function streamOf(tenantId: string, category: string, id: string, decided: DecidedEvent[]): DatasetStream {
  const stream = streamName(tenantId, category, id);
  const events: NewEvent[] = decided.map((e, i) => ({
    id: eventId(tenantId, stream, i),
    type: e.type,
    data: e.data,
    metadata: metadata(tenantId, '2025-01-01T00:00:00.000Z'),
  }));
  return { stream, events };
}

/** The n-th patient of the dataset: its record's stream, then its nursing notes' streams, in append order. */
export function patientStreams(tenantId: string, n: number, rand: () => number): DatasetStream[] {
  const patientId = benchPatientId(n);
  const streams = [streamOf(tenantId, 'patient', patientId, patientHistory(tenantId, patientId, n, rand))];
  for (let k = 0; k < NOTES_PER_PATIENT; k++) {
    const noteId = benchId(`${patientId}:n${k}`);
    streams.push(streamOf(tenantId, 'nursingNote', noteId, noteHistory(tenantId, patientId, noteId, k, rand)));
  }
  return streams;
}

async function append(store: EventStore, { stream, events }: DatasetStream): Promise<number> {
  await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
  return events.length;
}

/** Builds (or reuses) a data directory whose event log holds at least `target` events. */
export async function ensureDataset(root: string, target: number, log: (s: string) => void): Promise<string> {
  const dir = path.join(root, `dataset-v${DATASET_VERSION}-${target}`);
  const done = path.join(dir, 'COMPLETE');
  if (fs.existsSync(done)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const rand = datasetRandom();
  let written = 0;
  let n = 0;
  const started = Date.now();
  while (written < target) {
    const batch: Promise<number>[] = [];
    for (let b = 0; b < 64 && written < target; b++, n++) {
      for (const s of patientStreams(TENANTS[n % TENANTS.length]!, n, rand)) batch.push(append(store, s));
    }
    written += (await Promise.all(batch)).reduce((a, b) => a + b, 0);
    if (n % 6400 === 0) log(`  dataset: ${written} events (${Math.round(written / ((Date.now() - started) / 1000))}/s)`);
  }
  await store.close();
  fs.writeFileSync(done, JSON.stringify({ events: written, patients: n }));
  log(`  dataset: ${written} events for ${n} patients in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return dir;
}
