// Nursing notes (domain.md 4): their own aggregate, `<tenant>.nursingNote-<noteId>`, referencing the patient.
// A note is never overwritten: an amendment is a new version with a mandatory reason; earlier versions stay.
import type { CommandEnvelope, Decider } from '../decider.js';
import { notFound, rule } from '../decider.js';
import { FieldChecks, notFutureInstant } from './fieldRules.js';
import { checkSessionReference, type SessionFact } from '../dialisis/shared/sessionReference.js';
import type { PatientStatus } from './patientTypes.js';
import {
  NURSING_NOTE_CATEGORY,
  SOAPIE_PARTS,
  type Soapie,
  type NoteContent,
  type NoteContentPatch,
  type NursingNoteEvent,
} from './nursingNoteEvents.js';

/** What the handler knows of the patient (looked up in the same company): null when there is none. */
export type PatientFact = { status: PatientStatus } | null;

/** The session the command names, as the handler found it in the company; none looked up: a named session is refused. */
type NamedSession = { session?: SessionFact };

export type NursingNoteCommand =
  | CommandEnvelope<'RecordNursingNote', NoteContent & { patientId: string; patient: PatientFact } & NamedSession>
  | CommandEnvelope<'AmendNursingNote', NoteContentPatch & { patientId: string; reason: string } & NamedSession>;

export interface NursingNoteState {
  exists: boolean;
  patientId: string | null;
  version: number;
  content: NoteContent | null;
}

function contentOf(data: NoteContent): NoteContent {
  const soapie: Soapie = {};
  for (const part of SOAPIE_PARTS) {
    const value = data.soapie?.[part]?.trim();
    if (value) soapie[part] = value;
  }
  return {
    noteType: data.noteType,
    ...(data.text?.trim() ? { text: data.text.trim() } : {}),
    ...(Object.keys(soapie).length > 0 ? { soapie } : {}),
    ...(data.authorLicence?.trim() ? { authorLicence: data.authorLicence.trim() } : {}),
    occurredAt: data.occurredAt,
    ...(data.dialysisSessionId ? { dialysisSessionId: data.dialysisSessionId } : {}),
  };
}

function mergeContent(current: NoteContent, patch: NoteContentPatch): NoteContent {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return merged as NoteContent;
}

function checkContent(checks: FieldChecks, content: NoteContent, at: string): void {
  checks.check(Boolean(content.text || content.soapie), 'text', 'a note needs free text or at least one SOAPIE part');
  checks.check(notFutureInstant(content.occurredAt, at), 'occurredAt', 'must not be in the future');
}

export const nursingNoteDecider: Decider<NursingNoteCommand, NursingNoteEvent, NursingNoteState> = {
  category: NURSING_NOTE_CATEGORY,
  initialState: { exists: false, patientId: null, version: 0, content: null },
  evolve(state, event) {
    const { noteId: _n, patientId, version, ...rest } = event.data;
    const content = contentOf(rest);
    return { exists: true, patientId, version, content };
  },
  decide(command, state) {
    switch (command.type) {
      case 'RecordNursingNote': {
        const { patient, patientId, session, ...data } = command.data;
        if (patient === null) throw notFound('patient');
        if (state.exists) throw rule('already-exists', 'a nursing note with this id already exists');
        const content = contentOf(data);
        const checks = new FieldChecks();
        if (content.dialysisSessionId) checkSessionReference(checks, 'dialysisSessionId', session ?? null, patientId);
        checkContent(checks, content, command.at);
        checks.throwIfAny();
        return [
          {
            type: 'NursingNoteRecorded',
            data: { noteId: command.aggregateId, patientId, authorId: command.actor, version: 1, ...content },
          },
        ];
      }
      case 'AmendNursingNote': {
        const { patientId, reason, session, ...patch } = command.data;
        // A note looked up under another patient's path does not exist there.
        if (!state.exists || !state.content || state.patientId !== patientId) throw notFound('nursing note');
        const content = contentOf(mergeContent(state.content, patch));
        const checks = new FieldChecks().check(reason.trim().length > 0, 'reason', 'an amendment needs a reason');
        // A session the amendment names is checked; one the note already named stays as history recorded it.
        if (patch.dialysisSessionId) checkSessionReference(checks, 'dialysisSessionId', session ?? null, patientId);
        checkContent(checks, content, command.at);
        checks.throwIfAny();
        if (JSON.stringify(content) === JSON.stringify(state.content)) {
          throw rule('amendment-without-changes', 'the amendment does not change the note');
        }
        return [
          {
            type: 'NursingNoteAmended',
            data: {
              noteId: command.aggregateId,
              patientId,
              amendedBy: command.actor,
              version: state.version + 1,
              reason: reason.trim(),
              ...content,
            },
          },
        ];
      }
    }
  },
};
