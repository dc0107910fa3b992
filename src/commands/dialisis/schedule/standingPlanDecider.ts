// Every rule about a patient's standing plans: an active patient, a shift that runs on those weekdays, and never two
// plans of the patient on one weekday over overlapping dates. Pure.
import { DomainError, notFound, rule, type Decider } from '../../decider.js';
import { FieldChecks, isRealDate } from '../../shared/fieldChecks.js';
import { normalWeekdays, rangesOverlap, requiredText } from './scheduleRules.js';
import type { StandingPlan, StandingPlanCommand, StandingPlanEvent } from './standingPlanEvents.js';
import { PLAN_CATEGORY } from './standingPlanEvents.js';

export interface StandingPlansState {
  plans: Record<string, StandingPlan & { ended: boolean }>;
}

export const initialStandingPlansState: StandingPlansState = { plans: {} };

const rangeOf = (p: Pick<StandingPlan, 'effectiveFrom' | 'effectiveTo'>) => ({ from: p.effectiveFrom, to: p.effectiveTo });

function create(command: Extract<StandingPlanCommand, { type: 'CreateStandingPlan' }>, state: StandingPlansState): StandingPlanEvent[] {
  const { patient, shift, ...asked } = command.data;
  if (state.plans[asked.planId]) return []; // a retry of the same creation
  const weekdays = normalWeekdays(asked.weekdays);
  const checks = new FieldChecks();
  checks.check(patient.exists, 'patientId', 'no such patient in this company');
  checks.check(shift.exists, 'shiftId', 'no such shift in this company');
  checks.check(weekdays.length > 0, 'weekdays', 'must name at least one weekday');
  const offDays = shift.weekdays ? weekdays.filter((d) => !shift.weekdays!.includes(d)) : [];
  checks.check(offDays.length === 0, 'weekdays', `the shift does not run on weekday ${offDays.join(', ')}`);
  checks.check(isRealDate(asked.effectiveFrom), 'effectiveFrom', 'is not a real date');
  if (asked.effectiveTo !== undefined) {
    checks.check(isRealDate(asked.effectiveTo), 'effectiveTo', 'is not a real date');
    checks.check(asked.effectiveTo >= asked.effectiveFrom, 'effectiveTo', 'must not be before effectiveFrom');
  }
  checks.throwIfAny();
  if (patient.status !== 'active') {
    throw rule('patient-not-schedulable', `a patient who is ${patient.status} is never scheduled`, { status: patient.status });
  }
  if (shift.retired) throw rule('shift-retired', 'the shift is retired');
  const plan: StandingPlan = { ...asked, weekdays, locationId: shift.locationId, effectiveTo: asked.effectiveTo ?? null };
  const clash = Object.values(state.plans).find(
    (p) => p.weekdays.some((d) => weekdays.includes(d)) && rangesOverlap(rangeOf(p), rangeOf(plan)),
  );
  if (clash) {
    const days = clash.weekdays.filter((d) => weekdays.includes(d));
    throw rule('plan-overlap', `the patient already has a plan on weekday ${days.join(', ')} over these dates`, {
      existingPlanId: clash.planId,
      weekdays: days,
    });
  }
  return [{ type: 'StandingPlanCreated', data: plan }];
}

function end(command: Extract<StandingPlanCommand, { type: 'EndStandingPlan' }>, state: StandingPlansState): StandingPlanEvent[] {
  const { planId, effectiveTo } = command.data;
  const plan = state.plans[planId];
  if (!plan) throw notFound('standing plan');
  const reason = requiredText(command.data.reason, 'reason');
  if (plan.ended && plan.effectiveTo === effectiveTo) return []; // a retry of the same end
  if (plan.ended) throw rule('plan-ended', 'the plan has already ended', { effectiveTo: plan.effectiveTo });
  const checks = new FieldChecks();
  checks.check(isRealDate(effectiveTo), 'effectiveTo', 'is not a real date');
  checks.check(effectiveTo >= plan.effectiveFrom, 'effectiveTo', 'must not be before the plan took effect');
  // Ending only shortens a plan: a later end would reach dates another plan may hold.
  checks.check(plan.effectiveTo === null || effectiveTo <= plan.effectiveTo, 'effectiveTo', 'must not be after the current end');
  checks.throwIfAny();
  return [{ type: 'StandingPlanEnded', data: { planId, effectiveTo, reason, previousEffectiveTo: plan.effectiveTo } }];
}

export function evolveStandingPlans(state: StandingPlansState, event: StandingPlanEvent): StandingPlansState {
  switch (event.type) {
    case 'StandingPlanCreated':
      return { plans: { ...state.plans, [event.data.planId]: { ...event.data, ended: false } } };
    case 'StandingPlanEnded': {
      const plan = state.plans[event.data.planId];
      if (!plan) return state;
      return { plans: { ...state.plans, [plan.planId]: { ...plan, effectiveTo: event.data.effectiveTo, ended: true } } };
    }
  }
}

function decideStandingPlans(command: StandingPlanCommand, state: StandingPlansState): StandingPlanEvent[] {
  switch (command.type) {
    case 'CreateStandingPlan':
      if (command.data.patientId !== command.aggregateId) throw new DomainError('validation-failed', 'patientId names another stream', 422);
      return create(command, state);
    case 'EndStandingPlan':
      return end(command, state);
  }
}

export const standingPlanDecider: Decider<StandingPlanCommand, StandingPlanEvent, StandingPlansState> = {
  category: PLAN_CATEGORY,
  initialState: initialStandingPlansState,
  evolve: evolveStandingPlans,
  decide: decideStandingPlans,
};
