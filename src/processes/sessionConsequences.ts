// The consequences of a treated session (issue 10 item 5): when a session ends (or is interrupted after its start)
// its machine gets the operating hours and a session and awaits disinfection, its dialyzer and bloodlines get one use
// and go to reprocessing (single-use ones are discarded). Each consequence is recorded as applied or refused on the
// session's consequence stream; a refusal is an alert, never swallowed. Replays change nothing: every command runs at
// the causing event's time with an idempotency key derived from it, and the equipment deciders decide nothing for a
// session whose use they already recorded.
import { loadAggregate } from '../commands/handleCommand.js';
import { recordConsequence, SESSION_CONSEQUENCES_ACTOR } from './consequenceRecording.js';
import { sessionDecider } from '../commands/dialisis/session/sessionDecider.js';
import { endMachineUse } from '../commands/monitores/machineWrites.js';
import { operatingHoursOf } from '../commands/monitores/machineEvents.js';
import { recordDialyzerUse } from '../commands/filtros-dialisis/dialyzerWrites.js';
import { recordBloodlineUse } from '../commands/lineas/bloodlineWrites.js';
import type { AppServices } from '../services.js';
import { aggregateIdOfStream, categoryOfStream, streamName, tenantOfStream, type RecordedEvent } from '../stores/eventStore.js';
import type { ProcessManager } from './processRunner.js';

export { SESSION_CONSEQUENCES_ACTOR };

async function react(event: RecordedEvent, services: AppServices): Promise<void> {
  if (categoryOfStream(event.streamName) !== sessionDecider.category) return;
  const tenantId = tenantOfStream(event.streamName);
  const sessionId = aggregateIdOfStream(event.streamName);
  const { state } = await loadAggregate(services.events, sessionDecider, streamName(tenantId, sessionDecider.category, sessionId));
  const equipment = state.equipment;
  const patientId = state.scheduled?.patientId;
  if (!equipment || !patientId) return; // never started: nothing was used
  if (event.type === 'MachineChanged') {
    // The machine left mid-session gets the minutes it ran (issue 21 item 8); the rest of the equipment stays on.
    const { fromMachineId, minutesOnPrevious } = event.data as { fromMachineId: string; minutesOnPrevious: number };
    await recordConsequence(services, event, sessionId, 'machine-use', fromMachineId, (ctx) =>
      endMachineUse(services, ctx, fromMachineId, { sessionId, operatingHours: operatingHoursOf(minutesOnPrevious) }),
    );
    return;
  }
  // The machine in use at the end ran what the earlier ones did not.
  const effectiveMinutes = (event.data as { effectiveMinutes: number }).effectiveMinutes - state.machineMinutesBefore;
  const use = { sessionId, patientId };
  // A back-entered session never held the machine: its hours and session are counted as history (backEntry.ts).
  const history = state.backEntry ? { byHand: true } : {};
  await recordConsequence(services, event, sessionId, 'machine-use', equipment.machineId, (ctx) =>
    endMachineUse(services, ctx, equipment.machineId, { sessionId, operatingHours: operatingHoursOf(effectiveMinutes), ...history }),
  );
  const { dialyzerId, arterialLineId, venousLineId } = equipment;
  if (dialyzerId)
    await recordConsequence(services, event, sessionId, 'dialyzer-use', dialyzerId, (ctx) =>
      recordDialyzerUse(services, ctx, dialyzerId, use, null),
    );
  if (arterialLineId)
    await recordConsequence(services, event, sessionId, 'arterial-line-use', arterialLineId, (ctx) =>
      recordBloodlineUse(services, ctx, 'arterial', arterialLineId, use, null),
    );
  if (venousLineId)
    await recordConsequence(services, event, sessionId, 'venous-line-use', venousLineId, (ctx) =>
      recordBloodlineUse(services, ctx, 'venous', venousLineId, use, null),
    );
}

export const sessionConsequences: ProcessManager<AppServices> = {
  name: 'session-consequences',
  eventTypes: ['SessionEnded', 'SessionInterrupted', 'MachineChanged'],
  react,
};
