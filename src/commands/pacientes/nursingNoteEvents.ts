// The nursing note's event contract: its events and the content they carry, its stream category and stream
// (`<tenant>.nursingNote-<noteId>`); the decider and the read side both take them from here.
import type { DecidedEvent } from '../decider.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the nursing note streams: written once, here. */
export const NURSING_NOTE_CATEGORY = 'nursingNote';
export const nursingNoteStream = (tenantId: string, noteId: string): string => streamName(tenantId, NURSING_NOTE_CATEGORY, noteId);

export const NOTE_TYPES = ['pre', 'intra', 'post', 'general'] as const;
export type NoteType = (typeof NOTE_TYPES)[number];

/** SOAPIE structure (Peru, NTS 139-MINSA): any subset of the six parts. */
export const SOAPIE_PARTS = ['subjective', 'objective', 'assessment', 'plan', 'intervention', 'evaluation'] as const;
export type Soapie = { [K in (typeof SOAPIE_PARTS)[number]]?: string };

export type NoteContent = {
  noteType: NoteType;
  text?: string;
  soapie?: Soapie;
  authorLicence?: string;
  /** When the observed facts happened (clinical time), not when they were typed. */
  occurredAt: string;
  /** The dialysis session the note belongs to, when any. */
  dialysisSessionId?: string;
};

export type NursingNoteEvent =
  | DecidedEvent<'NursingNoteRecorded', NoteContent & { noteId: string; patientId: string; authorId: string; version: 1 }>
  | DecidedEvent<
      'NursingNoteAmended',
      NoteContent & { noteId: string; patientId: string; amendedBy: string; version: number; reason: string }
    >;

/** An amendment names what changes: omitted parts keep their value, null clears an optional part. */
export type NoteContentPatch = { [K in keyof NoteContent]?: NoteContent[K] | null };
