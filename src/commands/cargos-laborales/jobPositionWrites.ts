// Commands on job positions as the routes run them: the position stream plus, for creation and code corrections,
// the code guard that keeps codes unique within the company.
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { notFound } from '../decider.js';
import { newId, uuidV5 } from '../eventIds.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import { releaseClaim, withClaims, type UniqueGuard } from '../uniqueClaimWrites.js';
import { LIMITS } from '../../limits.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { jobPositionDecider, type JobPositionState } from './jobPositionDecider.js';
import { positionCodeKey, type JobPositionFields, type JobPositionPatch } from './jobPositionEvents.js';

export const POSITION_CODE_GUARD: UniqueGuard = {
  decider: uniqueClaimDecider('jobPositionCode', 'duplicate-code', 'another job position of this company already has this code'),
  duplicateCode: 'duplicate-code',
  holderCategory: jobPositionDecider.category,
  graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
  async heldKey(events, tenantId, holderId) {
    const { state } = await loadAggregate(events, jobPositionDecider, streamName(tenantId, jobPositionDecider.category, holderId));
    return state.fields ? positionCodeKey(state.fields.code) : null;
  },
};

/** A retried creation (same Idempotency-Key) targets the same position id; otherwise a fresh one. */
const newPositionId = (idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`jobPosition\u0000${idempotencyKey}`) : newId();

export async function createJobPosition(
  events: EventStore,
  ctx: CommandContext,
  data: JobPositionFields,
): Promise<{ positionId: string; result: CommandResult<JobPositionState> }> {
  const positionId = newPositionId(ctx.idempotencyKey);
  const command = { type: 'CreateJobPosition' as const, aggregateId: positionId, data };
  // Check the data first (pure), so a refused creation never holds a code.
  jobPositionDecider.decide(
    { ...command, at: ctx.at ?? new Date().toISOString(), actor: ctx.actor, tenantId: ctx.tenantId },
    jobPositionDecider.initialState,
  );
  const claim = { guard: POSITION_CODE_GUARD, claim: { holderId: positionId, key: positionCodeKey(data.code) } };
  const result = await withClaims(events, ctx, [claim], () =>
    handleCommand(events, jobPositionDecider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { positionId, result };
}

/** A correction; when it changes the code, the new code is claimed first and the old one released after. */
export async function correctJobPosition(
  events: EventStore,
  ctx: CommandContext,
  positionId: string,
  patch: JobPositionPatch,
  ifMatch: number,
): Promise<CommandResult<JobPositionState>> {
  const command = { type: 'CorrectJobPosition' as const, aggregateId: positionId, data: patch };
  const { state, revision } = await loadAggregate(
    events,
    jobPositionDecider,
    streamName(ctx.tenantId, jobPositionDecider.category, positionId),
  );
  if (!state.exists || !state.fields) throw notFound('job position');
  if (ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  const before = positionCodeKey(state.fields.code);
  const after = patch.code === undefined ? before : positionCodeKey(patch.code);
  if (after === before) return handleCommand(events, jobPositionDecider, command, ctx, { ifMatch });
  const claim = { guard: POSITION_CODE_GUARD, claim: { holderId: positionId, key: after } };
  const result = await withClaims(events, ctx, [claim], () => handleCommand(events, jobPositionDecider, command, ctx, { ifMatch }));
  await releaseClaim(events, ctx, POSITION_CODE_GUARD, { holderId: positionId, key: before });
  return result;
}

export function changePositionStatus(
  events: EventStore,
  ctx: CommandContext,
  positionId: string,
  type: 'DeactivateJobPosition' | 'ReactivateJobPosition',
  reason: string,
  ifMatch: number | null,
): Promise<CommandResult<JobPositionState>> {
  return handleCommand(events, jobPositionDecider, { type, aggregateId: positionId, data: { reason } }, ctx, { ifMatch });
}
