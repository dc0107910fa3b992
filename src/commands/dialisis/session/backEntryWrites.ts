// What a back-entered session's end reads (issue 21 item 1): the session holding its machine now and when that one
// began (its own stated start, else when it took the machine), so a past treatment never overlaps it on that machine.
import { loadAggregate, type CommandContext } from '../../handleCommand.js';
import { invalidFields } from '../../shared/fieldChecks.js';
import { machineDecider } from '../../monitores/machineDecider.js';
import type { AppServices } from '../../../services.js';
import { streamName } from '../../../stores/eventStore.js';
import { sessionDecider } from './sessionDecider.js';
import type { SessionState } from './sessionState.js';
import { endsBeforeHolder, type MachineHolder } from './backEntry.js';

async function machineHolder(services: AppServices, tenantId: string, machineId: string): Promise<MachineHolder | null> {
  const { state } = await loadAggregate(services.events, machineDecider, streamName(tenantId, machineDecider.category, machineId));
  const holder = state.status === 'in-use' ? state.currentSession : null;
  if (!holder) return null;
  const stream = streamName(tenantId, sessionDecider.category, holder.sessionId);
  const { state: session } = await loadAggregate(services.events, sessionDecider, stream);
  const began = session.startedAt && session.startedAt < holder.startedAt ? session.startedAt : holder.startedAt;
  return { sessionId: holder.sessionId, startedAt: began };
}

/** 422 naming the stated end when a back-entered session would end after its machine's current patient began. */
export async function endsBeforeMachineHolder(
  services: AppServices,
  ctx: CommandContext,
  sessionId: string,
  state: SessionState,
  field: string,
  end: string | undefined,
): Promise<void> {
  if (!state.backEntry || !state.equipment || end === undefined) return; // without a stated end the decider refuses it
  const holder = await machineHolder(services, ctx.tenantId, state.equipment.machineId);
  if (endsBeforeHolder(end, holder, sessionId)) return;
  const message = `the machine's current session began at ${holder!.startedAt}, before this end: state an end before it`;
  throw invalidFields([{ field, message }]);
}
