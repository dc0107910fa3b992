// What every Pacientes route shares: tag, permissions, params, problem responses, the answer of a write.
import type { CommandResult } from '../../../commands/handleCommand.js';
import { problem } from '../../commonSchemas.js';
import { recordAnswer, type RecordAnswerModel } from '../../recordAnswer.js';
import type { HttpResult, JsonSchema, RequestContext } from '../../routeTypes.js';
import { noteView, type NoteDoc, type NoteVersion } from '../../../projections/pacientes/noteDoc.js';
import { patientView } from '../../../projections/pacientes/patientDoc.js';
import { IdSchema } from './patientSchemas.js';
import { noteAfterWrite, patientAfterWrite } from '../../../queries/pacientes/readModel.js';

// The shared pieces, re-exported: the Pacientes routes import their support from one place.
export {
  RECORD_HEADERS,
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  precondition412,
  required428,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
  type PageQuery,
} from '../shared/recordSupport.js';

export const TAG = 'Pacientes';
export const READ = 'pacientes:read';
export const WRITE = 'pacientes:write';

const params = (...names: string[]): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: names,
  properties: Object.fromEntries(names.map((n) => [n, IdSchema])),
});
export const PatientParams = params('id');
export const AccessParams = params('id', 'accessId');
export const CoverageParams = params('id', 'coverageId');
export const NoteParams = params('id', 'noteId');

/** The params above as handlers read them. */
export type PatientIdParams = { id: string };
export type AccessIdParams = PatientIdParams & { accessId: string };
export type CoverageIdParams = PatientIdParams & { coverageId: string };
export type NoteIdParams = PatientIdParams & { noteId: string };

export const notFound404 = problem("No such patient in the selected company (another company's patient is reported the same way)");
/**
 * The answer of a patient write: the patient as the read model now has it, with ETag and position. A 201 (a new
 * patient, or a new entry of one: allergy, coverage, access...) points at the patient record, which lists the entry.
 */
const patientRecord = { latest: patientAfterWrite, view: patientView, location: (id: string) => `/pacientes/${id}` };
export const patientAnswer = (
  ctx: RequestContext,
  patientId: string,
  result: CommandResult<unknown>,
  status: number,
): Promise<HttpResult> => recordAnswer(ctx, patientRecord, patientId, result, status);

/** The note after a write with its latest versions; a location only where the caller names one. */
type WrittenNote = { revision: number; _position: NoteDoc['_position']; doc: NoteDoc; versions: NoteVersion[] };
const noteRecord: RecordAnswerModel<WrittenNote> = {
  latest: async (scope, noteId, result) => {
    const { doc, versions } = await noteAfterWrite(scope, noteId, result);
    return { revision: doc.revision, _position: doc._position, doc, versions };
  },
  view: ({ doc, versions }) => noteView(doc, versions),
};
export const noteAnswer = (
  ctx: RequestContext,
  noteId: string,
  result: CommandResult<unknown>,
  status: number,
  location?: string,
): Promise<HttpResult> => recordAnswer(ctx, noteRecord, noteId, result, status, location ? { location } : {});
