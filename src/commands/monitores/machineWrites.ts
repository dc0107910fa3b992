// Commands on machines as the routes run them: the machine stream, the code and serial guards, and the facts the
// decider needs from elsewhere (the company policy, the patient of a session).
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { DomainError, notFound } from '../decider.js';
import { newId, uuidV5 } from '../eventIds.js';
import { releaseClaim, withClaims } from '../uniqueClaimWrites.js';
import { patientDecider } from '../pacientes/patientDecider.js';
import { byHandContext, sessionFact, useByHandOf } from '../dialisis/session/sessionReferenceWrites.js';
import { NO_SUCH_SESSION } from '../dialisis/shared/sessionReference.js';
import { invalidFields } from '../shared/fieldChecks.js';
import type { FactLoaders, PolicyFacts } from '../factLoaders.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { machineDecider } from './machineDecider.js';
import {
  machineValueKey,
  operatingHoursOf,
  type MachineCommand,
  type MachineFields,
  type MachinePatch,
  type PatientFacts,
} from './machineEvents.js';
import type { MachineState } from './shared/machineState.js';
import type { PatientState } from '../pacientes/patientState.js';
import { claimsOf, MACHINE_GUARDS, UNIQUE_MACHINE_FIELDS } from './machineClaimWrites.js';
import { maintenancePolicyOf } from './shared/startRules.js';

type Result = CommandResult<MachineState>;

/** A machine's writes need the event store and the company facts they judge (wired in server.ts), not the whole AppServices. */
export interface MachineDeps {
  events: EventStore;
  facts: Pick<FactLoaders, 'policy' | 'isStation'>;
}

/** The station must be one of this company's (422 naming stationId otherwise). */
async function mustBeStation(deps: Pick<MachineDeps, 'facts'>, tenantId: string, locationId: string, stationId: string): Promise<void> {
  if (await deps.facts.isStation(tenantId, locationId, stationId)) return;
  const message = 'no such station at that location of this company';
  throw new DomainError('validation-failed', `stationId: ${message}`, 422, { errors: [{ field: 'stationId', message }] });
}
const machineStream = (tenantId: string, id: string): string => streamName(tenantId, machineDecider.category, id);

/** A retried registration (same Idempotency-Key) targets the same machine id; otherwise a fresh one. */
const newMachineId = (idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`machine\u0000${idempotencyKey}`) : newId();

export async function registerMachine(
  deps: Pick<MachineDeps, 'events' | 'facts'>,
  ctx: CommandContext,
  data: MachineFields,
): Promise<{ machineId: string; result: Result }> {
  const { events } = deps;
  await mustBeStation(deps, ctx.tenantId, data.locationId, data.stationId);
  const machineId = newMachineId(ctx.idempotencyKey);
  const command = { type: 'RegisterMachine' as const, aggregateId: machineId, data };
  // Check the data first (pure), so a refused registration never holds a code or a serial.
  machineDecider.decide(
    { ...command, at: ctx.at ?? new Date().toISOString(), actor: ctx.actor, tenantId: ctx.tenantId },
    machineDecider.initialState,
  );
  const result = await withClaims(events, ctx, claimsOf(machineId, data), () =>
    handleCommand(events, machineDecider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { machineId, result };
}

/** A correction; a new code or serial is claimed first and the old one released after. */
export async function correctMachine(
  deps: MachineDeps,
  ctx: CommandContext,
  machineId: string,
  patch: MachinePatch,
  ifMatch: number,
): Promise<Result> {
  const { events } = deps;
  const command = { type: 'CorrectMachine' as const, aggregateId: machineId, data: patch };
  const { state, revision } = await loadAggregate(events, machineDecider, machineStream(ctx.tenantId, machineId));
  const movesStation = patch.locationId !== undefined || patch.stationId !== undefined;
  if (!state.fields) throw movesStation ? new DomainError('not-found', 'Machine not found', 404) : notFound('machine');
  // A move names a station of this company (422 before the revision is compared).
  if (movesStation)
    await mustBeStation(deps, ctx.tenantId, patch.locationId ?? state.fields.locationId, patch.stationId ?? state.fields.stationId);
  if (ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  const current = state.fields;
  const moved = UNIQUE_MACHINE_FIELDS.filter((f) => patch[f] !== undefined && machineValueKey(patch[f]) !== machineValueKey(current[f]));
  const claims = claimsOf(machineId, { ...current, ...patch }).filter((_, i) => moved.includes(UNIQUE_MACHINE_FIELDS[i]!));
  const result = await withClaims(events, ctx, claims, () => handleCommand(events, machineDecider, command, ctx, { ifMatch }));
  for (const field of moved) {
    await releaseClaim(events, ctx, MACHINE_GUARDS[field], { holderId: machineId, key: machineValueKey(current[field]) });
  }
  return result;
}

/** The patient as the decider needs it; a patient of another company is simply absent. */
async function patientFacts(events: EventStore, tenantId: string, patientId: string): Promise<PatientFacts> {
  const { state } = await loadAggregate(events, patientDecider, streamName(tenantId, 'patient', patientId));
  return patientFactsOf(state);
}

const patientFactsOf = (state: PatientState): PatientFacts => ({
  exists: state.exists,
  active: state.status === 'active',
  isolation: [...state.isolation],
});

/** What a use's start judges beside the machine itself, gathered once. */
interface MachineUseFacts {
  /** Folded from the patient's stream (strong). */
  patient: PatientFacts;
  /** Folded once from the company's policy stream (strong), through the injected loader. */
  policy: PolicyFacts;
}

async function loadUseFacts(services: MachineDeps, tenantId: string, patientId: string): Promise<MachineUseFacts> {
  const [patient, policy] = await Promise.all([patientFacts(services.events, tenantId, patientId), services.facts.policy(tenantId)]);
  return { patient, policy };
}

export async function startMachineUse(
  services: MachineDeps,
  ctx: CommandContext,
  machineId: string,
  data: { sessionId: string; patientId: string },
  given?: { patient: PatientState; policy: PolicyFacts },
): Promise<Result> {
  const { state } = await loadAggregate(services.events, machineDecider, machineStream(ctx.tenantId, machineId));
  if (!state.fields) throw notFound('machine');
  // The session start hands in the facts it loaded once (startFacts.ts); other callers load them here.
  const { patient, policy } = given
    ? { patient: patientFactsOf(given.patient), policy: given.policy }
    : await loadUseFacts(services, ctx.tenantId, data.patientId);
  const maintenance = maintenancePolicyOf(policy, state.fields.model);
  return handleCommand(
    services.events,
    machineDecider,
    { type: 'StartMachineUse', aggregateId: machineId, data: { ...data, patient, maintenance } },
    ctx,
  );
}

/**
 * A use recorded by hand (issue 21 item 10): only for an ended session of this patient that used this machine, with the
 * hours of its effective time (never the caller's); it frees the machine only if that session still holds it, so nothing
 * by hand frees a machine a running session holds. `holderOnly` (fin-uso) refuses it unless the session holds the machine.
 */
export async function recordMachineUseByHand(
  services: MachineDeps,
  ctx: CommandContext,
  machineId: string,
  data: { sessionId: string; patientId?: string },
  options: { holderOnly: boolean },
): Promise<Result> {
  const stream = machineStream(ctx.tenantId, machineId);
  const machine = await services.events.readStream(stream, { maxCount: 1 });
  if (machine.length === 0) throw notFound('machine'); // another company's machine is a 404 before the body is judged
  const use = await useByHandOf(services.events, ctx.tenantId, data, 'machine', machineId);
  if (use.applied) {
    const { state, revision } = await loadAggregate(services.events, machineDecider, stream);
    return { state, revision, position: null, events: [] }; // the session's end already counted it
  }
  const operatingHours = operatingHoursOf(use.effectiveMinutes);
  return endMachineUse(services, byHandContext(ctx, 'machine', data.sessionId), machineId, {
    sessionId: data.sessionId,
    operatingHours,
    byHand: !options.holderOnly,
  });
}

/** A disinfection after a named session: that session must be one of this company (422 naming afterSessionId). */
export async function recordDisinfection(
  services: MachineDeps,
  ctx: CommandContext,
  machineId: string,
  data: { method: string; chemical?: string; lot?: string; afterSessionId?: string },
  ifMatch: number | null,
): Promise<Result> {
  const machine = await services.events.readStream(machineStream(ctx.tenantId, machineId), { maxCount: 1 });
  if (machine.length === 0) throw notFound('machine');
  if (data.afterSessionId !== undefined && !(await sessionFact(services.events, ctx.tenantId, data.afterSessionId)).exists) {
    throw invalidFields([{ field: 'afterSessionId', message: NO_SUCH_SESSION }]);
  }
  return machineCommand(services.events, ctx, machineId, { type: 'RecordDisinfection', data }, ifMatch);
}

export async function endMachineUse(
  services: MachineDeps,
  ctx: CommandContext,
  machineId: string,
  data: { sessionId: string; operatingHours: number; byHand?: boolean },
): Promise<Result> {
  const policy = await services.facts.policy(ctx.tenantId);
  const decided = { revision: policy.revision, disinfectionRequired: policy.settings.disinfection.requiredBetweenPatients };
  return handleCommand(
    services.events,
    machineDecider,
    { type: 'EndMachineUse', aggregateId: machineId, data: { ...data, policy: decided } },
    ctx,
  );
}

/** Gives back the machine a session claimed and never started (compensation, reconciliation); a no-op for any other session. */
export function cancelMachineUse(
  services: MachineDeps,
  ctx: CommandContext,
  machineId: string,
  data: { sessionId: string; reason: string },
): Promise<Result> {
  return handleCommand(services.events, machineDecider, { type: 'CancelMachineUse', aggregateId: machineId, data }, ctx);
}

type PlainCommand = Exclude<
  MachineCommand,
  { type: 'RegisterMachine' | 'CorrectMachine' | 'StartMachineUse' | 'EndMachineUse' | 'CancelMachineUse' }
>;

/** Commands that need nothing but the machine's own stream. */
export function machineCommand(
  events: EventStore,
  ctx: CommandContext,
  machineId: string,
  command: Pick<PlainCommand, 'type' | 'data'>,
  ifMatch: number | null,
): Promise<Result> {
  return handleCommand(events, machineDecider, { ...command, aggregateId: machineId }, ctx, { ifMatch });
}
