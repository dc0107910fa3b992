// Given a session at one of its clinical maximums (the company policy hands them in) / when one more entry / then a 409
// naming the limit; below it the entry is recorded, and a retried entry is still harmless.
import assert from 'node:assert/strict';
import { scenario } from '../../givenWhenThen.js';
import { sessionDecider } from './sessionDecider.js';
import type { SessionEvent } from './sessionEvents.js';
import { amendPolicy, cmd, limits, nurse, plus, reading, ready, signed, started, treated } from './sessionTestEvents.js';

const given = scenario(sessionDecider);
const refusedAt = (limit: string, max: number) => (e: { details?: Record<string, unknown> }) =>
  assert.deepEqual(e.details, { limit, max, policyRevision: 7 });

const complication = (minute: number): SessionEvent => ({
  type: 'ComplicationRecorded',
  data: { complicationId: `c${minute}`, at: plus(minute), code: 'cramps', severity: 'mild' },
});
const medication = (minute: number): SessionEvent => ({
  type: 'MedicationAdministered',
  data: { medicationId: `m${minute}`, drug: 'Heparin', dose: 1000, unit: 'IU', route: 'iv', at: plus(minute), given: true },
});
const pauseAndResume = (minute: number): SessionEvent[] => [
  { type: 'SessionPaused', data: { pausedAt: plus(minute), reason: 'cramps' } },
  { type: 'SessionResumed', data: { resumedAt: plus(minute + 1) } },
];
const amended = (kg: number): SessionEvent => ({
  type: 'SessionAmended',
  data: { block: 'post', changes: { scaleWeightKg: kg }, previous: { scaleWeightKg: 70.1 }, reason: 'r', policyRevision: 4 },
});
const addendum: SessionEvent = { type: 'SessionAddendumRecorded', data: { text: 't', reason: 'r' } };

describe('session decider: bounded session records', () => {
  it('records readings up to the maximum, then refuses one more with 409 session-limit-reached naming it', () => {
    const three = [reading(10), reading(20), reading(30)];
    const next = cmd('RecordReading', { ...reading(40).data, limits: limits({ readings: 3 }) } as never, plus(41));
    given(...ready, started, reading(10), reading(20))
      .when(next)
      .then(reading(40));
    given(...ready, started, ...three)
      .when(next)
      .thenError('session-limit-reached', refusedAt('readings', 3));
    // A retried reading already recorded is not a new one: nothing decided, no refusal.
    given(...ready, started, ...three)
      .when(cmd('RecordReading', { ...reading(30).data, limits: limits({ readings: 3 }) } as never, plus(41)))
      .then();
  });

  it('bounds complications, medications and pauses the same way', () => {
    const newComplication = cmd(
      'RecordComplication',
      { complicationId: 'c9', at: plus(50), code: 'cramps', severity: 'mild', limits: limits({ complications: 2 }) },
      plus(51),
    );
    given(...ready, started, complication(10), complication(20))
      .when(newComplication)
      .thenError('session-limit-reached', refusedAt('complications', 2));
    const { medicationId: _m, ...dose } = (medication(50) as Extract<SessionEvent, { type: 'MedicationAdministered' }>).data;
    const newMedication = cmd('AdministerMedication', { ...dose, medicationId: 'm9', limits: limits({ medications: 2 }) }, plus(51));
    given(...ready, started, medication(10), medication(20))
      .when(newMedication)
      .thenError('session-limit-reached', refusedAt('medications', 2));
    given(...ready, started, medication(10))
      .when(newMedication)
      .events();
    given(...ready, started, ...pauseAndResume(10), ...pauseAndResume(20))
      .when(cmd('PauseSession', { reason: 'cramps', limits: limits({ pauses: 2 }) }, plus(30)))
      .thenError('session-limit-reached', refusedAt('pauses', 2));
  });

  it('bounds amendments and addenda of a signed session', () => {
    const amend = cmd(
      'AmendSession',
      {
        block: 'post',
        changes: { scaleWeightKg: 70.6 },
        reason: 'again',
        policy: amendPolicy,
        limits: limits({ amendments: 2 }),
        by: nurse,
      },
      plus(300),
    );
    given(...treated, signed, amended(70.2))
      .when(amend)
      .events();
    given(...treated, signed, amended(70.2), amended(70.3))
      .when(amend)
      .thenError('session-limit-reached', refusedAt('amendments', 2));
    given(...treated, signed, addendum, addendum)
      .when(cmd('AddAddendum', { text: 't', reason: 'r', limits: limits({ addenda: 2 }), by: nurse }, plus(400)))
      .thenError('session-limit-reached', refusedAt('addenda', 2));
  });
});
