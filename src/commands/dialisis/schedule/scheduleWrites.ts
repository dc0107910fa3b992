// Shift and standing-plan commands as the routes run them: each gathers the facts its decider needs (scheduleFacts.ts,
// scheduleFactWrites.ts), then appends.
import { handleCommand, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { newId, uuidV5 } from '../../eventIds.js';
import type { IsoWeekday, ShiftFields, ShiftPatch } from './shiftEvents.js';
import { shiftDecider, type ShiftState } from './shiftDecider.js';
import { standingPlanDecider, type StandingPlansState } from './standingPlanDecider.js';
import { locationFacts, patientFacts, shiftOf } from './scheduleFactWrites.js';
import type { ScheduleDeps } from './seatWrites.js';

/** A retried creation (same Idempotency-Key) names the same id; otherwise a fresh one. */
const newIdFor = (kind: string, idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`${kind}\u0000${idempotencyKey}`) : newId();

export type ShiftInput = Omit<ShiftFields, 'capacity'> & { capacity?: number };

export async function defineShift(
  deps: Pick<ScheduleDeps, 'events' | 'facts'>,
  ctx: CommandContext,
  input: ShiftInput,
): Promise<{ shiftId: string; result: CommandResult<ShiftState> }> {
  const shiftId = newIdFor('shift', ctx.idempotencyKey);
  const [location, policy] = await Promise.all([
    locationFacts(deps.events, ctx.tenantId, input.locationId),
    deps.facts.policy(ctx.tenantId),
  ]);
  const data = { ...input, location, policy: { revision: policy.revision, defaultCapacity: policy.settings.shifts.defaultCapacity } };
  const result = await handleCommand(deps.events, shiftDecider, { type: 'DefineShift', aggregateId: shiftId, data }, ctx, {
    expectNew: true,
    assumeNew: true,
  });
  return { shiftId, result };
}

/** A correction under If-Match; a new location must be one of this company's, open. */
export async function correctShift(
  deps: Pick<ScheduleDeps, 'events'>,
  ctx: CommandContext,
  shiftId: string,
  patch: ShiftPatch,
  ifMatch: number,
): Promise<CommandResult<ShiftState>> {
  const location = patch.locationId ? await locationFacts(deps.events, ctx.tenantId, patch.locationId) : undefined;
  const data = { ...patch, ...(location ? { location } : {}) };
  return handleCommand(deps.events, shiftDecider, { type: 'CorrectShift', aggregateId: shiftId, data }, ctx, { ifMatch });
}

export function retireShift(
  deps: Pick<ScheduleDeps, 'events'>,
  ctx: CommandContext,
  shiftId: string,
  reason: string,
  ifMatch: number | null,
): Promise<CommandResult<ShiftState>> {
  return handleCommand(deps.events, shiftDecider, { type: 'RetireShift', aggregateId: shiftId, data: { reason } }, ctx, { ifMatch });
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
  deps: Pick<ScheduleDeps, 'events'>,
  ctx: CommandContext,
  input: PlanInput,
): Promise<{ planId: string; result: CommandResult<StandingPlansState> }> {
  const planId = newIdFor('standingPlan', ctx.idempotencyKey);
  const [patient, { state: shift }] = await Promise.all([
    patientFacts(deps.events, ctx.tenantId, input.patientId),
    shiftOf(deps.events, ctx.tenantId, input.shiftId),
  ]);
  const shiftFacts = {
    exists: shift.exists,
    retired: shift.retired,
    locationId: shift.fields?.locationId ?? '',
    ...(shift.fields?.weekdays ? { weekdays: shift.fields.weekdays } : {}),
  };
  const data = { ...input, planId, patient, shift: shiftFacts };
  const result = await handleCommand(
    deps.events,
    standingPlanDecider,
    { type: 'CreateStandingPlan', aggregateId: input.patientId, data },
    ctx,
  );
  return { planId, result };
}

export function endStandingPlan(
  deps: Pick<ScheduleDeps, 'events'>,
  ctx: CommandContext,
  plan: { planId: string; patientId: string },
  input: { effectiveTo: string; reason: string },
): Promise<CommandResult<StandingPlansState>> {
  return handleCommand(
    deps.events,
    standingPlanDecider,
    { type: 'EndStandingPlan', aggregateId: plan.patientId, data: { planId: plan.planId, ...input } },
    ctx,
  );
}
