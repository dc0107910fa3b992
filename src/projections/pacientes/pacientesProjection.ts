// Read models of the Pacientes group: patients (searchable census) and nursing notes with their versions.
import { PATIENT_EVENT_TYPES } from '../../commands/pacientes/patientEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { amendmentVersion, firstVersion, foldNote, versionDoc, type NoteDoc } from './noteDoc.js';
import { foldPatient, idOfStream, type PatientDoc } from './patientDoc.js';

export const PACIENTES_PROJECTION = 'pacientes';
export const PATIENTS = 'patients';
export const NURSING_NOTES = 'nursingNotes';
export const NOTE_VERSIONS = 'nursingNoteVersions';

const NOTE_EVENT_TYPES = ['NursingNoteRecorded', 'NursingNoteAmended'] as const;

/** Category of a stream `<tenant>.<category>-<id>`: other groups may reuse an event type name, never our categories. */
const categoryOf = (stream: string): string => stream.slice(stream.indexOf('.') + 1, stream.indexOf('-'));

export const pacientesProjection: Projection = {
  name: PACIENTES_PROJECTION,
  // 3: note versions in their own collection (2: versions kept only once amended; every key built, undefined when empty).
  version: 3,
  collections: {
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
    if (category === 'patient') {
      return applyFold<PatientDoc>(tx, PATIENTS, tenantOfStream(event.streamName), idOfStream(event.streamName), event, foldPatient);
    }
    if (category === 'nursingNote') {
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
