// Changing the machine of a running session (issue 21 item 8) as a reservation, like the start (sessionStartWrites.ts):
// the session's own rules and the new machine's interlocks (available, disinfected, maintenance, isolation) are judged
// first; the new machine is claimed in its own stream; then the session records the change, or the claim is given back.
// The old machine's use ends with the minutes it ran when the consequences process manager sees MachineChanged.
import { DomainError, notFound, rule } from '../../decider.js';
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext } from '../../handleCommand.js';
import { patientDecider } from '../../pacientes/patientDecider.js';
import { cancelMachineUse, startMachineUse } from '../../monitores/machineWrites.js';
import type { AppServices } from '../../../services.js';
import { mayStartSession } from '../../../queries/monitores/mayStartSession.js';
import { streamName } from '../../../stores/eventStore.js';
import type { ChangeMachineData } from './machineChange.js';
import { sessionDecider } from './sessionDecider.js';
import { type SessionResult } from './sessionWrites.js';
import { sessionStream } from './sessionEvents.js';

function refuse(reasons: string[]): never {
  throw rule('machine-change-refused', `the machine may not take over the session: ${reasons.join(', ')}`, {
    reasons: { machine: reasons },
  });
}

export async function changeSessionMachine(
  services: AppServices,
  ctx: CommandContext,
  sessionId: string,
  input: ChangeMachineData,
  ifMatch: number | null,
): Promise<SessionResult> {
  const tenantId = ctx.tenantId;
  const at = ctx.at ?? services.now().toISOString();
  const { state, revision } = await loadAggregate(services.events, sessionDecider, sessionStream(tenantId, sessionId));
  if (!state.exists) throw notFound('session');
  if (ifMatch !== null && ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  // The session's own rules first: nothing is claimed for a change that cannot happen.
  sessionDecider.decide({ type: 'ChangeMachine', data: input, at, actor: ctx.actor, aggregateId: sessionId, tenantId }, state);

  const patientId = state.scheduled!.patientId;
  const { state: patient } = await loadAggregate(services.events, patientDecider, streamName(tenantId, 'patient', patientId));
  const verdict = await mayStartSession({ services, auth: { tenantId } }, input.machineId, { isolation: [...patient.isolation] }, at);
  if (!verdict.allowed) refuse(verdict.reasons.map((r) => r.code));
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
