// Given session events / when a command / then events or a refusal: the lifecycle of domain.md 2.1 and its blocks.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { sessionDecider } from './sessionDecider.js';
import type { SessionEvent } from './sessionEvents.js';
import {
  active,
  amendPolicy,
  checkedIn,
  cmd,
  dryWeight,
  ended,
  equipment,
  limits,
  nurse,
  physician,
  plus,
  post,
  pre,
  prescription,
  reading,
  ready,
  safety,
  scheduled,
  signed,
  slot,
  started,
  treated,
  validated,
} from './sessionTestEvents.js';

const given = scenario(sessionDecider);

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

  it('never schedules a deceased or discharged patient, nor a past date without a reason; extra sessions need reason and physician', () => {
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
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['lateEntryReason']));
    given()
      .when(schedule({ kind: 'emergency' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason', 'requestedBy']));
    given()
      .when(schedule({ kind: 'emergency', reason: ' K+ 7.1 ', requestedBy: 'dr1' }))
      .then({ type: 'SessionScheduled', data: { ...slot, kind: 'emergency', reason: 'K+ 7.1', requestedBy: 'dr1' } });
  });

  it('starts only a checked-in session with its pre block, passed safety checks and a prescription, naming every reason', () => {
    const start = (over: Record<string, unknown> = {}) =>
      cmd('StartSession', { ...equipment, prescription, dryWeight, patient: active, warnings: [], ...over });
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
      .when(cmd('RecordReading', { readingId: 'r0', at: plus(-1), source: 'manual', limits: limits() }, plus(30)))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['at']));
    given(...ready, started)
      .when(
        cmd(
          'RecordReading',
          { readingId: 'r1', at: plus(30), bloodPressure: { systolic: 80, diastolic: 90 }, source: 'manual', limits: limits() },
          plus(31),
        ),
      )
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['bloodPressure/diastolic']));
    given(...ready, started, reading(60))
      .when(cmd('RecordReading', { ...reading(60).data, limits: limits() } as never, plus(61)))
      .then();
    const paused: SessionEvent = { type: 'SessionPaused', data: { pausedAt: plus(60), reason: 'cramps' } };
    const resumed: SessionEvent = { type: 'SessionResumed', data: { resumedAt: plus(80) } };
    given(...ready, started, paused, resumed)
      .when(cmd('EndSession', {}, plus(260)))
      .then({ type: 'SessionEnded', data: { endedAt: plus(260), effectiveMinutes: 240 } });
    given(...ready, started, ended())
      .when(
        cmd('RecordComplication', { complicationId: 'c1', at: plus(241), code: 'cramps', severity: 'mild', limits: limits() }, plus(300)),
      )
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
      .then({
        type: 'SessionInterrupted',
        data: { interruptedAt: plus(90), reasonCode: 'circuit-clotting', effectiveMinutes: 90, lostMinutes: 150 },
      });
    const interrupted: SessionEvent = {
      type: 'SessionInterrupted',
      data: { interruptedAt: plus(90), reasonCode: 'circuit-clotting', effectiveMinutes: 90 },
    };
    given(...ready, started, interrupted)
      .when(cmd('SignSession', { signer: nurse }, plus(100)))
      .then({ type: 'SessionSignedByNurse', data: { ...nurse, signedAt: plus(100) } });
  });

  it("links an interruption to the session's complication behind it and counts the prescribed minutes it cost", () => {
    const complication: SessionEvent = {
      type: 'ComplicationRecorded',
      data: { complicationId: 'c1', at: plus(60), code: 'hypotension', severity: 'severe' },
    };
    given(...ready, started, complication)
      .when(cmd('InterruptSession', { reasonCode: 'hemodynamic-instability', complicationId: 'c1' }, plus(75)))
      .then({
        type: 'SessionInterrupted',
        data: {
          interruptedAt: plus(75),
          reasonCode: 'hemodynamic-instability',
          effectiveMinutes: 75,
          complicationId: 'c1',
          lostMinutes: 165,
        },
      });
    given(...ready, started, complication)
      .when(cmd('InterruptSession', { reasonCode: 'hemodynamic-instability', complicationId: 'c2' }, plus(75)))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['complicationId']));
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
      .when(cmd('ValidateSession', { signer: physician }, plus(300)))
      .then(validated);
    given(...treated, signed)
      .when(cmd('RecordPostDialysis', post))
      .thenError('session-signed');
  });

  it('after signing, amends with a reason inside the editing window (keeping the previous values), then only addenda', () => {
    const amendment = cmd(
      'AmendSession',
      { block: 'post', changes: { scaleWeightKg: 70.3 }, reason: 'scale misread', policy: amendPolicy, limits: limits(), by: nurse },
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
          amendedBy: nurse,
        },
      });
    given(...treated, signed)
      .when({ ...amendment, at: plus(250 + 24 * 60 + 1) })
      .thenError('editing-window-closed');
    given(...treated, signed)
      .when(
        cmd(
          'AmendSession',
          { block: 'post', changes: { scaleWeightKg: 70.1 }, reason: ' ', policy: amendPolicy, limits: limits(), by: nurse },
          plus(300),
        ),
      )
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason', 'changes']));
    given(...treated, signed)
      .when(cmd('AddAddendum', { text: 'Patient called: cramps at home', reason: 'follow-up', limits: limits(), by: nurse }, plus(5000)))
      .then({ type: 'SessionAddendumRecorded', data: { text: 'Patient called: cramps at home', reason: 'follow-up', addedBy: nurse } });
    given(...treated)
      .when(cmd('AddAddendum', { text: 'x', reason: 'y', limits: limits(), by: nurse }))
      .thenError('session-status');
  });

  it('an amendment after validation sends the record back for validation, naming who amended; an addendum does not', () => {
    const amend = (by = nurse) =>
      cmd(
        'AmendSession',
        { block: 'post', changes: { scaleWeightKg: 70.3 }, reason: 'scale misread', policy: amendPolicy, limits: limits(), by },
        plus(310),
      );
    given(...treated, signed, validated)
      .when(amend())
      .then({
        type: 'SessionAmended',
        data: {
          block: 'post',
          changes: { scaleWeightKg: 70.3 },
          previous: { scaleWeightKg: 70.1 },
          reason: 'scale misread',
          policyRevision: 4,
          amendedBy: nurse,
          returnsToValidation: true,
        },
      });
    const reopened = given(...treated, signed, validated)
      .when(amend())
      .events();
    // Awaiting validation again: another physician (or the same) validates the amended record; the signer still may not.
    given(...treated, signed, validated, ...reopened)
      .when(cmd('ValidateSession', { signer: physician }, plus(320)))
      .then({ type: 'SessionValidatedByPhysician', data: { ...physician, validatedAt: plus(320) } });
    given(...treated, signed, validated, ...reopened)
      .when(cmd('ValidateSession', { signer: nurse }, plus(320)))
      .thenError('validator-is-signer');
    given(...treated, signed, validated)
      .when(cmd('AddAddendum', { text: 'called', reason: 'follow-up', limits: limits(), by: physician }, plus(320)))
      .then({ type: 'SessionAddendumRecorded', data: { text: 'called', reason: 'follow-up', addedBy: physician } });
    const addendum = given(...treated, signed, validated)
      .when(cmd('AddAddendum', { text: 'called', reason: 'follow-up', limits: limits(), by: physician }, plus(320)))
      .events();
    given(...treated, signed, validated, ...addendum)
      .when(cmd('ValidateSession', { signer: physician }, plus(330)))
      .thenError('session-signed');
  });

  it('answers not-found for a session that does not exist', () => {
    given().when(cmd('CheckInPatient', {})).thenError('not-found');
  });
});
