// Shift and standing-plan commands as the routes run them: each gathers the facts its decider needs, then appends.
import { handleCommand, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { newId, uuidV5 } from '../../eventIds.js';
import type { AppServices } from '../../../services.js';
import { companyPolicy } from '../../../queries/empresas/companyPolicy.js';
import type { IsoWeekday, ShiftFields, ShiftPatch } from './shiftEvents.js';
import { shiftDecider, type ShiftState } from './shiftDecider.js';
import { standingPlanDecider, type StandingPlansState } from './standingPlanDecider.js';
import { locationFacts, patientFacts, shiftOf } from './scheduleFactWrites.js';

/** A retried creation (same Idempotency-Key) names the same id; otherwise a fresh one. */
const newIdFor = (kind: string, idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`${kind}\u0000${idempotencyKey}`) : newId();

export type ShiftInput = Omit<ShiftFields, 'capacity'> & { capacity?: number };

export async function defineShift(
  services: AppServices,
  ctx: CommandContext,
  input: ShiftInput,
): Promise<{ shiftId: string; result: CommandResult<ShiftState> }> {
  const shiftId = newIdFor('shift', ctx.idempotencyKey);
  const [location, policy] = await Promise.all([
    locationFacts(services.events, ctx.tenantId, input.locationId),
    companyPolicy(services, ctx.tenantId),
  ]);
  const data = { ...input, location, policy: { revision: policy.revision, defaultCapacity: policy.settings.shifts.defaultCapacity } };
  const result = await handleCommand(services.events, shiftDecider, { type: 'DefineShift', aggregateId: shiftId, data }, ctx, {
    expectNew: true,
    assumeNew: true,
  });
  return { shiftId, result };
}

/** A correction under If-Match; a new location must be one of this company's, open. */
export async function correctShift(
  services: AppServices,
  ctx: CommandContext,
  shiftId: string,
  patch: ShiftPatch,
  ifMatch: number,
): Promise<CommandResult<ShiftState>> {
  const location = patch.locationId ? await locationFacts(services.events, ctx.tenantId, patch.locationId) : undefined;
  const data = { ...patch, ...(location ? { location } : {}) };
  return handleCommand(services.events, shiftDecider, { type: 'CorrectShift', aggregateId: shiftId, data }, ctx, { ifMatch });
}

export function retireShift(
  services: AppServices,
  ctx: CommandContext,
  shiftId: string,
  reason: string,
  ifMatch: number | null,
): Promise<CommandResult<ShiftState>> {
  return handleCommand(services.events, shiftDecider, { type: 'RetireShift', aggregateId: shiftId, data: { reason } }, ctx, { ifMatch });
}

export interface PlanInput {
  patientId: string;
  shiftId: string;
  weekdays: IsoWeekday[];
  effectiveFrom: string;
  effectiveTo?: string;
}

/** A plan goes to its patient's plan stream, where the overlap rule sees every other plan of that patient. */
export async function createStandingPlan(
  services: AppServices,
  ctx: CommandContext,
  input: PlanInput,
): Promise<{ planId: string; result: CommandResult<StandingPlansState> }> {
  const planId = newIdFor('standingPlan', ctx.idempotencyKey);
  const [patient, { state: shift }] = await Promise.all([
    patientFacts(services.events, ctx.tenantId, input.patientId),
    shiftOf(services.events, ctx.tenantId, input.shiftId),
  ]);
  const shiftFacts = {
    exists: shift.exists,
    retired: shift.retired,
    locationId: shift.fields?.locationId ?? '',
    ...(shift.fields?.weekdays ? { weekdays: shift.fields.weekdays } : {}),
  };
  const data = { ...input, planId, patient, shift: shiftFacts };
  const result = await handleCommand(
    services.events,
    standingPlanDecider,
    { type: 'CreateStandingPlan', aggregateId: input.patientId, data },
    ctx,
  );
  return { planId, result };
}

export function endStandingPlan(
  services: AppServices,
  ctx: CommandContext,
  plan: { planId: string; patientId: string },
  input: { effectiveTo: string; reason: string },
): Promise<CommandResult<StandingPlansState>> {
  return handleCommand(
    services.events,
    standingPlanDecider,
    { type: 'EndStandingPlan', aggregateId: plan.patientId, data: { planId: plan.planId, ...input } },
    ctx,
  );
}
