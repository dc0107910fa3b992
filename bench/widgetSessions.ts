// A year of dialysis sessions for the widgets' log, decided by the real session decider (scheduled, check-in, pre block,
// safety checks, start, a reading, end, post block with urea, the nurse's signature with the values judged by the real
// clinical functions, the physician's validation; some no-shows), and today's sessions spread over every board state.
import type { CommandEnvelope, DecidedEvent } from '../src/commands/decider.js';
import { eventId, uuidV5 } from '../src/commands/eventIds.js';
import { sessionDecider } from '../src/commands/dialisis/session/sessionDecider.js';
import { sessionStream } from '../src/commands/dialisis/session/sessionEvents.js';
import { sessionIdFor } from '../src/commands/dialisis/session/sessionIds.js';
import { DEFAULT_CLINICAL_POLICY } from '../src/commands/dialisis/shared/clinicalPolicy.js';
import { foldSession, type SessionDoc } from '../src/projections/dialisis/sessionDoc.js';
import { netPostWeightOf, sessionClinical } from '../src/projections/dialisis/sessionClinical.js';
import type { EventMetadata, NewEvent, RecordedEvent } from '../src/stores/eventStore.js';
import type { DatasetStream } from './dataset.js';
import type { WidgetSeed } from './widgetSeed.js';

type Cmd = CommandEnvelope<string, unknown>;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** What the next session of a patient needs of the previous one (the IDWG's start). */
export interface PatientTrack {
  n: number;
  patientId: string;
  dryWeightKg: number;
  /** Scheduled no more after this day (a status change took the patient off the floor), or null. */
  lastDay: string | null;
  previousNetPostWeightKg: number | null;
  previousEndedAt: string | null;
}

/** Today's sessions stop at every board state: scheduled, arrived, running, ended, signed, validated, no-show. */
const TODAY_STAGES = ['scheduled', 'checked-in', 'running', 'running', 'ended', 'signed', 'validated', 'no-show'] as const;
type Stage = (typeof TODAY_STAGES)[number] | 'done';

const metadata = (tenantId: string, actor: string, occurredAt: string): EventMetadata => ({
  tenantId,
  actor,
  sessionId: null,
  correlationId: 'bench-widgets',
  causationId: null,
  commandId: 'bench-widgets',
  occurredAt,
  ip: null,
  userAgent: null,
  reason: null,
});

const iso = (ms: number): string => new Date(ms).toISOString();
const round1 = (x: number): number => Math.round(x * 10) / 10;

/** The patient's session on `date` (a day of its schedule), as one stream of the decider's events. */
export function sessionStreamFor(
  seed: WidgetSeed,
  track: PatientTrack,
  date: string,
  rand: () => number,
  position: { next: bigint },
): DatasetStream {
  const { companyId: tenantId } = seed;
  const n = track.n;
  const afternoon = (n >> 4) % 2 === 1; // blocks of 16 patients per shift
  const shiftId = seed.shiftIds[afternoon ? 1 : 0];
  const sessionId = sessionIdFor(tenantId, track.patientId, date, shiftId);
  const stream = sessionStream(tenantId, sessionId);
  const isToday = date === seed.today;
  // Today's patients share one weekday parity: (n >> 1) spreads them over every stage.
  const stage: Stage = isToday ? TODAY_STAGES[(n >> 1) % TODAY_STAGES.length]! : rand() < 0.03 ? 'no-show' : 'done';
  // Morning shift 07:00 local, afternoon 12:30 (taken as UTC-5), a patient's own minute inside the first hour.
  const startMs = Date.parse(`${date}T${afternoon ? '17:30' : '12:00'}:00.000Z`) + (n % 50) * MINUTE_MS;
  const nurse = seed.nurseStaffIds[n % seed.nurseStaffIds.length]!;
  const nurseUser = uuidV5(`bench:nurse-user:${nurse}`);

  let state = sessionDecider.initialState;
  let doc: SessionDoc | null = null;
  const events: NewEvent[] = [];
  const run = (type: string, data: unknown, atMs: number, actor = nurseUser) => {
    const at = iso(atMs);
    const cmd = { type, data, at, actor, aggregateId: sessionId, tenantId } as Cmd;
    for (const e of sessionDecider.decide(cmd as never, state) as DecidedEvent[]) {
      state = sessionDecider.evolve(state, e as never);
      const recorded: RecordedEvent = {
        id: eventId(tenantId, stream, events.length),
        type: e.type,
        data: e.data,
        metadata: metadata(tenantId, actor, at),
        streamName: stream,
        revision: events.length,
        position: position.next++,
      };
      doc = foldSession(doc, recorded);
      events.push({ id: recorded.id, type: e.type, data: e.data, metadata: recorded.metadata });
    }
  };

  const scheduledData = { sessionId, patientId: track.patientId, date, shiftId, locationId: seed.locationId, kind: 'planned' };
  run(
    'ScheduleSession',
    { ...scheduledData, patient: { exists: true, status: 'active' }, today: date },
    startMs - 12 * HOUR_MS,
    'bench-scheduler',
  );
  if (stage === 'scheduled') return { stream, events };
  if (stage === 'no-show') {
    run('MarkNoShow', { today: date }, startMs + 2 * HOUR_MS);
    return { stream, events };
  }
  const dry = track.dryWeightKg;
  // IDWG mostly 1-3.5 kg; one session in 20 gains 5-6.5 kg (the fluid outliers).
  const gain = rand() < 0.05 ? 5 + rand() * 1.5 : 1 + rand() * 2.5;
  const preWeight = round1(dry + gain);
  const preBun = Math.round(55 + rand() * 35);
  run('CheckInPatient', {}, startMs - 30 * MINUTE_MS);
  run(
    'RecordPreDialysis',
    {
      scaleWeightKg: preWeight,
      bloodPressure: { systolic: 135 + Math.round(rand() * 30), diastolic: 80 },
      pulse: 76,
      temperatureC: 36.5,
      preBunMgDl: preBun,
    },
    startMs - 20 * MINUTE_MS,
  );
  run(
    'RecordSafetyChecks',
    {
      conductivityMsCm: 14,
      conductivityTargetMsCm: 14,
      dialysateTemperatureC: 36.5,
      residualDisinfectantAbsent: true,
      airDetectorTested: true,
      bloodLeakDetectorArmed: true,
      alarmsTested: true,
      checkedBy: nurse,
    },
    startMs - 10 * MINUTE_MS,
  );
  if (stage === 'checked-in') return { stream, events };
  const machineId = seed.machineIds[n % seed.machineIds.length]!;
  run(
    'StartSession',
    {
      machineId,
      dialyzerId: seed.dialyzerIds[n % seed.dialyzerIds.length]!,
      arterialLineId: null,
      venousLineId: null,
      prescription: { version: 1, durationMinutes: 240, frequencyPerWeek: 3, dryWeightKg: dry },
      dryWeight: { dryWeightKg: dry, effectiveDate: '2025-01-01' },
      patient: { exists: true, status: 'active' },
      warnings: [],
    },
    startMs,
  );
  run(
    'RecordReading',
    {
      readingId: uuidV5(`bench:reading:${sessionId}`),
      at: iso(startMs + 60 * MINUTE_MS),
      bloodPressure: { systolic: 130, diastolic: 78 },
      pulse: 74,
      qbMlMin: 350,
      cumulativeUfMl: 800,
      source: 'machine',
      limits: { revision: 0, readings: 300, complications: 50, medications: 50, pauses: 20, amendments: 100, addenda: 50 },
    },
    startMs + 60 * MINUTE_MS,
  );
  if (stage === 'running') return { stream, events };
  const minutes = rand() < 0.05 ? 200 : 240;
  const endMs = startMs + minutes * MINUTE_MS;
  run('EndSession', {}, endMs);
  const postWeight = round1(dry - 0.3 + rand() * 0.9);
  // URR 60-78 %: most at target, some below (the adequacy widgets' distribution).
  const postBun = Math.round(preBun * (0.22 + rand() * 0.18));
  run(
    'RecordPostDialysis',
    {
      scaleWeightKg: postWeight,
      bloodPressure: { systolic: 125, diastolic: 78 },
      pulse: 72,
      temperatureC: 36.4,
      machineUfMl: Math.round((preWeight - postWeight) * 1000 + (rand() - 0.5) * 200),
      postBunMgDl: postBun,
    },
    endMs + 10 * MINUTE_MS,
  );
  const previousEnd = track.previousEndedAt;
  const ended = doc as SessionDoc | null;
  track.previousEndedAt = iso(endMs);
  if (stage === 'ended') return { stream, events };
  const clinical = sessionClinical(
    ended!,
    {
      previousNetPostWeightKg: track.previousNetPostWeightKg,
      accessKind: 'fistula',
      interdialyticHours: previousEnd ? (startMs - Date.parse(previousEnd)) / HOUR_MS : null,
    },
    DEFAULT_CLINICAL_POLICY,
  );
  track.previousNetPostWeightKg = netPostWeightOf(ended!);
  const signedAt = endMs + 30 * MINUTE_MS;
  const judged = { derived: clinical.derived, flags: clinical.flags, policyRevision: 0, judgedAt: iso(signedAt) };
  run('SignSession', { signer: { userId: nurseUser, staffId: nurse }, judged }, signedAt);
  if (stage === 'signed') return { stream, events };
  // The physician validates most sessions within two days; the last days' stay awaiting validation.
  const ageDays = (Date.parse(`${seed.today}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000;
  if (stage === 'validated' || (ageDays > 2 && rand() < 0.97)) {
    run('ValidateSession', { signer: seed.physician }, signedAt + 2 * HOUR_MS, seed.physician.userId);
  }
  return { stream, events };
}
