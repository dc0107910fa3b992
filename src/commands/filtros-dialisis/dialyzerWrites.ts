// Commands on dialyzers as the routes run them: the dialyzer stream, the serial guard that keeps serials unique within
// the company, and the facts other records hand the decider (company policy, the patient, the confirming staff).
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { notFound } from '../decider.js';
import { newId, uuidV5 } from '../eventIds.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import { withClaims, type UniqueGuard } from '../uniqueClaimWrites.js';
import { patientDecider } from '../pacientes/patientDecider.js';
import { byHandContext, mustBeSessionOf, useByHandOf } from '../dialisis/session/sessionReferenceWrites.js';
import { LIMITS } from '../../limits.js';
import type { AppServices } from '../../services.js';
import type { FactLoaders, PolicyFacts } from '../factLoaders.js';
import type { PatientState } from '../pacientes/patientState.js';
import { confirmerFacts, spendConfirmationCodes, type IdentityConfirmation } from './identityConfirmationWrites.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { dialyzerDecider } from './dialyzerDecider.js';
import type { DialyzerState } from './dialyzerState.js';
import {
  dialyzerSerialKey,
  type DialyzerCommand,
  type DialyzerFields,
  type DiscardReason,
  type PatientFacts,
  type PreUseChecksData,
  type ReprocessingData,
} from './dialyzerEvents.js';
import type { ReusePolicy } from './shared/reusePolicy.js';

export const DIALYZER_SERIAL_GUARD: UniqueGuard = {
  decider: uniqueClaimDecider('dialyzerSerial', 'duplicate-serial', 'another dialyzer of this company already has this serial'),
  duplicateCode: 'duplicate-serial',
  holderCategory: dialyzerDecider.category,
  graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
  async heldKey(events, tenantId, holderId) {
    const { state } = await loadAggregate(events, dialyzerDecider, streamName(tenantId, dialyzerDecider.category, holderId));
    return state.fields ? dialyzerSerialKey(state.fields.serial) : null;
  },
};

type Result = CommandResult<DialyzerState>;

/** A dialyzer's writes need the event store and the policy's loader (wired in server.ts), not the whole AppServices. */
export interface DialyzerDeps {
  events: EventStore;
  facts: Pick<FactLoaders, 'policy'>;
}

/** A retried reception (same Idempotency-Key) targets the same dialyzer id; otherwise a fresh one. */
const newDialyzerId = (idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`dialyzer\u0000${idempotencyKey}`) : newId();

const atOf = (ctx: CommandContext): string => ctx.at ?? new Date().toISOString();

export async function receiveDialyzer(
  services: DialyzerDeps,
  ctx: CommandContext,
  data: DialyzerFields,
): Promise<{ dialyzerId: string; result: Result }> {
  const dialyzerId = newDialyzerId(ctx.idempotencyKey);
  const command = { type: 'ReceiveDialyzer' as const, aggregateId: dialyzerId, data };
  // Check the data first (pure), so a refused reception never holds a serial.
  dialyzerDecider.decide({ ...command, at: atOf(ctx), actor: ctx.actor, tenantId: ctx.tenantId }, dialyzerDecider.initialState);
  const claim = { guard: DIALYZER_SERIAL_GUARD, claim: { holderId: dialyzerId, key: dialyzerSerialKey(data.serial) } };
  const result = await withClaims(services.events, ctx, [claim], () =>
    handleCommand(services.events, dialyzerDecider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { dialyzerId, result };
}

/** The patient as this company knows it: one of another company is simply absent. */
async function patientFacts(services: DialyzerDeps, tenantId: string, patientId: string | null): Promise<PatientFacts> {
  if (patientId === null) return { exists: false, active: false, hbsagPositive: false };
  const { state } = await loadAggregate(services.events, patientDecider, streamName(tenantId, patientDecider.category, patientId));
  return patientFactsOf(state);
}

const patientFactsOf = (state: PatientState): PatientFacts => ({
  exists: state.exists,
  active: state.status === 'active',
  hbsagPositive: state.isolation.includes('HBV'),
});

const reusePolicyOf = ({ revision, settings }: PolicyFacts): ReusePolicy => ({ ...settings.dialyzerReuse, revision });

async function reusePolicy(services: DialyzerDeps, tenantId: string): Promise<ReusePolicy> {
  return reusePolicyOf(await services.facts.policy(tenantId));
}

/** What a use, a reprocessing or a session's reservation judges beside the dialyzer itself, gathered once. */
interface DialyzerUseFacts {
  /** Folded from the patient's stream (strong). */
  patient: PatientFacts;
  /** Folded once from the company's policy stream (strong), through the injected loader. */
  policy: ReusePolicy;
}

async function loadUseFacts(services: DialyzerDeps, tenantId: string, patientId: string | null): Promise<DialyzerUseFacts> {
  const [patient, policy] = await Promise.all([patientFacts(services, tenantId, patientId), reusePolicy(services, tenantId)]);
  return { patient, policy };
}

async function dialyzerState(services: DialyzerDeps, tenantId: string, dialyzerId: string): Promise<DialyzerState> {
  const { state } = await loadAggregate(services.events, dialyzerDecider, streamName(tenantId, dialyzerDecider.category, dialyzerId));
  if (!state.exists) throw notFound('dialyzer');
  return state;
}

const send = (
  services: DialyzerDeps,
  ctx: CommandContext,
  command: Omit<DialyzerCommand, 'at' | 'actor' | 'tenantId'>,
  ifMatch: number | null,
) => handleCommand(services.events, dialyzerDecider, command as DialyzerCommand, ctx, { ifMatch });

export async function assignDialyzer(
  services: DialyzerDeps,
  ctx: CommandContext,
  dialyzerId: string,
  data: { patientId: string; baselineTcvMl: number },
  ifMatch: number | null,
): Promise<Result> {
  await dialyzerState(services, ctx.tenantId, dialyzerId);
  const patient = await patientFacts(services, ctx.tenantId, data.patientId);
  return send(services, ctx, { type: 'AssignDialyzer', aggregateId: dialyzerId, data: { ...data, patient } }, ifMatch);
}

export async function reprocessDialyzer(
  services: DialyzerDeps,
  ctx: CommandContext,
  dialyzerId: string,
  data: ReprocessingData,
  ifMatch: number | null,
): Promise<Result> {
  const state = await dialyzerState(services, ctx.tenantId, dialyzerId);
  const { patient, policy } = await loadUseFacts(services, ctx.tenantId, state.patientId);
  return send(services, ctx, { type: 'ReprocessDialyzer', aggregateId: dialyzerId, data: { ...data, patient, policy } }, ifMatch);
}

export type PreUseChecksInput = Omit<PreUseChecksData, 'identityConfirmedBy'> & { identityConfirmations: IdentityConfirmation[] };

/** The pre-use checks: judged first with the people's facts, so a refusal spends no one's code; then each code is spent. */
export async function recordPreUseChecks(
  services: AppServices,
  ctx: CommandContext,
  dialyzerId: string,
  input: PreUseChecksInput,
  ifMatch: number | null,
): Promise<Result> {
  const stream = streamName(ctx.tenantId, dialyzerDecider.category, dialyzerId);
  const { state, revision } = await loadAggregate(services.events, dialyzerDecider, stream);
  if (!state.exists) throw notFound('dialyzer');
  if (ifMatch !== null && ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision); // before any code is spent
  const { identityConfirmations, ...checks } = input;
  const data = { ...checks, identityConfirmedBy: identityConfirmations.map((c) => c.userId) };
  const confirmers = await confirmerFacts(services, ctx, data.identityConfirmedBy, atOf(ctx));
  const command = { type: 'RecordPreUseChecks' as const, aggregateId: dialyzerId, data: { ...data, confirmers } };
  dialyzerDecider.decide({ ...command, at: atOf(ctx), actor: ctx.actor, tenantId: ctx.tenantId }, state);
  await spendConfirmationCodes(services, ctx, identityConfirmations);
  return send(services, ctx, command, ifMatch);
}

export async function recordDialyzerUse(
  services: DialyzerDeps,
  ctx: CommandContext,
  dialyzerId: string,
  data: { sessionId: string; patientId: string },
  ifMatch: number | null,
): Promise<Result> {
  await dialyzerState(services, ctx.tenantId, dialyzerId);
  await mustBeSessionOf(services.events, ctx.tenantId, data); // a session of this company and this patient
  const { patient, policy } = await loadUseFacts(services, ctx.tenantId, data.patientId);
  return send(services, ctx, { type: 'RecordDialyzerUse', aggregateId: dialyzerId, data: { ...data, patient, policy } }, ifMatch);
}

/** A use recorded by hand (back-entry): only for an ended session of this patient that used this dialyzer (useByHand.ts). */
export async function recordDialyzerUseByHand(
  services: DialyzerDeps,
  ctx: CommandContext,
  dialyzerId: string,
  data: { sessionId: string; patientId: string },
  ifMatch: number | null,
): Promise<Result> {
  const state = await dialyzerState(services, ctx.tenantId, dialyzerId);
  const use = await useByHandOf(services.events, ctx.tenantId, data, 'dialyzer', dialyzerId);
  if (use.applied) return { state, revision: -1, position: null, events: [] }; // the session's end already counted it
  return recordDialyzerUse(services, byHandContext(ctx, 'dialyzer', data.sessionId), dialyzerId, data, ifMatch);
}

/** Claims the dialyzer for a session at its start: every pre-use rule judged now; the holder's retry decides nothing. */
export async function reserveDialyzerForSession(
  services: DialyzerDeps,
  ctx: CommandContext,
  dialyzerId: string,
  data: { sessionId: string; patientId: string },
  given?: { patient: PatientState; policy: PolicyFacts },
): Promise<Result> {
  await dialyzerState(services, ctx.tenantId, dialyzerId);
  // The session start hands in the facts it loaded once (startFacts.ts); other callers load them here.
  const { patient, policy } = given
    ? { patient: patientFactsOf(given.patient), policy: reusePolicyOf(given.policy) }
    : await loadUseFacts(services, ctx.tenantId, data.patientId);
  return send(services, ctx, { type: 'ReserveDialyzerForSession', aggregateId: dialyzerId, data: { ...data, patient, policy } }, null);
}

/** Gives back the claim of a session that never started (no use counted); a no-op for any other session. */
export function releaseDialyzerReservation(
  services: DialyzerDeps,
  ctx: CommandContext,
  dialyzerId: string,
  data: { sessionId: string; reason: string },
): Promise<Result> {
  return send(services, ctx, { type: 'ReleaseDialyzerReservation', aggregateId: dialyzerId, data }, null);
}

export function discardDialyzer(
  services: DialyzerDeps,
  ctx: CommandContext,
  dialyzerId: string,
  data: { reason: DiscardReason; note?: string },
  ifMatch: number | null,
): Promise<Result> {
  return send(services, ctx, { type: 'DiscardDialyzer', aggregateId: dialyzerId, data }, ifMatch);
}
