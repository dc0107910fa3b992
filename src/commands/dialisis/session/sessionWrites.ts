// Commands on a session as the routes run them: the session stream, and the facts other records hand the decider
// (who may sign, the step-up code, the company's editing window). Starting a session lives in sessionStartWrites.ts.
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { notFound, rule } from '../../decider.js';
import { newId, uuidV5 } from '../../eventIds.js';
import { confirmStepUp } from '../../platform/stepUpWrites.js';
import type { AppServices } from '../../../services.js';
import { companyPolicy } from '../../../queries/empresas/companyPolicy.js';
import { maySignClinicalRecords } from '../../../queries/colaboradores/maySign.js';
import { streamName } from '../../../stores/eventStore.js';
import { sessionDecider } from './sessionDecider.js';
import type { AmendableBlock, SessionCommand } from './sessionEvents.js';
import type { SessionState } from './sessionState.js';

export type SessionResult = CommandResult<SessionState>;
type Plain = Exclude<SessionCommand, { type: 'ScheduleSession' | 'StartSession' | 'SignSession' | 'ValidateSession' | 'AmendSession' }>;

export const sessionStream = (tenantId: string, sessionId: string): string => streamName(tenantId, sessionDecider.category, sessionId);

export async function sessionState(services: AppServices, tenantId: string, sessionId: string): Promise<SessionState> {
  const { state } = await loadAggregate(services.events, sessionDecider, sessionStream(tenantId, sessionId));
  if (!state.exists) throw notFound('session');
  return state;
}

/** Commands that need nothing but the session's own stream. */
export function sessionCommand(
  services: AppServices,
  ctx: CommandContext,
  sessionId: string,
  command: Pick<Plain, 'type' | 'data'>,
  ifMatch: number | null,
): Promise<SessionResult> {
  return handleCommand(services.events, sessionDecider, { ...command, aggregateId: sessionId }, ctx, { ifMatch });
}

/** Id of an entry added to a session (a reading, a complication, a medication): a retried request reuses it. */
export const entryIdFor = (kind: string, sessionId: string, idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`${kind}\u0000${sessionId}\u0000${idempotencyKey}`) : newId();

/** The signer: a fresh authenticator code (step-up), and a staff record allowed to sign clinical records now. */
async function signerOf(services: AppServices, ctx: CommandContext, code: string): Promise<{ userId: string; staffId: string }> {
  const at = ctx.at ?? services.now().toISOString();
  const verdict = await maySignClinicalRecords({ services, auth: { tenantId: ctx.tenantId } }, ctx.actor, at);
  if (!verdict.allowed || !verdict.staffId) {
    throw rule('signer-may-not-sign', `you may not sign clinical records now: ${verdict.reasons.join(', ')}`, { reasons: verdict.reasons });
  }
  await confirmStepUp(services, ctx.actor, code, { ...ctx, actor: ctx.actor });
  return { userId: ctx.actor, staffId: verdict.staffId };
}

/** The nurse's sign-off (kind 'sign') or the physician's validation (kind 'validate'). */
export async function signSession(
  services: AppServices,
  ctx: CommandContext,
  sessionId: string,
  input: { kind: 'sign' | 'validate'; code: string },
  ifMatch: number | null,
): Promise<SessionResult> {
  const state = await sessionState(services, ctx.tenantId, sessionId);
  // Judge the record first: a refused signature must not spend the person's authenticator code.
  const type = input.kind === 'sign' ? 'SignSession' : 'ValidateSession';
  const probe = {
    type,
    data: { signer: { userId: ctx.actor, staffId: '' } },
    aggregateId: sessionId,
    at: ctx.at ?? services.now().toISOString(),
  };
  sessionDecider.decide({ ...probe, actor: ctx.actor, tenantId: ctx.tenantId } as SessionCommand, state);
  const signer = await signerOf(services, ctx, input.code);
  return handleCommand(services.events, sessionDecider, { type, aggregateId: sessionId, data: { signer } }, ctx, { ifMatch });
}

export async function amendSession(
  services: AppServices,
  ctx: CommandContext,
  sessionId: string,
  input: { block: AmendableBlock; changes: Record<string, unknown>; reason: string },
  ifMatch: number | null,
): Promise<SessionResult> {
  const { revision, settings } = await companyPolicy(services, ctx.tenantId);
  const policy = { revision, signedEditWindowHours: settings.records.signedEditWindowHours };
  const command = { type: 'AmendSession' as const, aggregateId: sessionId, data: { ...input, policy } };
  return handleCommand(services.events, sessionDecider, command, ctx, { ifMatch });
}
