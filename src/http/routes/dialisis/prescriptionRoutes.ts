// /dialisis/pacientes/{patientId}/prescripciones: issue a version (the caller prescribes), list the versions, the one in
// force on a day, discontinue. The ETag is the revision of the patient's prescription stream.
import Type from 'typebox';
import { MinPositionField, pageOf, PageQueryFields, problem } from '../../commonSchemas.js';
import { AsOfFields, asOfHeaders, pointOf } from '../../recordAsOf.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { writeHeaders } from '../../recordHeaders.js';
import type { RouteDecl } from '../../routeTypes.js';
import { discontinuePrescription, issuePrescription } from '../../../commands/dialisis/prescription/prescriptionWrites.js';
import { companyDay } from '../../../queries/empresas/companyCalendar.js';
import {
  listPrescriptions,
  prescriptionInForceAt,
  prescriptionInForceOr404,
  prescriptionModel,
  prescriptionRevision,
} from '../../../queries/dialisis/prescriptions.js';
import {
  badCursor400,
  commandCtx,
  createdOk,
  ok,
  READ_HEADERS,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
} from '../shared/recordSupport.js';
import { DateSchema } from '../shared/fieldSchemas.js';
import { READ, TAG } from './permissions.js';
import { patient404, prescribeRoute } from './prescriptionKit.js';
import { DiscontinueBody, IssueBody, PatientParams, PrescriptionView } from './prescriptionSchemas.js';
import { groupRoutes } from '../shared/groupRoutes.js';

const routes = groupRoutes(TAG);

const BASE = '/dialisis/pacientes/{patientId}/prescripciones';
const PageQuery = Type.Object({ ...PageQueryFields, ...MinPositionField }, { additionalProperties: false });
const InForceQuery = Type.Object({ ...MinPositionField, ...AsOfFields, date: Type.Optional(DateSchema) }, { additionalProperties: false });

export const prescriptionRoutes: RouteDecl[] = [
  prescribeRoute({
    path: BASE,
    created: true,
    summary: "Issue a new version of the patient's dialysis prescription (the caller is the prescriber)",
    description:
      'Version n+1 supersedes version n from its validFrom on (n then ends the day before; it stays in the history). The caller ' +
      "must hold a physician's staff record (a cargos-laborales physician position) allowed to sign clinical records now (403 " +
      'prescriber-may-not-sign, reasons[] with position-not-physician for any other licensed staff). Refused (409) for a patient ' +
      'not active (patient-deceased, patient-discharged, patient-inactive) and for a validFrom before the previous version’s ' +
      '(valid-from-before-previous-version). Hard ranges and rules between fields answer 422 naming the field. If-Match (optional): ' +
      'the ETag last read of the prescriptions.',
    body: IssueBody,
    answered: createdOk('The new version', PrescriptionView, "URL of the patient's versions (newest first)"),
    write: (deps, ctx, patientId, body, expected) => issuePrescription(deps, commandCtx(ctx), patientId, body, expected),
  }),
  routes.get(BASE, READ, {
    summary: "The patient's prescription versions, newest first, each with its effective period and successor",
    params: PatientParams,
    query: PageQuery,
    responses: {
      200: ok('A page of versions', pageOf(PrescriptionView), { ETag: RECORD_HEADERS.ETag }),
      400: badCursor400,
      404: patient404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'prescriptionList', recordId: input.params.patientId }),
    handle: async (input, ctx) => {
      // The versions show the patient's dry weight (and 404 without the patient): a write to either is waited for.
      await awaitMinPosition(ctx, input.query.minPosition, prescriptionModel.awaits);
      const scope = tenantCtx(ctx);
      // Ajv's useDefaults filled limit from the schema's default.
      const page = await listPrescriptions(scope, input.params.patientId, { ...input.query, limit: input.query.limit });
      const revision = await prescriptionRevision(scope, input.params.patientId);
      return { status: 200, body: page, headers: writeHeaders({ revision }) };
    },
  }),
  routes.get(`${BASE}/vigente`, READ, {
    legacyQuery: ['fecha'],
    summary: 'The prescription version in force on a day (default: the company’s today)',
    description:
      'With asOf or version (of the patient’s prescription stream): the version in force on the day (default: the ' +
      'company’s day at asOf) as the prescriptions stood then.',
    params: PatientParams,
    query: InForceQuery,
    responses: {
      200: ok('The version in force', PrescriptionView, READ_HEADERS),
      404: problem('No such patient in the selected company, or no prescription in force that day'),
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'prescription', recordId: input.params.patientId }),
    handle: async (input, ctx) => {
      const point = pointOf(input.query);
      if (point) {
        const { at, view } = await prescriptionInForceAt(tenantCtx(ctx), input.params.patientId, input.query.date, point);
        return { status: 200, body: view, headers: await asOfHeaders(ctx, at) };
      }
      await awaitMinPosition(ctx, input.query.minPosition, prescriptionModel.awaits);
      const scope = tenantCtx(ctx);
      const date = input.query.date ?? (await companyDay(scope, ctx.services.now()));
      const view = await prescriptionInForceOr404(scope, input.params.patientId, date);
      const revision = await prescriptionRevision(scope, input.params.patientId);
      return { status: 200, body: view, headers: writeHeaders({ revision }) };
    },
  }),
  prescribeRoute({
    path: `${BASE}/suspension`,
    created: false,
    summary: 'Discontinue the latest prescription version from a day (default: the company’s today)',
    description:
      "Like issuing, the caller must hold a physician's staff record allowed to sign clinical records now (403 " +
      'prescriber-may-not-sign); the version records who discontinued it (`discontinued.by`). ' +
      'No version is in force from `from` on; the version keeps its history. Refused (409) without a prescription ' +
      '(no-prescription), twice (prescription-discontinued) or after the version ended (prescription-ended); a `from` before ' +
      'its validFrom answers 422 naming from.',
    body: DiscontinueBody,
    answered: ok('The discontinued version', PrescriptionView),
    write: (deps, ctx, patientId, body, expected) => discontinuePrescription(deps, commandCtx(ctx, body.reason), patientId, body, expected),
  }),
];
