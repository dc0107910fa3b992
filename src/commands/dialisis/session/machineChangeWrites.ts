// Changing the machine of a running session (issue 21 item 8) as a reservation, like the start (sessionStartWrites.ts):
// the session's own rules and the new machine's interlocks (available, disinfected, maintenance, isolation) are judged
// first; the new machine is claimed in its own stream; then the session records the change, or the claim is given back.
// The old machine's use ends with the minutes it ran when the consequences process manager sees MachineChanged.
import { DomainError, notFound, rule } from '../../decider.js';
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext } from '../../handleCommand.js';
import { cancelMachineUse, startMachineUse } from '../../monitores/machineWrites.js';
import type { AppServices } from '../../../services.js';
import type { ChangeMachineData } from './machineChange.js';
import { sessionDecider } from './sessionDecider.js';
import type { LoadMachineChangeFacts } from './sessionFacts.js';
import type { SessionResult } from './sessionWrites.js';
import { sessionStream } from './sessionEvents.js';

/** What a machine change is run with: its facts' loader, and the services the machine's claim writes through. */
export interface MachineChangeDeps {
  services: AppServices;
  loadFacts: LoadMachineChangeFacts;
}

function refuse(reasons: string[]): never {
  throw rule('machine-change-refused', `the machine may not take over the session: ${reasons.join(', ')}`, {
    reasons: { machine: reasons },
  });
}

export async function changeSessionMachine(
  deps: MachineChangeDeps,
  ctx: CommandContext,
  sessionId: string,
  input: ChangeMachineData,
  ifMatch: number | null,
): Promise<SessionResult> {
  const { services } = deps;
  const tenantId = ctx.tenantId;
  const at = ctx.at ?? services.now().toISOString();
  const { state, revision } = await loadAggregate(services.events, sessionDecider, sessionStream(tenantId, sessionId));
  if (!state.exists) throw notFound('session');
  // The new machine's facts (sessionFacts.ts), its references first: a machine or station not this company's is 422.
  const facts = await deps.loadFacts(tenantId, state, input, at);
  if (ifMatch !== null && ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  // The session's own rules first: nothing is claimed for a change that cannot happen.
  sessionDecider.decide({ type: 'ChangeMachine', data: input, at, actor: ctx.actor, aggregateId: sessionId, tenantId }, state);

  const patientId = state.scheduled!.patientId;
  if (!facts.machine.allowed) refuse(facts.machine.reasons);
  try {
    await startMachineUse(services, ctx, input.machineId, { sessionId, patientId });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    refuse([err.code]);
  }
  try {
    return await handleCommand(services.events, sessionDecider, { type: 'ChangeMachine', aggregateId: sessionId, data: input }, ctx, {
      ifMatch,
    });
  } catch (err) {
    // Without the request's key: keyed, the release would be taken for a retry of the claim made with it.
    const release = { sessionId, reason: 'machine-change-refused' };
    await cancelMachineUse(services, { ...ctx, idempotencyKey: null }, input.machineId, release);
    throw err;
  }
}
