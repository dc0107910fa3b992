// The Pacientes read models as record models: the patient and the nursing note, each with get, or404 and the
// read-after-write `latest` (waits for the projection, else folds the record's own stream).
import { recordModel } from '../recordModel.js';
import { foldNote, type NoteDoc } from '../../projections/pacientes/noteDoc.js';
import { foldPatient, type PatientDoc } from '../../projections/pacientes/patientDoc.js';
import { NURSING_NOTES, PACIENTES_PROJECTION, PATIENTS } from '../../projections/pacientes/pacientesProjection.js';
import { PATIENT_CATEGORY } from '../../commands/pacientes/patientEvents.js';
import { NURSING_NOTE_CATEGORY } from '../../commands/pacientes/nursingNoteEvents.js';

/** The patient record (another company's patient is exactly as absent). */
export const patientModel = recordModel<PatientDoc>({
  projection: PACIENTES_PROJECTION,
  collection: PATIENTS,
  category: PATIENT_CATEGORY,
  fold: foldPatient,
  notFound: 'Patient not found',
});
export const patients = patientModel.collection;

/** The nursing note record; its versions are read beside it (noteVersions.ts). */
export const noteModel = recordModel<NoteDoc>({
  projection: PACIENTES_PROJECTION,
  collection: NURSING_NOTES,
  category: NURSING_NOTE_CATEGORY,
  fold: (doc, event) => foldNote(doc, event),
  notFound: 'Nursing note not found',
});
export const nursingNotes = noteModel.collection;
