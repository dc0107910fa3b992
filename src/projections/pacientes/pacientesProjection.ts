// Read models of the Pacientes group: patients (searchable census) with the entries their lists outgrow, and nursing
// notes with their versions.
import { PATIENT_EVENT_TYPES, PATIENT_CATEGORY } from '../../commands/pacientes/patientEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { amendmentVersion, firstVersion, foldNote, versionDoc, type NoteDoc } from './noteDoc.js';
import { applyPatientEvent, idOfStream, withCappedLists, type PatientDoc } from './patientDoc.js';
import type { EntryChange } from './patientEntries.js';
import { changeSpilledEntries, PATIENT_ENTRIES, spilledEntries } from './patientListDocs.js';
import { NURSING_NOTE_CATEGORY } from '../../commands/pacientes/nursingNoteEvents.js';

export const PACIENTES_PROJECTION = 'pacientes';
export const PATIENTS = 'patients';
export const NURSING_NOTES = 'nursingNotes';
export const NOTE_VERSIONS = 'nursingNoteVersions';

const NOTE_EVENT_TYPES = ['NursingNoteRecorded', 'NursingNoteAmended'] as const;

/** Category of a stream `<tenant>.<category>-<id>`: other groups may reuse an event type name, never our categories. */
const categoryOf = (stream: string): string => stream.slice(stream.indexOf('.') + 1, stream.indexOf('-'));
/** A patient document is its stream's alone: PatientRegistered (revision 0) needs no read of it. */
const PATIENT_STREAM_DOC = { ownStream: true };

export const pacientesProjection: Projection = {
  name: PACIENTES_PROJECTION,
  // 5: the current dry weight is the latest effective; 4: patient lists capped, long ones in patientEntries; 3: note
  // versions in their own collection.
  version: 5,
  collections: {
    // Before the patients: written back first, so a patient is never ahead of its entries (its position guards them too).
    [PATIENT_ENTRIES]: [{ keys: { tenantId: 1, patientId: 1, list: 1, ordinal: 1, id: 1 }, name: 'by_patient_list' }],
    [PATIENTS]: [
      { keys: { tenantId: 1, sortName: 1, id: 1 }, name: 'by_name' },
      { keys: { tenantId: 1, status: 1, sortName: 1, id: 1 }, name: 'by_status_name' },
      { keys: { tenantId: 1, admissionDate: 1, id: 1 }, name: 'by_admission' },
      { keys: { tenantId: 1, createdAt: 1, id: 1 }, name: 'by_created' },
    ],
    // Before the notes: written back first, so a note is never ahead of its versions (its position guards them too).
    [NOTE_VERSIONS]: [{ keys: { tenantId: 1, noteId: 1, version: 1, id: 1 }, name: 'by_note_version' }],
    [NURSING_NOTES]: [{ keys: { tenantId: 1, patientId: 1, occurredAt: -1, id: 1 }, name: 'by_patient_time' }],
  },
  eventTypes: [...PATIENT_EVENT_TYPES, ...NOTE_EVENT_TYPES],
  // Synchronous when the store lends its documents (embedded): no promise per event.
  handle(event, tx) {
    const category = categoryOf(event.streamName);
    if (category === PATIENT_CATEGORY) {
      // What the event changes in existing entries: also applied to the stored ones of lists past their cap.
      const changed: { patient: PatientDoc | null; changes: EntryChange[] } = { patient: null, changes: [] };
      const applied = applyFold<PatientDoc>(
        tx,
        PATIENTS,
        tenantOfStream(event.streamName),
        idOfStream(event.streamName),
        event,
        (doc) => {
          const { next, changes } = applyPatientEvent(doc, event);
          if (!next || next === doc) return next;
          for (const entry of spilledEntries(doc, next, Number(event.position))) tx.put(PATIENT_ENTRIES, entry);
          changed.patient = next;
          changed.changes = changes;
          return withCappedLists(next);
        },
        PATIENT_STREAM_DOC,
      );
      // Those need reads (the entry may no longer be in the document): only after coverage and access events.
      if (applied) return applied.then(() => changeSpilledEntries(tx, changed.patient, changed.changes, Number(event.position)));
      return changed.changes.length > 0 ? changeSpilledEntries(tx, changed.patient, changed.changes, Number(event.position)) : undefined;
    }
    if (category === NURSING_NOTE_CATEGORY) {
      const tenantId = tenantOfStream(event.streamName);
      // A note keeps its patient document's id string rather than its own copy: one per patient, not per note.
      // (Closures left unnamed: tsx wraps every named one in a naming call, a cost per event.)
      const noteId = idOfStream(event.streamName);
      return applyFold<NoteDoc>(tx, NURSING_NOTES, tenantId, noteId, event, (doc) => {
        const next = foldNote(doc, event, (id) => tx.peek?.<PatientDoc>(PATIENTS, tenantId, id)?.id ?? id);
        // Versions go to their own collection; version 1 is written when the first amendment replaces it.
        if (doc && next !== doc && event.type === 'NursingNoteAmended') {
          const position = Number(event.position);
          if (!doc.amended) tx.put(NOTE_VERSIONS, versionDoc(tenantId, noteId, firstVersion(doc), position));
          tx.put(NOTE_VERSIONS, versionDoc(tenantId, noteId, amendmentVersion(event), position));
        }
        return next;
      });
    }
  },
};
