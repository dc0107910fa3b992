// The session history the decider tests share: a ready, started, treated and signed session, as events.
import type { PostDialysis, PreDialysis, SafetyChecks, SessionEvent, SessionLimits } from './sessionEvents.js';
import type { SessionCommand } from './sessionCommands.js';

export const T0 = '2025-03-03T08:00:00.000Z';
export const plus = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
export const cmd = <T extends SessionCommand['type']>(
  type: T,
  data: Extract<SessionCommand, { type: T }>['data'],
  at = T0,
): SessionCommand => ({ type, data, at, actor: 'u1', aggregateId: 's1', tenantId: 't1' }) as SessionCommand;

export const active = { exists: true, status: 'active' };
export const slot = { sessionId: 's1', patientId: 'p1', date: '2025-03-03', shiftId: 'm', locationId: 'l1' };
export const scheduled: SessionEvent = { type: 'SessionScheduled', data: { ...slot, kind: 'planned' } };
export const checkedIn: SessionEvent = { type: 'PatientCheckedIn', data: { checkedInAt: T0 } };
export const pre: PreDialysis = {
  scaleWeightKg: 72.5,
  wheelchairKg: 0,
  bloodPressure: { systolic: 140, diastolic: 85 },
  pulse: 78,
  temperatureC: 36.6,
};
export const post: PostDialysis = {
  scaleWeightKg: 70.1,
  bloodPressure: { systolic: 128, diastolic: 80 },
  pulse: 74,
  temperatureC: 36.5,
  machineUfMl: 2400,
};
export const safety: SafetyChecks = {
  conductivityMsCm: 14.0,
  conductivityTargetMsCm: 14.0,
  dialysatePh: 7.2,
  dialysateTemperatureC: 36.5,
  residualDisinfectantAbsent: true,
  airDetectorTested: true,
  bloodLeakDetectorArmed: true,
  alarmsTested: true,
  checkedBy: 'n1',
};
export const prescription = { version: 1, durationMinutes: 240, dryWeightKg: 70 };
export const equipment = { machineId: 'm1', dialyzerId: 'd1', arterialLineId: null, venousLineId: null };
/** The patient's dry weight in force on the session's date (Pacientes), as the start hands it to the decider. */
export const dryWeight = { dryWeightKg: 70, effectiveDate: '2025-03-01' };
export const started: SessionEvent = {
  type: 'SessionStarted',
  data: { ...equipment, startedAt: T0, prescription, dryWeight, warnings: [] },
};
export const ready = [
  scheduled,
  checkedIn,
  { type: 'PreDialysisRecorded', data: pre },
  { type: 'SafetyChecksRecorded', data: safety },
] as SessionEvent[];
export const reading = (minute: number, id = `r${minute}`): SessionEvent => ({
  type: 'ReadingRecorded',
  data: { readingId: id, at: plus(minute), bloodPressure: { systolic: 130, diastolic: 80 }, pulse: 76, source: 'manual' },
});
export const ended = (minutes = 240): SessionEvent => ({
  type: 'SessionEnded',
  data: { endedAt: plus(minutes), effectiveMinutes: minutes },
});
export const treated = [...ready, started, reading(60), ended(), { type: 'PostDialysisRecorded', data: post }] as SessionEvent[];
export const nurse = { userId: 'n1', staffId: 'st1' };
export const signed: SessionEvent = { type: 'SessionSignedByNurse', data: { ...nurse, signedAt: plus(250) } };
export const amendPolicy = { revision: 4, signedEditWindowHours: 24 };

/** The company's clinical maximums as the writes hand them in (small, so a test reaches them). */
export const limits = (over: Partial<SessionLimits> = {}): SessionLimits => ({
  revision: 7,
  readings: 300,
  complications: 50,
  medications: 50,
  pauses: 20,
  amendments: 100,
  addenda: 50,
  ...over,
});
export const physician = { userId: 'dr1', staffId: 'st9' };
export const validated: SessionEvent = { type: 'SessionValidatedByPhysician', data: { ...physician, validatedAt: plus(300) } };
