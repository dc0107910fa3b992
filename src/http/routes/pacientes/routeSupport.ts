// What every Pacientes route shares: tag, permissions, params, the patient's route kit (its 404 and write answer).
import Type from 'typebox';
import { patientView } from '../../../projections/pacientes/patientDoc.js';
import { patientModel } from '../../../queries/pacientes/readModel.js';
import { recordKit } from '../shared/recordRoutes.js';
import { IdParams, IdSchema } from '../shared/fieldSchemas.js';
import { PatientView } from './viewSchemas.js';

// The shared pieces, re-exported: the Pacientes routes import their support from one place.
export {
  READ_HEADERS,
  RECORD_HEADERS,
  badCursor400,
  commandCtx,
  conflict409,
  createdOk,
  ok,
  pageResponses,
  precondition412,
  tenantCtx,
  unavailable503,
  withFieldPointers,
} from '../shared/recordSupport.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, WRITE } = groupNames('pacientes', 'Pacientes');
/** Nursing notes are clinical narrative: a reader of the patient register (admission, billing) does not read them. */
export const NOTES = 'pacientes:notes';

const strict = { additionalProperties: false } as const;
export const PatientParams = IdParams;
export const AccessParams = Type.Object({ id: IdSchema, accessId: IdSchema }, strict);
export const CoverageParams = Type.Object({ id: IdSchema, coverageId: IdSchema }, strict);
export const NoteParams = Type.Object({ id: IdSchema, noteId: IdSchema }, strict);

/**
 * The patient's routes: a write answers the patient as the read model now has it, with ETag and position; a 201 (a
 * new patient, or a new entry of one: allergy, coverage, access...) points at the patient record, which lists the entry.
 * Reads are access-audited as 'patient' (and 'patientList').
 */
export const patientKit = recordKit({
  tag: TAG,
  base: '/pacientes',
  read: READ,
  write: WRITE,
  noun: 'patient',
  model: patientModel,
  view: patientView,
  viewSchema: PatientView,
  auditAs: 'patient',
});
export const notFound404 = patientKit.notFound404;
