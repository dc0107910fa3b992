// Standing plans of one patient (stream `<tenant>.standingPlans-<patientId>`): every plan of the patient in one stream,
// so "no two plans on the same weekday at the same time" is one decider's rule.
import type { CommandEnvelope, DecidedEvent } from '../../decider.js';
import type { IsoWeekday } from './shiftEvents.js';
import { streamName } from '../../../stores/streamNames.js';

/** The category of the standing plan streams: written once, here (the decider, the writes and the read side take it). */
export const PLAN_CATEGORY = 'standingPlans';
/** One stream per patient: the patient's standing plans. */
export const standingPlanStream = (tenantId: string, patientId: string): string => streamName(tenantId, PLAN_CATEGORY, patientId);

export type StandingPlan = {
  planId: string;
  patientId: string;
  shiftId: string;
  locationId: string;
  weekdays: IsoWeekday[];
  effectiveFrom: string;
  /** Last day of the plan (inclusive); null = open-ended. */
  effectiveTo: string | null;
};

/** The patient and the shift as the write found them (absent = not of this company). */
export type PlanFacts = {
  patient: { exists: boolean; status: string };
  shift: { exists: boolean; retired: boolean; locationId: string; weekdays?: IsoWeekday[] };
};

export type StandingPlanCommand =
  | CommandEnvelope<'CreateStandingPlan', Omit<StandingPlan, 'locationId' | 'effectiveTo'> & { effectiveTo?: string } & PlanFacts>
  | CommandEnvelope<'EndStandingPlan', { planId: string; effectiveTo: string; reason: string }>;

export type StandingPlanEvent =
  | DecidedEvent<'StandingPlanCreated', StandingPlan>
  | DecidedEvent<'StandingPlanEnded', { planId: string; effectiveTo: string; reason: string; previousEffectiveTo: string | null }>;

export const STANDING_PLAN_EVENT_TYPES: readonly StandingPlanEvent['type'][] = ['StandingPlanCreated', 'StandingPlanEnded'];
