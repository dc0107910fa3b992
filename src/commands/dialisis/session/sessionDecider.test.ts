// Given session events / when a command / then events or a refusal: the lifecycle of domain.md 2.1 and its blocks.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { sessionDecider } from './sessionDecider.js';
import type { PostDialysis, PreDialysis, SafetyChecks, SessionCommand, SessionEvent } from './sessionEvents.js';

const given = scenario(sessionDecider);
const T0 = '2025-03-03T08:00:00.000Z';
const plus = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const cmd = <T extends SessionCommand['type']>(type: T, data: Extract<SessionCommand, { type: T }>['data'], at = T0): SessionCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 's1', tenantId: 't1' }) as SessionCommand;

const active = { exists: true, status: 'active' };
const slot = { sessionId: 's1', patientId: 'p1', date: '2025-03-03', shiftId: 'm', locationId: 'l1' };
const scheduled: SessionEvent = { type: 'SessionScheduled', data: { ...slot, kind: 'planned' } };
const checkedIn: SessionEvent = { type: 'PatientCheckedIn', data: { checkedInAt: T0 } };
const pre: PreDialysis = {
  scaleWeightKg: 72.5,
  wheelchairKg: 0,
  bloodPressure: { systolic: 140, diastolic: 85 },
  pulse: 78,
  temperatureC: 36.6,
};
const post: PostDialysis = {
  scaleWeightKg: 70.1,
  bloodPressure: { systolic: 128, diastolic: 80 },
  pulse: 74,
  temperatureC: 36.5,
  machineUfMl: 2400,
};
const safety: SafetyChecks = {
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
const prescription = { version: 1, durationMinutes: 240, dryWeightKg: 70 };
const equipment = { machineId: 'm1', dialyzerId: 'd1', arterialLineId: null, venousLineId: null };
const started: SessionEvent = { type: 'SessionStarted', data: { ...equipment, startedAt: T0, prescription, warnings: [] } };
const ready = [
  scheduled,
  checkedIn,
  { type: 'PreDialysisRecorded', data: pre },
  { type: 'SafetyChecksRecorded', data: safety },
] as SessionEvent[];
const reading = (minute: number, id = `r${minute}`): SessionEvent => ({
  type: 'ReadingRecorded',
  data: { readingId: id, at: plus(minute), bloodPressure: { systolic: 130, diastolic: 80 }, pulse: 76, source: 'manual' },
});
const ended = (minutes = 240): SessionEvent => ({ type: 'SessionEnded', data: { endedAt: plus(minutes), effectiveMinutes: minutes } });
const treated = [...ready, started, reading(60), ended(), { type: 'PostDialysisRecorded', data: post }] as SessionEvent[];
const nurse = { userId: 'n1', staffId: 'st1' };
const signed: SessionEvent = { type: 'SessionSignedByNurse', data: { ...nurse, signedAt: plus(250) } };
const amendPolicy = { revision: 4, signedEditWindowHours: 24 };

describe('session decider', () => {
  it('schedules an active patient once per date and shift; a planned generation twice decides nothing', () => {
    const schedule = (over: Record<string, unknown> = {}) =>
      cmd('ScheduleSession', { ...slot, kind: 'planned', patient: active, today: '2025-03-03', ...over } as never);
    given().when(schedule()).then(scheduled);
    given(scheduled).when(schedule()).then();
    given(scheduled)
      .when(schedule({ kind: 'extra', reason: 'missed Monday', requestedBy: 'dr1' }))
      .thenError('session-already-scheduled');
  });

  it('never schedules a deceased or discharged patient, nor a date in the past; extra sessions need reason and physician', () => {
    const schedule = (over: Record<string, unknown>) =>
      cmd('ScheduleSession', { ...slot, kind: 'planned', patient: active, today: '2025-03-03', ...over } as never);
    given()
      .when(schedule({ patient: { exists: true, status: 'deceased' } }))
      .thenError('patient-not-schedulable');
    given()
      .when(schedule({ patient: { exists: true, status: 'discharged' } }))
      .thenError('patient-not-schedulable');
    given()
      .when(schedule({ date: '2025-03-02' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['date']));
    given()
      .when(schedule({ kind: 'emergency' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason', 'requestedBy']));
    given()
      .when(schedule({ kind: 'emergency', reason: ' K+ 7.1 ', requestedBy: 'dr1' }))
      .then({ type: 'SessionScheduled', data: { ...slot, kind: 'emergency', reason: 'K+ 7.1', requestedBy: 'dr1' } });
  });

  it('starts only a checked-in session with its pre block, passed safety checks and a prescription, naming every reason', () => {
    const start = (over: Record<string, unknown> = {}) =>
      cmd('StartSession', { ...equipment, prescription, patient: active, warnings: [], ...over });
    given(...ready)
      .when(start())
      .then(started);
    given(scheduled)
      .when(start({ prescription: null }))
      .thenError('session-not-checked-in', (e) =>
        assert.deepEqual(e.details?.reasons, [
          'session-not-checked-in',
          'no-prescription-in-force',
          'pre-dialysis-missing',
          'safety-checks-missing',
        ]),
      );
    const badChecks: SessionEvent = { type: 'SafetyChecksRecorded', data: { ...safety, conductivityMsCm: 15.0, dialysatePh: 7.8 } };
    given(scheduled, checkedIn, { type: 'PreDialysisRecorded', data: pre }, badChecks).when(start()).thenError('safety-checks-failed');
  });

  it('keeps readings and complications inside the session, and counts treatment time without pauses', () => {
    given(...ready, started)
      .when(cmd('RecordReading', { readingId: 'r0', at: plus(-1), source: 'manual' }, plus(30)))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['at']));
    given(...ready, started)
      .when(
        cmd('RecordReading', { readingId: 'r1', at: plus(30), bloodPressure: { systolic: 80, diastolic: 90 }, source: 'manual' }, plus(31)),
      )
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['bloodPressure/diastolic']));
    given(...ready, started, reading(60))
      .when(cmd('RecordReading', reading(60).data as never, plus(61)))
      .then();
    const paused: SessionEvent = { type: 'SessionPaused', data: { pausedAt: plus(60), reason: 'cramps' } };
    const resumed: SessionEvent = { type: 'SessionResumed', data: { resumedAt: plus(80) } };
    given(...ready, started, paused, resumed)
      .when(cmd('EndSession', {}, plus(260)))
      .then({ type: 'SessionEnded', data: { endedAt: plus(260), effectiveMinutes: 240 } });
    given(...ready, started, ended())
      .when(cmd('RecordComplication', { complicationId: 'c1', at: plus(241), code: 'cramps', severity: 'mild' }, plus(300)))
      .thenError('validation-failed');
  });

  it('cancels before the start with a reason, marks a no-show, and interrupts after the start keeping the partial data', () => {
    given(scheduled)
      .when(cmd('CancelSession', { reason: ' hospitalised ' }))
      .then({ type: 'SessionCancelled', data: { reason: 'hospitalised' } });
    given(...ready, started)
      .when(cmd('CancelSession', { reason: 'x' }))
      .thenError('session-status');
    given(scheduled)
      .when(cmd('MarkNoShow', { today: '2025-03-03' }))
      .then({ type: 'SessionMarkedNoShow', data: {} });
    given(scheduled)
      .when(cmd('MarkNoShow', { today: '2025-03-02' }))
      .thenError('session-day-not-reached');
    given(...ready, started)
      .when(cmd('InterruptSession', { reasonCode: 'circuit-clotting' }, plus(90)))
      .then({ type: 'SessionInterrupted', data: { interruptedAt: plus(90), reasonCode: 'circuit-clotting', effectiveMinutes: 90 } });
    const interrupted: SessionEvent = {
      type: 'SessionInterrupted',
      data: { interruptedAt: plus(90), reasonCode: 'circuit-clotting', effectiveMinutes: 90 },
    };
    given(...ready, started, interrupted)
      .when(cmd('SignSession', { signer: nurse }, plus(100)))
      .then({ type: 'SessionSignedByNurse', data: { ...nurse, signedAt: plus(100) } });
  });

  it('signs only with the required blocks (409 naming what is missing); the physician validates, not the signer', () => {
    given(...ready, started, ended())
      .when(cmd('SignSession', { signer: nurse }))
      .thenError('required-fields-missing', (e) => assert.deepEqual(e.details?.missing, ['readings', 'post']));
    given(...treated)
      .when(cmd('SignSession', { signer: nurse }, plus(250)))
      .then(signed);
    given(...treated, signed)
      .when(cmd('ValidateSession', { signer: nurse }))
      .thenError('validator-is-signer');
    given(...treated, signed)
      .when(cmd('ValidateSession', { signer: { userId: 'dr1', staffId: 'st9' } }, plus(300)))
      .then({ type: 'SessionValidatedByPhysician', data: { userId: 'dr1', staffId: 'st9', validatedAt: plus(300) } });
    given(...treated, signed)
      .when(cmd('RecordPostDialysis', post))
      .thenError('session-signed');
  });

  it('after signing, amends with a reason inside the editing window (keeping the previous values), then only addenda', () => {
    const amendment = cmd(
      'AmendSession',
      { block: 'post', changes: { scaleWeightKg: 70.3 }, reason: 'scale misread', policy: amendPolicy },
      plus(300),
    );
    given(...treated, signed)
      .when(amendment)
      .then({
        type: 'SessionAmended',
        data: {
          block: 'post',
          changes: { scaleWeightKg: 70.3 },
          previous: { scaleWeightKg: 70.1 },
          reason: 'scale misread',
          policyRevision: 4,
        },
      });
    given(...treated, signed)
      .when({ ...amendment, at: plus(250 + 24 * 60 + 1) })
      .thenError('editing-window-closed');
    given(...treated, signed)
      .when(cmd('AmendSession', { block: 'post', changes: { scaleWeightKg: 70.1 }, reason: ' ', policy: amendPolicy }, plus(300)))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason', 'changes']));
    given(...treated, signed)
      .when(cmd('AddAddendum', { text: 'Patient called: cramps at home', reason: 'follow-up' }, plus(5000)))
      .then({ type: 'SessionAddendumRecorded', data: { text: 'Patient called: cramps at home', reason: 'follow-up' } });
    given(...treated)
      .when(cmd('AddAddendum', { text: 'x', reason: 'y' }))
      .thenError('session-status');
  });

  it('answers not-found for a session that does not exist', () => {
    given().when(cmd('CheckInPatient', {})).thenError('not-found');
  });
});
