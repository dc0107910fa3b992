// The payer rules that span records, as reservations (issue 21 item 17, architecture.md "Rules that span aggregates"):
// a session's start under a contract that blocks without authorization reserves the unit on the authorization's own
// stream (its decider judges the last unit at that moment); the start's failure, an interruption without treatment or
// the reconciliation releases it; a manual consumption is judged with what spans the patient's authorizations.
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../handleCommand.js';
import { DomainError, notFound, rule } from '../decider.js';
import { sessionDecider } from '../dialisis/session/sessionDecider.js';
import { sessionStream } from '../dialisis/session/sessionEvents.js';
import { authorizationDecider } from './authorizationDecider.js';
import { holdsUnit, refusalOn, type AuthorizationState } from './shared/authorizationState.js';
import type { PaidSessionFact, PayerFacts } from './authorizationEvents.js';
import { authorizationStream } from './authorizationWrites.js';
import { bestRefusal, candidates, monthlyCapReached, type PayerDeps } from './payerLookupWrites.js';
import { paidByPayer } from './shared/payerBilling.js';
import { LIMITS } from '../../limits.js';

type Result = CommandResult<AuthorizationState>;

/** Every authorization of the patient, of any client, each as its stream leaves it (the read model finds them). */
async function patientAuthorizations(services: PayerDeps, tenantId: string, patientId: string): Promise<AuthorizationState[]> {
  const ids = await services.facts.authorizations.idsOf(tenantId, { patientId }, LIMITS.pagination.maxLimit);
  const stream = (id: string) => authorizationStream(tenantId, id);
  const states = await Promise.all(ids.map(async (id) => (await loadAggregate(services.events, authorizationDecider, stream(id))).state));
  return states.filter((s) => s.terms);
}

/** Who else holds the session (one session, one unit across all the patient's authorizations) and the month's cap. */
async function payerFacts(
  services: PayerDeps,
  tenantId: string,
  mine: AuthorizationState,
  at: { sessionId: string; date: string },
): Promise<PayerFacts> {
  const { authorizationId, clientId, patientId } = mine.terms!;
  const all = (await patientAuthorizations(services, tenantId, patientId)).filter((s) => s.terms!.authorizationId !== authorizationId);
  const heldElsewhere = all.find((s) => holdsUnit(s, at.sessionId))?.terms!.authorizationId ?? null;
  // The session's own unit here is already counted: converting it is never over the cap.
  if (holdsUnit(mine, at.sessionId)) return { heldElsewhere, monthCapReached: false };
  const ofClient = [mine, ...all.filter((s) => s.terms!.clientId === clientId)];
  return { heldElsewhere, monthCapReached: await monthlyCapReached(services, tenantId, clientId, at.date, ofClient, at.sessionId) };
}

/**
 * Reserves one unit of the patient's valid authorization from this client for a session about to start; answers the
 * authorization that holds it. Refused (409, the reason as code) when none can: exhausted, expired, the month's cap.
 */
export async function reserveAuthorization(
  services: PayerDeps,
  ctx: CommandContext,
  input: { patientId: string; clientId: string; date: string; sessionId: string },
): Promise<string> {
  const states = await candidates(services, ctx.tenantId, input.patientId, input.clientId);
  const holder = states.find((s) => holdsUnit(s, input.sessionId));
  let lastRefusal: DomainError | null = null;
  for (const s of holder ? [holder] : states.filter((c) => refusalOn(c, input.date) === null)) {
    const authorizationId = s.terms!.authorizationId;
    const payer = await payerFacts(services, ctx.tenantId, s, input);
    const command = { type: 'ReserveAuthorization' as const, aggregateId: authorizationId, data: { ...input, payer } };
    try {
      await handleCommand(services.events, authorizationDecider, command, ctx);
      return authorizationId;
    } catch (err) {
      // Another start took the last unit meanwhile: the next candidate may still pay.
      if (!(err instanceof DomainError) || err.status !== 409) throw err;
      lastRefusal = err;
    }
  }
  if (lastRefusal) throw lastRefusal;
  const reason = bestRefusal(states, input.date);
  throw rule(reason, `no payer authorization can pay the session: ${reason}`);
}

/** Gives back the unit a session holds (reserved or consumed); nothing when it holds none (a retry, a replay). */
export async function releaseAuthorizationUnit(
  services: PayerDeps,
  ctx: CommandContext,
  authorizationId: string,
  data: { sessionId: string; reason: string },
): Promise<void> {
  const stream = authorizationStream(ctx.tenantId, authorizationId);
  const { state } = await loadAggregate(services.events, authorizationDecider, stream);
  if (!holdsUnit(state, data.sessionId)) return;
  await handleCommand(services.events, authorizationDecider, { type: 'ReleaseAuthorization', aggregateId: authorizationId, data }, ctx);
}

/** The session as a manual consumption names it: whose, which day, and whether it is paid (its treatment ended). */
async function paidSessionFact(services: PayerDeps, tenantId: string, sessionId: string): Promise<PaidSessionFact> {
  const { state } = await loadAggregate(services.events, sessionDecider, sessionStream(tenantId, sessionId));
  if (!state.exists || !state.scheduled) return { exists: false };
  const { patientId, date } = state.scheduled;
  return { exists: true, patientId, date, ended: paidByPayer(state.status, state.effectiveMinutes, state.interrupted) };
}

/** A manual consumption through the client's route: the session read in this company, the patient's other units. */
export async function consumeForSession(
  services: PayerDeps,
  ctx: CommandContext,
  clientId: string,
  authorizationId: string,
  body: { sessionId: string; date: string },
  ifMatch: number | null,
): Promise<Result> {
  const { state } = await loadAggregate(services.events, authorizationDecider, authorizationStream(ctx.tenantId, authorizationId));
  if (state.terms?.clientId !== clientId) throw notFound('authorization');
  const session = await paidSessionFact(services, ctx.tenantId, body.sessionId);
  const payer = await payerFacts(services, ctx.tenantId, state, body);
  const command = { type: 'ConsumeAuthorization' as const, aggregateId: authorizationId, data: { ...body, session, payer } };
  return handleCommand(services.events, authorizationDecider, command, ctx, { ifMatch });
}

/** Gives back every unit a session reserved and will never consume (interrupted before any treatment); their ids. */
export async function releaseReservedUnits(
  services: PayerDeps,
  ctx: CommandContext,
  input: { patientId: string; sessionId: string; reason: string },
): Promise<string[]> {
  const states = await patientAuthorizations(services, ctx.tenantId, input.patientId);
  const held = states.filter((s) => s.reservations[input.sessionId] !== undefined).map((s) => s.terms!.authorizationId);
  for (const id of held) await releaseAuthorizationUnit(services, ctx, id, { sessionId: input.sessionId, reason: input.reason });
  return held;
}
