// Commands on job positions as the routes run them: the position stream plus, for creation and code corrections,
// the code guard that keeps codes unique within the company, and the suggested roles checked against the company's
// roles (an injected loader, src/facts/empresas/: read from the companies model).
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { DomainError, notFound } from '../decider.js';
import type { FactLoaders } from '../factLoaders.js';
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

/** A position's writes need the event store and the company's roles (wired in server.ts), not the whole AppServices. */
export interface PositionDeps {
  events: EventStore;
  facts: Pick<FactLoaders, 'unknownRoles'>;
}

/** Suggested roles name roles of this company (built-in or its own): 422 naming suggestedRoles otherwise. */
async function mustBeCompanyRoles(deps: PositionDeps, tenantId: string, roles: readonly string[]): Promise<void> {
  const unknown = await deps.facts.unknownRoles(tenantId, roles);
  if (unknown.length === 0) return;
  const message = `not roles of this company: ${unknown.join(', ')}`;
  throw new DomainError('validation-failed', `suggestedRoles: ${message}`, 422, { errors: [{ field: 'suggestedRoles', message }] });
}

/** A retried creation (same Idempotency-Key) targets the same position id; otherwise a fresh one. */
const newPositionId = (idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`jobPosition\u0000${idempotencyKey}`) : newId();

export async function createJobPosition(
  deps: PositionDeps,
  ctx: CommandContext,
  data: JobPositionFields,
): Promise<{ positionId: string; result: CommandResult<JobPositionState> }> {
  const { events } = deps;
  await mustBeCompanyRoles(deps, ctx.tenantId, data.suggestedRoles);
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
  deps: PositionDeps,
  ctx: CommandContext,
  positionId: string,
  patch: JobPositionPatch,
  ifMatch: number,
): Promise<CommandResult<JobPositionState>> {
  const { events } = deps;
  const command = { type: 'CorrectJobPosition' as const, aggregateId: positionId, data: patch };
  const { state, revision } = await loadAggregate(
    events,
    jobPositionDecider,
    streamName(ctx.tenantId, jobPositionDecider.category, positionId),
  );
  if (patch.suggestedRoles) {
    // Another company's position answers 404 before its body is judged.
    if (revision === -1) throw new DomainError('not-found', 'Job position not found', 404);
    await mustBeCompanyRoles(deps, ctx.tenantId, patch.suggestedRoles);
  }
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
