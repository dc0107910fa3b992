// GET /pacientes/{id}/<list>: every entry of a patient's list (dry weights, serology, allergies, coverages, vascular
// accesses), oldest first, page by page. The patient record itself keeps only the latest of each (LIMITS.patientRecord).
import { PageQuerySchema } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { PACIENTES_PROJECTION } from '../../../projections/pacientes/pacientesProjection.js';
import { PATIENT_LISTS, type PatientList } from '../../../projections/pacientes/patientEntries.js';
import { patientListPage } from '../../../queries/pacientes/patientLists.js';
import { patientModel } from '../../../queries/pacientes/readModel.js';
import { notFound404, PatientParams, READ, TAG, tenantCtx, pageResponses } from './routeSupport.js';
import { PATIENT_LIST_PATHS, PatientListItems } from './viewSchemas.js';

const SUMMARIES: Record<PatientList, string> = {
  dryWeightHistory: 'Every dry weight prescribed to a patient, oldest first',
  serology: 'Every serology result of a patient, oldest first',
  allergies: 'Every allergy recorded for a patient, oldest first',
  coverages: 'Every coverage of a patient, active or ended, oldest first',
  vascularAccesses: 'Every vascular access of a patient, whatever its status, oldest first',
};

const listRoute = (list: PatientList): RouteDecl =>
  route({
    method: 'get',
    path: `/pacientes/{id}${PATIENT_LIST_PATHS[list]}`,
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: SUMMARIES[list],
    params: PatientParams,
    query: PageQuerySchema,
    responses: pageResponses('A page of entries', PatientListItems[list], notFound404),
    auditAccess: (input) => ({ recordType: 'patient', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      const patient = await patientModel.or404(tenantCtx(ctx), input.params.id);
      // Ajv's useDefaults filled limit from the schema's default.
      return {
        status: 200,
        body: await patientListPage(tenantCtx(ctx), patient, list, input.query.limit, input.query.cursor, input.query.updatedSince),
      };
    },
  });

export const listRoutes: RouteDecl[] = PATIENT_LISTS.map(listRoute);
