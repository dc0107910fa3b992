// /dialisis/pacientes/{patientId}/prescripciones: issue a version (the caller prescribes), list the versions, the one in
// force on a day, discontinue. The ETag is the revision of the patient's prescription stream.
import { minPositionQueryProperty, pageOf, pageQueryProperties, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { ifMatchHeader, ifMatchRevision, writeHeaders } from '../../recordHeaders.js';
import { handTypedRoute, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { PrescriptionFields } from '../../../commands/dialisis/prescription/prescriptionEvents.js';
import {
  discontinuePrescription,
  issuePrescription,
  type PrescriptionResult,
} from '../../../commands/dialisis/prescription/prescriptionWrites.js';
import { prescriptionDeps } from '../../../facts/dialisis/index.js';
import { PRESCRIPTIONS_PROJECTION } from '../../../projections/dialisis/prescriptionsProjection.js';
import { companyDay } from '../../../queries/empresas/companyCalendar.js';
import {
  listPrescriptions,
  prescriptionAfterWrite,
  prescriptionInForceOr404,
  prescriptionRevision,
} from '../../../queries/dialisis/prescriptions.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  precondition412,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
  type PageQuery,
} from '../shared/recordSupport.js';
import { DateSchema } from '../shared/fieldSchemas.js';
import { PRESCRIBE, READ, TAG } from './permissions.js';
import { DiscontinueBody, IssueBody, PatientParams, PrescriptionView } from './prescriptionSchemas.js';

type Params = { patientId: string };
const BASE = '/dialisis/pacientes/{patientId}/prescripciones';
const notFound404 = problem("No such patient in the selected company (another company's patient is reported the same way)");
const forbidden403 = problem(
  'Missing permission dialisis:prescribe (`/problems/forbidden`), or the caller may not sign clinical records now: no staff ' +
    'record, not a clinical position, not a physician position, no valid licence (`/problems/prescriber-may-not-sign`, ' +
    'reasons[]); and the framework reasons',
);
const ifMatch = { 'If-Match': ifMatchHeader(false) };
const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };

async function answer(ctx: RequestContext, patientId: string, result: PrescriptionResult, status: 200 | 201): Promise<HttpResult> {
  const version = (result.events[0]?.data as { version?: number } | undefined)?.version;
  const body = await prescriptionAfterWrite(tenantCtx(ctx), patientId, version ?? 0, result);
  const location = status === 201 ? `/dialisis/pacientes/${patientId}/prescripciones` : undefined;
  return {
    status,
    body,
    headers: writeHeaders({ revision: result.revision, position: result.position, ...(location ? { location } : {}) }),
  };
}

export const prescriptionRoutes: RouteDecl[] = [
  handTypedRoute<Params, NoInput, PrescriptionFields>({
    method: 'post',
    path: BASE,
    tag: TAG,
    auth: 'tenant',
    permission: PRESCRIBE,
    idempotent: true,
    summary: "Issue a new version of the patient's dialysis prescription (the caller is the prescriber)",
    description:
      'Version n+1 supersedes version n from its validFrom on (n then ends the day before; it stays in the history). The caller ' +
      "must hold a physician's staff record (a cargos-laborales physician position) allowed to sign clinical records now (403 " +
      'prescriber-may-not-sign, reasons[] with position-not-physician for any other licensed staff). Refused (409) for a patient ' +
      'not active (patient-deceased, patient-discharged, patient-inactive) and for a validFrom before the previous version’s ' +
      '(valid-from-before-previous-version). Hard ranges and rules between fields answer 422 naming the field. If-Match (optional): ' +
      'the ETag last read of the prescriptions.',
    params: PatientParams,
    body: IssueBody,
    requestHeaders: ifMatch,
    responses: {
      201: ok('The new version', PrescriptionView, { ...RECORD_HEADERS, Location: "URL of the patient's versions (newest first)" }),
      403: forbidden403,
      404: notFound404,
      409: conflict409,
      412: precondition412,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const expected = ifMatchRevision(input.headers['if-match']);
        const result = await issuePrescription(
          prescriptionDeps(ctx.services),
          commandCtx(ctx),
          input.params.patientId,
          input.body,
          expected,
        );
        return answer(ctx, input.params.patientId, result, 201);
      }),
  }),
  handTypedRoute<Params, PageQuery>({
    method: 'get',
    path: BASE,
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The patient's prescription versions, newest first, each with its effective period and successor",
    params: PatientParams,
    query: { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, ...minPositionQueryProperty } },
    responses: {
      200: ok('A page of versions', pageOf(PrescriptionView), { ETag: RECORD_HEADERS.ETag }),
      400: badCursor400,
      404: notFound404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'prescriptionList', recordId: input.params.patientId }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRESCRIPTIONS_PROJECTION]);
      const scope = tenantCtx(ctx);
      const page = await listPrescriptions(scope, input.params.patientId, input.query);
      const revision = await prescriptionRevision(scope, input.params.patientId);
      return { status: 200, body: page, headers: writeHeaders({ revision }) };
    },
  }),
  handTypedRoute<Params, MinPositionQuery & { date?: string }>({
    method: 'get',
    path: `${BASE}/vigente`,
    legacyQuery: ['fecha'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'The prescription version in force on a day (default: the company’s today)',
    params: PatientParams,
    query: { ...minPositionOnly, properties: { ...minPositionOnly.properties, date: DateSchema } },
    responses: {
      200: ok('The version in force', PrescriptionView, { ETag: RECORD_HEADERS.ETag }),
      404: problem('No such patient in the selected company, or no prescription in force that day'),
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'prescription', recordId: input.params.patientId }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRESCRIPTIONS_PROJECTION]);
      const scope = tenantCtx(ctx);
      const date = input.query.date ?? (await companyDay(scope, ctx.services.now()));
      const view = await prescriptionInForceOr404(scope, input.params.patientId, date);
      const revision = await prescriptionRevision(scope, input.params.patientId);
      return { status: 200, body: view, headers: writeHeaders({ revision }) };
    },
  }),
  handTypedRoute<Params, NoInput, { reason: string; from?: string }>({
    method: 'post',
    path: `${BASE}/suspension`,
    tag: TAG,
    auth: 'tenant',
    permission: PRESCRIBE,
    summary: 'Discontinue the latest prescription version from a day (default: the company’s today)',
    description:
      "Like issuing, the caller must hold a physician's staff record allowed to sign clinical records now (403 " +
      'prescriber-may-not-sign); the version records who discontinued it (`discontinued.by`). ' +
      'No version is in force from `from` on; the version keeps its history. Refused (409) without a prescription ' +
      '(no-prescription), twice (prescription-discontinued) or after the version ended (prescription-ended); a `from` before ' +
      'its validFrom answers 422 naming from.',
    params: PatientParams,
    body: DiscontinueBody,
    requestHeaders: ifMatch,
    responses: {
      200: ok('The discontinued version', PrescriptionView),
      403: forbidden403,
      404: notFound404,
      409: conflict409,
      412: precondition412,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const expected = ifMatchRevision(input.headers['if-match']);
        const cmd = commandCtx(ctx, input.body.reason);
        const result = await discontinuePrescription(prescriptionDeps(ctx.services), cmd, input.params.patientId, input.body, expected);
        return answer(ctx, input.params.patientId, result, 200);
      }),
  }),
];
