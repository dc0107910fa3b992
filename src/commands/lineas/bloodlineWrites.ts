// Commands on bloodlines as the routes run them: the serial guard on reception, the company policy and patient facts
// handed to the decider, and the pairing that writes both lines' streams.
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../handleCommand.js';
import { notFound } from '../decider.js';
import { invalidFields } from '../shared/fieldChecks.js';
import { byHandContext, mustBeSessionOf, useByHandOf } from '../dialisis/session/sessionReferenceWrites.js';
import { newId, uuidV5 } from '../eventIds.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import { withClaims, type UniqueGuard } from '../uniqueClaimWrites.js';
import { patientDecider } from '../pacientes/patientDecider.js';
import { LIMITS } from '../../limits.js';
import type { FactLoaders, PolicyFacts } from '../factLoaders.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { bloodlineDecider, usable, type BloodlineState } from './bloodlineDecider.js';
import {
  lineSerialKey,
  type BloodlineCommand,
  type LineFields,
  type LinePolicyFacts,
  type LineType,
  type ResidualResult,
} from './bloodlineEvents.js';
import { minDwellHoursFor } from '../filtros-dialisis/shared/reusePolicy.js';

type Result = CommandResult<BloodlineState>;

const guards = new Map<LineType, UniqueGuard>();

/** Serials are unique per company and kind: one guard category per kind. */
export function serialGuard(lineType: LineType): UniqueGuard {
  let guard = guards.get(lineType);
  if (!guard) {
    const decider = bloodlineDecider(lineType);
    guard = {
      decider: uniqueClaimDecider(
        `${decider.category}Serial`,
        'duplicate-serial',
        `another ${lineType} line of this company has this serial`,
      ),
      duplicateCode: 'duplicate-serial',
      holderCategory: decider.category,
      graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
      async heldKey(events, tenantId, holderId) {
        const held = await events.readStream(streamName(tenantId, decider.category, holderId), { maxCount: 1 });
        const serial = (held[0]?.data as { serial?: string } | undefined)?.serial;
        return serial === undefined ? null : lineSerialKey(serial);
      },
    };
    guards.set(lineType, guard);
  }
  return guard;
}

/** A line's writes need the event store and the company policy's loader (wired in server.ts), not the whole AppServices. */
export interface LineDeps {
  events: EventStore;
  facts: Pick<FactLoaders, 'policy'>;
}

const stream = (tenantId: string, lineType: LineType, id: string): string => streamName(tenantId, bloodlineDecider(lineType).category, id);

/** The bloodline policy; a disinfectant's minimum dwell comes from the dialyzer reuse germicide table (domain.md 3.3). */
async function linePolicy(deps: LineDeps, tenantId: string, disinfectant?: string): Promise<LinePolicyFacts> {
  return linePolicyOf(await deps.facts.policy(tenantId), disinfectant);
}

function linePolicyOf({ revision, settings }: PolicyFacts, disinfectant?: string): LinePolicyFacts {
  const reuse = settings.dialyzerReuse;
  return {
    revision,
    enabled: settings.bloodlineReuse.enabled,
    maxUses: settings.bloodlineReuse.maxUses,
    hbsagPositiveReuse: reuse.hbsagPositiveReuse,
    ...(disinfectant !== undefined ? { minDwellHours: minDwellHoursFor(disinfectant, { ...reuse, revision }) } : {}),
  };
}

function run(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  command: Omit<BloodlineCommand, 'at' | 'actor' | 'tenantId' | 'aggregateId'>,
  ifMatch: number | null = null,
): Promise<Result> {
  return handleCommand(services.events, bloodlineDecider(lineType), { ...command, aggregateId: id }, ctx, { ifMatch });
}

export async function receiveBloodline(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  data: LineFields,
): Promise<{ lineId: string; result: Result }> {
  const lineId = ctx.idempotencyKey ? uuidV5(`bloodline\u0000${lineType}\u0000${ctx.idempotencyKey}`) : newId();
  const decider = bloodlineDecider(lineType);
  const command = { type: 'ReceiveBloodline' as const, aggregateId: lineId, data: { ...data, lineType } };
  // Judge the data first (pure), so a refused reception never holds a serial.
  decider.decide({ ...command, at: ctx.at ?? new Date().toISOString(), actor: ctx.actor, tenantId: ctx.tenantId }, decider.initialState);
  const claim = { guard: serialGuard(lineType), claim: { holderId: lineId, key: lineSerialKey(data.serial) } };
  const result = await withClaims(services.events, ctx, [claim], () =>
    handleCommand(services.events, decider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { lineId, result };
}

export async function assignBloodline(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  patientId: string,
  ifMatch: number | null,
): Promise<Result> {
  // A patient of another company is simply absent: its stream is under that company's prefix.
  const { state } = await loadAggregate(services.events, patientDecider, streamName(ctx.tenantId, 'patient', patientId));
  const patient = { exists: state.exists, active: state.status === 'active' };
  const policy = await linePolicy(services, ctx.tenantId);
  return run(services, ctx, lineType, id, { type: 'AssignBloodline', data: { patientId, patient, policy } }, ifMatch);
}

export async function recordBloodlineUse(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  data: { sessionId: string; patientId: string },
  ifMatch: number | null,
): Promise<Result> {
  // The line first (another company's is a 404), then the session it names: of this company and this patient.
  const line = await services.events.readStream(stream(ctx.tenantId, lineType, id), { maxCount: 1 });
  if (line.length === 0) throw notFound('bloodline');
  await mustBeSessionOf(services.events, ctx.tenantId, data);
  const policy = await linePolicy(services, ctx.tenantId);
  return run(services, ctx, lineType, id, { type: 'RecordBloodlineUse', data: { ...data, policy } }, ifMatch);
}

/** A use recorded by hand (back-entry): only for an ended session of this patient that used this line (useByHand.ts). */
export async function recordBloodlineUseByHand(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  data: { sessionId: string; patientId: string },
  ifMatch: number | null,
): Promise<Result> {
  const line = await services.events.readStream(stream(ctx.tenantId, lineType, id), { maxCount: 1 });
  if (line.length === 0) throw notFound('bloodline');
  const use = await useByHandOf(services.events, ctx.tenantId, data, lineType, id);
  if (use.applied) {
    const { state, revision } = await loadAggregate(services.events, bloodlineDecider(lineType), stream(ctx.tenantId, lineType, id));
    return { state, revision, position: null, events: [] }; // the session's end already counted it
  }
  return recordBloodlineUse(services, byHandContext(ctx, lineType, data.sessionId), lineType, id, data, ifMatch);
}

/** Claims the line for a session at its start (every rule of a use judged now); the holder's retry decides nothing. */
export async function reserveBloodlineForSession(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  data: { sessionId: string; patientId: string },
  given?: PolicyFacts,
): Promise<Result> {
  // The session start hands in the policy it folded once (startFacts.ts); other callers fold it here.
  const policy = given ? linePolicyOf(given) : await linePolicy(services, ctx.tenantId);
  return run(services, ctx, lineType, id, { type: 'ReserveBloodlineForSession', data: { ...data, policy } });
}

/** Gives back the claim of a session that never started (no use counted); a no-op for any other session. */
export function releaseBloodlineReservation(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  data: { sessionId: string; reason: string },
): Promise<Result> {
  return run(services, ctx, lineType, id, { type: 'ReleaseBloodlineReservation', data });
}

export async function reprocessBloodline(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  data: { disinfectant: string; integrity: 'passed' | 'leak' | 'kinked-or-cracked' | 'clotted'; fillTime?: string },
  ifMatch: number | null,
): Promise<Result> {
  const { state } = await loadAggregate(services.events, bloodlineDecider(lineType), stream(ctx.tenantId, lineType, id));
  if (!state.exists) throw notFound('bloodline');
  // HBsAg positive = the owner's isolation includes HBV (as for dialyzers).
  const owner = state.patientId
    ? (await loadAggregate(services.events, patientDecider, streamName(ctx.tenantId, 'patient', state.patientId))).state
    : null;
  const patient = { hbsagPositive: owner?.isolation.includes('HBV') ?? false };
  const policy = await linePolicy(services, ctx.tenantId, data.disinfectant.trim());
  return run(services, ctx, lineType, id, { type: 'ReprocessBloodline', data: { ...data, policy, patient } }, ifMatch);
}

export function recordResidualTest(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  data: { result: ResidualResult },
  ifMatch: number | null,
): Promise<Result> {
  return run(services, ctx, lineType, id, { type: 'RecordBloodlineResidualTest', data }, ifMatch);
}

export function discardBloodline(
  services: LineDeps,
  ctx: CommandContext,
  lineType: LineType,
  id: string,
  data: Extract<BloodlineCommand, { type: 'DiscardBloodline' }>['data'],
  ifMatch: number | null,
): Promise<Result> {
  return run(services, ctx, lineType, id, { type: 'DiscardBloodline', data }, ifMatch);
}

/**
 * Pairs an arterial line with a venous line. No multi-stream transaction exists (architecture.md): the arterial stream
 * is written first, then the venous one; if the venous step is refused the arterial pairing is undone (compensation),
 * and a retry is idempotent on both sides (a line already paired with this partner decides nothing).
 */
export async function pairBloodlines(
  services: LineDeps,
  ctx: CommandContext,
  arterialId: string,
  venousId: string,
  ifMatch: number | null,
): Promise<Result> {
  const events: EventStore = services.events;
  const arterial = await loadAggregate(events, bloodlineDecider('arterial'), stream(ctx.tenantId, 'arterial', arterialId));
  const venous = await loadAggregate(events, bloodlineDecider('venous'), stream(ctx.tenantId, 'venous', venousId));
  if (arterial.state.exists && !venous.state.exists)
    throw invalidFields([{ field: 'venosaId', message: 'no such venous line in this company' }]);
  const factsOf = (s: BloodlineState) => ({ patientId: s.patientId, usable: usable(s) });
  const first = await run(
    services,
    ctx,
    'arterial',
    arterialId,
    { type: 'PairBloodline', data: { partnerId: venousId, partner: factsOf(venous.state) } },
    ifMatch,
  );
  let second: Result;
  try {
    second = await run(services, ctx, 'venous', venousId, {
      type: 'PairBloodline',
      data: { partnerId: arterialId, partner: factsOf(first.state) },
    });
  } catch (err) {
    if (first.events.length > 0) {
      await run(services, { ...ctx, idempotencyKey: null }, 'arterial', arterialId, {
        type: 'UndoBloodlinePairing',
        data: { partnerId: venousId },
      });
    }
    throw err;
  }
  // The answer's position is the venous write's (the later one), so reading it back sees both sides.
  return { ...first, position: second.position ?? first.position };
}
