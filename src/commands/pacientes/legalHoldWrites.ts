// Legal hold commands as the routes run them: the patient is looked up in the caller's company first.
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../handleCommand.js';
import type { EventStore } from '../../stores/eventStore.js';
import { legalHoldDecider, type LegalHoldState } from './legalHold.js';
import { patientStream } from './patientEvents.js';
import { patientDecider } from './patientDecider.js';

export async function placeLegalHold(
  events: EventStore,
  ctx: CommandContext,
  patientId: string,
  data: { reason: string; reference?: string | null },
): Promise<CommandResult<LegalHoldState>> {
  // The patient's own stream in this company: another company's patient is simply not there (404).
  const { state } = await loadAggregate(events, patientDecider, patientStream(ctx.tenantId, patientId));
  const patient = state.exists ? ({ exists: true } as const) : null;
  return handleCommand(events, legalHoldDecider, { type: 'PlaceLegalHold', aggregateId: patientId, data: { ...data, patient } }, ctx);
}

export async function liftLegalHold(
  events: EventStore,
  ctx: CommandContext,
  patientId: string,
  data: { reason: string },
): Promise<CommandResult<LegalHoldState>> {
  return handleCommand(events, legalHoldDecider, { type: 'LiftLegalHold', aggregateId: patientId, data }, ctx);
}
