// Nursing-note commands as the routes run them: the patient is looked up in the caller's company first.
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../handleCommand.js';
import { nursingNoteDecider, type NursingNoteState } from './nursingNote.js';
import { type NoteContent, type NoteContentPatch } from './nursingNoteEvents.js';
import { patientDecider } from './patientDecider.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { newId, uuidV5 } from '../eventIds.js';
import { sessionFact } from '../dialisis/session/sessionReferenceWrites.js';
import type { SessionFact } from '../dialisis/shared/sessionReference.js';

/** The session a note names, read in the caller's company (the decider judges it); nothing when none is named. */
const namedSession = async (
  events: EventStore,
  tenantId: string,
  sessionId: string | null | undefined,
): Promise<{ session?: SessionFact }> => (sessionId ? { session: await sessionFact(events, tenantId, sessionId) } : {});

export async function recordNote(
  events: EventStore,
  ctx: CommandContext,
  patientId: string,
  content: NoteContent,
): Promise<{ noteId: string; result: CommandResult<NursingNoteState> }> {
  const noteId = ctx.idempotencyKey ? uuidV5(`nursingNote\u0000${ctx.idempotencyKey}`) : newId();
  // The patient's own stream in this company: another company's patient is simply not there.
  const { state } = await loadAggregate(events, patientDecider, streamName(ctx.tenantId, 'patient', patientId));
  const patient = state.exists ? { status: state.status } : null;
  const session = await namedSession(events, ctx.tenantId, content.dialysisSessionId);
  const result = await handleCommand(
    events,
    nursingNoteDecider,
    {
      type: 'RecordNursingNote',
      aggregateId: noteId,
      data: { ...content, patientId, patient, ...session },
    },
    ctx,
    { expectNew: true },
  );
  return { noteId, result };
}

export async function amendNote(
  events: EventStore,
  ctx: CommandContext,
  patientId: string,
  noteId: string,
  patch: NoteContentPatch & { reason: string },
  ifMatch: number | null,
): Promise<CommandResult<NursingNoteState>> {
  const session = await namedSession(events, ctx.tenantId, patch.dialysisSessionId);
  const data = { ...patch, patientId, ...session };
  return handleCommand(events, nursingNoteDecider, { type: 'AmendNursingNote', aggregateId: noteId, data }, ctx, { ifMatch });
}
