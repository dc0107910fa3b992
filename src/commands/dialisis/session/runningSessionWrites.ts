// The patient's running-session reservation as the start and the end run it (runningSessionDecider.ts): who holds it,
// the claim with the facts about its holder, and the release.
import { handleCommand, loadAggregate, type CommandContext } from '../../handleCommand.js';
import { LIMITS } from '../../../limits.js';
import type { AppServices } from '../../../services.js';
import { streamName } from '../../../stores/eventStore.js';
import { sessionDecider } from './sessionDecider.js';
import { chartedBefore, runningSessionDecider, type HolderFacts } from './runningSessionDecider.js';

const guardStream = (tenantId: string, patientId: string): string => streamName(tenantId, runningSessionDecider.category, patientId);

/** The session holding the patient's claim and its status now, or null when the patient is free. */
async function holderFacts(services: AppServices, tenantId: string, patientId: string): Promise<HolderFacts | null> {
  return (await guardFacts(services, tenantId, patientId)).holder;
}

/** Facts of the holder and of the session charted beside it (issue 21 item 1). */
async function guardFacts(
  services: AppServices,
  tenantId: string,
  patientId: string,
): Promise<{ holder: HolderFacts | null; charting: HolderFacts | null }> {
  const { state } = await loadAggregate(services.events, runningSessionDecider, guardStream(tenantId, patientId));
  const factsOf = (c: { sessionId: string } | null | undefined): Promise<HolderFacts | null> =>
    c ? sessionFacts(services, tenantId, c.sessionId) : Promise.resolve(null);
  const [holder, charting] = await Promise.all([factsOf(state.holder), factsOf(state.charting)]);
  return { holder, charting };
}

async function sessionFacts(services: AppServices, tenantId: string, sessionId: string): Promise<HolderFacts> {
  const { state: session } = await loadAggregate(services.events, sessionDecider, streamName(tenantId, sessionDecider.category, sessionId));
  const status = session.exists ? session.status : null;
  return { sessionId, status, startedAt: session.startedAt, graceSeconds: LIMITS.sessionClaims.orphanGraceSeconds };
}

/**
 * Another session of the patient holding the claim now (for the start's judged-first refusal), or null; a start stated
 * before that one began (a session charted after the fact) does not overlap it.
 */
export async function otherRunningSession(
  services: AppServices,
  tenantId: string,
  patientId: string,
  sessionId: string,
  statedStart?: string,
): Promise<string | null> {
  const { holder: facts, charting } = await guardFacts(services, tenantId, patientId);
  const runs = (f: HolderFacts | null): f is HolderFacts =>
    !!f && f.sessionId !== sessionId && (f.status === 'in-progress' || f.status === 'paused');
  // Charted beside the running one: one at a time.
  if (facts && chartedBefore(statedStart, facts)) return runs(charting) ? charting.sessionId : null;
  return runs(facts) ? facts.sessionId : null;
}

/** The start of the patient's running session other than this one, when this one began before it; else null. */
export async function runningSinceAfter(
  services: AppServices,
  tenantId: string,
  patientId: string,
  session: { sessionId: string; startedAt: string | null },
): Promise<string | null> {
  const facts = await holderFacts(services, tenantId, patientId);
  if (!facts || facts.sessionId === session.sessionId || !session.startedAt) return null;
  return chartedBefore(session.startedAt, facts) ? facts.startedAt! : null;
}

/** Claims the patient for this session (409 patient-session-in-progress while another one runs). */
export async function claimRunningSession(
  services: AppServices,
  ctx: CommandContext,
  patientId: string,
  sessionId: string,
  statedStart?: string,
): Promise<void> {
  const { holder, charting } = await guardFacts(services, ctx.tenantId, patientId);
  const data = {
    sessionId,
    ...(holder ? { holder } : {}),
    ...(charting ? { charting } : {}),
    ...(statedStart ? { startedAt: statedStart } : {}),
  };
  await handleCommand(services.events, runningSessionDecider, { type: 'ClaimRunningSession', aggregateId: patientId, data }, ctx);
}

/** Gives the claim back; nothing when this session does not hold it. */
export async function releaseRunningSession(
  services: AppServices,
  ctx: CommandContext,
  patientId: string,
  sessionId: string,
  reason: string,
): Promise<void> {
  // No idempotency key: the claim may carry the same one, and a keyed release would take it for its own retry.
  const command = { type: 'ReleaseRunningSession' as const, aggregateId: patientId, data: { sessionId, reason } };
  await handleCommand(services.events, runningSessionDecider, command, { ...ctx, idempotencyKey: null });
}
