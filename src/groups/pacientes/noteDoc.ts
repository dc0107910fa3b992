// The nursing-note read model: one document per note with its current content and every version.
import type { NoteContent, NursingNoteEvent } from '../../domain/pacientes/nursingNote.js';
import type { ProjectedDoc } from '../../projections/projection.js';
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
  versions: NoteVersion[];
};

export type NoteDoc = ProjectedDoc & NoteRecord;

const CONTENT_KEYS = ['noteType', 'text', 'soapie', 'authorLicence', 'occurredAt', 'dialysisSessionId'] as const;

function contentOf(data: Record<string, unknown>): NoteContent {
  const out: Record<string, unknown> = {};
  for (const k of CONTENT_KEYS) if (data[k] !== undefined) out[k] = data[k];
  return out as NoteContent;
}

export function foldNote(doc: NoteDoc | null, recorded: RecordedEvent): NoteRecord | null {
  const event = { type: recorded.type, data: recorded.data } as NursingNoteEvent;
  const at = recorded.metadata.occurredAt;
  const content = contentOf(event.data);
  if (event.type === 'NursingNoteRecorded') {
    if (doc) return doc;
    return {
      tenantId: recorded.streamName.slice(0, recorded.streamName.indexOf('.')),
      id: event.data.noteId,
      patientId: event.data.patientId,
      revision: recorded.revision,
      version: 1,
      ...content,
      authorId: event.data.authorId,
      recordedAt: at,
      updatedAt: at,
      amended: false,
      versions: [{ version: 1, ...content, recordedAt: at, recordedBy: event.data.authorId }],
    };
  }
  if (!doc) return null;
  const { _position, ...current } = doc;
  const kept = { tenantId: current.tenantId, id: current.id, patientId: current.patientId, authorId: current.authorId, recordedAt: current.recordedAt };
  const version: NoteVersion = { version: event.data.version, ...content, recordedAt: at, recordedBy: event.data.amendedBy, reason: event.data.reason };
  return {
    ...kept, revision: recorded.revision, version: event.data.version, ...content, updatedAt: at, amended: true,
    versions: [...current.versions, version],
  };
}

/** A note as clients see it; lists leave the versions out. */
export function noteView(doc: NoteDoc, withVersions: boolean): Record<string, unknown> {
  const { tenantId: _t, _position, versions, ...view } = doc;
  return withVersions ? { ...view, versions } : view;
}
