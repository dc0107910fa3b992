// Given a patient's plans / when a plan is created or ended / then events or a refusal: never two plans of the patient
// on one weekday over overlapping dates; only active patients; only weekdays the shift runs.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { standingPlanDecider } from './standingPlanDecider.js';
import type { PlanFacts, StandingPlan, StandingPlanCommand, StandingPlanEvent } from './standingPlanEvents.js';

const given = scenario(standingPlanDecider);
const T0 = '2025-03-01T08:00:00.000Z';
const facts: PlanFacts = {
  patient: { exists: true, status: 'active' },
  shift: { exists: true, retired: false, locationId: 'l1', weekdays: [1, 2, 3, 4, 5, 6] },
};
const cmd = (type: StandingPlanCommand['type'], data: unknown): StandingPlanCommand =>
  ({ type, data, at: T0, actor: 'u1', aggregateId: 'p1', tenantId: 't1' }) as StandingPlanCommand;
const create = (planId: string, weekdays: number[], from = '2025-03-03', to?: string, more: Partial<PlanFacts> = {}) =>
  cmd('CreateStandingPlan', {
    planId,
    patientId: 'p1',
    shiftId: 'sh1',
    weekdays,
    effectiveFrom: from,
    ...(to ? { effectiveTo: to } : {}),
    ...facts,
    ...more,
  });
const plan = (planId: string, weekdays: number[], from = '2025-03-03', to: string | null = null): StandingPlan =>
  ({ planId, patientId: 'p1', shiftId: 'sh1', locationId: 'l1', weekdays, effectiveFrom: from, effectiveTo: to }) as StandingPlan;
const created = (p: StandingPlan): StandingPlanEvent => ({ type: 'StandingPlanCreated', data: p });

describe('Standing plans of a patient', () => {
  it('creates a plan with its weekdays in order, each once', () => {
    given()
      .when(create('a', [5, 1, 3, 1]))
      .then(created(plan('a', [1, 3, 5])));
  });

  it('refuses a second plan on a shared weekday over overlapping dates', () => {
    given(created(plan('a', [1, 3, 5])))
      .when(create('b', [2, 5]))
      .thenError('plan-overlap', (e) => assert.deepEqual(e.details?.weekdays, [5]));
  });

  it('accepts other weekdays, and the same weekday once the first plan has ended', () => {
    given(created(plan('a', [1, 3, 5])))
      .when(create('b', [2, 4, 6]))
      .then(created(plan('b', [2, 4, 6])));
    const ended: StandingPlanEvent = {
      type: 'StandingPlanEnded',
      data: { planId: 'a', effectiveTo: '2025-03-31', reason: 'moved shift', previousEffectiveTo: null },
    };
    given(created(plan('a', [1, 3, 5])), ended)
      .when(create('b', [1, 3, 5], '2025-04-01'))
      .then(created(plan('b', [1, 3, 5], '2025-04-01')));
    given(created(plan('a', [1, 3, 5])), ended)
      .when(create('b', [1], '2025-03-31'))
      .thenError('plan-overlap');
  });

  it('never plans a patient who is not active, and only on weekdays the shift runs', () => {
    given()
      .when(create('a', [1], '2025-03-03', undefined, { patient: { exists: true, status: 'discharged' } }))
      .thenError('patient-not-schedulable');
    given()
      .when(create('a', [7]))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['weekdays']));
    given()
      .when(create('a', [1], '2025-03-10', '2025-03-01'))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['effectiveTo']));
  });

  it('ends a plan with a reason; ending it again the same way changes nothing, another way is refused', () => {
    const end = (to: string) => cmd('EndStandingPlan', { planId: 'a', effectiveTo: to, reason: 'transplant' });
    const endedEvent: StandingPlanEvent = {
      type: 'StandingPlanEnded',
      data: { planId: 'a', effectiveTo: '2025-03-31', reason: 'transplant', previousEffectiveTo: null },
    };
    given(created(plan('a', [1])))
      .when(end('2025-03-31'))
      .then(endedEvent);
    given(created(plan('a', [1])), endedEvent)
      .when(end('2025-03-31'))
      .then();
    given(created(plan('a', [1])), endedEvent)
      .when(end('2025-03-20'))
      .thenError('plan-ended');
    given().when(end('2025-03-31')).thenError('not-found');
  });
});
