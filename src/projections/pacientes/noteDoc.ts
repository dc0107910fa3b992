// The nursing-note read model: one document per note with its current content; its versions live in their own
// collection (one document each), so a note's document stays the same size however often it is amended. Most notes
// are never amended: their only version is the current content, stored as a version only once an amendment comes.
import type { NoteContent, NursingNoteEvent } from '../../commands/pacientes/nursingNoteEvents.js';
import { sharedString, type ProjectedDoc } from '../runner/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';

export type NoteVersion = NoteContent & {
  version: number;
  recordedAt: string;
  recordedBy: string;
  /** Why the note was amended (absent on version 1). */
  reason?: string;
};

export type NoteRecord = NoteContent & {
  tenantId: string;
  id: string;
  patientId: string;
  /** Revision of the note stream: the ETag. */
  revision: number;
  version: number;
  authorId: string;
  recordedAt: string;
  updatedAt: string;
  amended: boolean;
};

export type NoteDoc = ProjectedDoc & NoteRecord;

/** One version of an amended note, in the versions collection (id `<noteId>.<version>`). */
export type NoteVersionDoc = ProjectedDoc & NoteVersion & { tenantId: string; id: string; noteId: string };

/** The content fields of a note (and of each version). */
export const NOTE_CONTENT_KEYS = [
  'noteType',
  'text',
  'soapie',
  'authorLicence',
  'occurredAt',
  'dialysisSessionId',
] as const satisfies readonly (keyof NoteContent)[];

type RecordedData = Extract<NursingNoteEvent, { type: 'NursingNoteRecorded' }>['data'];
type AmendedData = Extract<NursingNoteEvent, { type: 'NursingNoteAmended' }>['data'];
/** Every key listed (optional ones may hold undefined): documents built one way share one hidden class. */
type AllKeys<T> = { [K in keyof Required<T>]: T[K] };

// One literal per shape, every key always present: no spreads (V8 gives a spread-then-extended object its own map).
function noteDoc(
  base: NoteDoc | null,
  content: NoteContent,
  fields: Pick<NoteDoc, 'revision' | 'version' | 'updatedAt' | '_position'>,
  first: Pick<NoteDoc, 'tenantId' | 'id' | 'patientId' | 'authorId' | 'recordedAt'>,
): NoteDoc {
  const doc: AllKeys<NoteRecord> & { _position: number } = {
    tenantId: first.tenantId,
    id: first.id,
    patientId: first.patientId,
    revision: fields.revision,
    version: fields.version,
    noteType: content.noteType,
    text: content.text,
    soapie: content.soapie,
    authorLicence: content.authorLicence,
    occurredAt: content.occurredAt,
    dialysisSessionId: content.dialysisSessionId,
    authorId: first.authorId,
    recordedAt: first.recordedAt,
    updatedAt: fields.updatedAt,
    amended: base !== null,
    _position: fields._position,
  };
  return doc;
}

function version(content: NoteContent, version: number, recordedAt: string, recordedBy: string, reason: string | undefined): NoteVersion {
  const v: AllKeys<NoteVersion> = {
    version,
    noteType: content.noteType,
    text: content.text,
    soapie: content.soapie,
    authorLicence: content.authorLicence,
    occurredAt: content.occurredAt,
    dialysisSessionId: content.dialysisSessionId,
    recordedAt,
    recordedBy,
    reason,
  };
  return v;
}

/** Version 1 of a note never amended: its current content. */
export const firstVersion = (doc: NoteRecord): NoteVersion => version(doc, 1, doc.recordedAt, doc.authorId, undefined);

/** The version an amendment event adds. */
export function amendmentVersion(recorded: RecordedEvent): NoteVersion {
  const data = (recorded as unknown as { data: AmendedData }).data;
  return version(data, data.version, recorded.metadata.occurredAt, sharedString(data.amendedBy), data.reason);
}

export const versionDocId = (noteId: string, versionNumber: number): string => `${noteId}.${versionNumber}`;

export function versionDoc(tenantId: string, noteId: string, v: NoteVersion, position: number): NoteVersionDoc {
  return { ...v, tenantId, id: versionDocId(noteId, v.version), noteId, _position: position };
}

/** Every version of a note from its own events, oldest first (when the read model lags behind a write). */
export function versionsFromStream(events: RecordedEvent[]): NoteVersion[] {
  const versions: NoteVersion[] = [];
  let doc: NoteDoc | null = null;
  for (const e of events) {
    doc = foldNote(doc, e);
    if (e.type === 'NursingNoteRecorded' && doc) versions.push(firstVersion(doc));
    if (e.type === 'NursingNoteAmended') versions.push(amendmentVersion(e));
  }
  return versions;
}

/** `patientIdOf` may return an equal string already kept elsewhere (the patient document's), to store it once. */
export function foldNote(doc: NoteDoc | null, recorded: RecordedEvent, patientIdOf: (id: string) => string = (id) => id): NoteDoc | null {
  const event = recorded as unknown as NursingNoteEvent;
  const at = recorded.metadata.occurredAt;
  const stamp = { revision: recorded.revision, version: event.data.version, updatedAt: at, _position: Number(recorded.position) };
  if (event.type === 'NursingNoteRecorded') {
    if (doc) return doc;
    const data: RecordedData = event.data;
    const tenantId = sharedString(recorded.streamName.slice(0, recorded.streamName.indexOf('.')));
    return noteDoc(null, data, stamp, {
      tenantId,
      id: data.noteId,
      patientId: patientIdOf(data.patientId),
      authorId: sharedString(data.authorId),
      recordedAt: at,
    });
  }
  if (!doc) return null;
  return noteDoc(doc, event.data, stamp, doc);
}

/** A note as clients see it; lists leave the versions out, a read shows its latest ones (`versions`). */
export function noteView(doc: NoteRecord, versions?: NoteVersion[]): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: doc.id,
    patientId: doc.patientId,
    revision: doc.revision,
    version: doc.version,
    noteType: doc.noteType,
    text: doc.text,
    soapie: doc.soapie,
    authorLicence: doc.authorLicence,
    occurredAt: doc.occurredAt,
    dialysisSessionId: doc.dialysisSessionId,
    authorId: doc.authorId,
    recordedAt: doc.recordedAt,
    updatedAt: doc.updatedAt,
    amended: doc.amended,
  };
  if (versions) {
    view.versionCount = doc.version;
    view.versions = versions;
  }
  return view;
}
