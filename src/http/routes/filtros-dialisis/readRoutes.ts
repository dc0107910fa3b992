// /filtros-dialisis reads: the list, the floor queries (ready for a patient, alerts), a dialyzer, its readiness, its
// printable label and its history.
import { minPositionQueryProperty, pageOf, pageQueryProperties } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { FILTROS_PROJECTION } from '../../../projections/filtros-dialisis/filtrosProjection.js';
import { dialyzerView } from '../../../projections/filtros-dialisis/dialyzerDoc.js';
import { DIALYZER_STATUSES, DIALYZER_CATEGORY } from '../../../commands/filtros-dialisis/dialyzerEvents.js';
import { dialyzerOr404, listDialyzers } from '../../../queries/filtros-dialisis/dialyzers.js';
import { dialyzerAlerts, readyForPatient, readyForUse } from '../../../queries/filtros-dialisis/readyForUse.js';
import { dialyzerLabel } from '../../../queries/filtros-dialisis/label.js';
import {
  badCursor400,
  ok,
  tenantCtx,
  unavailable503,
  type MinPositionQuery,
  type NoInput,
  type PageQuery,
} from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { labelPdf } from './labelPdf.js';
import { AlertListView, DialyzerView, READ, ReadinessView, ReadyListView, TAG } from './schemas.js';
import { notFound404, Params, type IdParams } from './writeRoutes.js';

const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };
const forPatient = {
  type: 'object',
  additionalProperties: false,
  required: ['patientId'],
  properties: { patientId: IdSchema, ...minPositionQueryProperty },
};
type PatientQuery = MinPositionQuery & { patientId: string };
type ListQuery = PageQuery & { patientId?: string; status?: (typeof DIALYZER_STATUSES)[number] };

export const readRoutes: RouteDecl[] = [
  route<NoInput, ListQuery>({
    method: 'get',
    path: '/filtros-dialisis',
    legacyQuery: ['pacienteId', 'estado'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List dialyzers by serial, optionally of one patient and/or in one status',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { patientId: IdSchema, status: { enum: [...DIALYZER_STATUSES] }, ...pageQueryProperties, ...minPositionQueryProperty },
    },
    responses: { 200: { description: 'A page of dialyzers', schema: pageOf(DialyzerView) }, 400: badCursor400, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialyzerList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      const { patientId, status, limit, cursor } = input.query;
      return { status: 200, body: await listDialyzers(tenantCtx(ctx), { patientId: patientId, status: status, limit, cursor }) };
    },
  }),
  route<NoInput, PatientQuery>({
    method: 'get',
    path: '/filtros-dialisis/listos',
    legacyQuery: ['pacienteId'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The patient's dialyzers in service, ready ones first, each with why it is not ready",
    query: forPatient,
    responses: { 200: { description: 'Dialyzers of the patient', schema: ReadyListView }, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialyzerList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      const at = ctx.services.now().toISOString();
      return { status: 200, body: await readyForPatient(tenantCtx(ctx), input.query.patientId, at) };
    },
  }),
  route<NoInput, MinPositionQuery>({
    method: 'get',
    path: '/filtros-dialisis/alertas',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Dialyzers near their maximum uses (uses >= max - 2) or with falling TCV (last % below the threshold + 5)',
    query: minPositionOnly,
    responses: { 200: { description: 'Dialyzers that need attention', schema: AlertListView }, 503: unavailable503 },
    auditAccess: () => ({ recordType: 'dialyzerAlertList', recordId: null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      return { status: 200, body: await dialyzerAlerts(tenantCtx(ctx)) };
    },
  }),
  route<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/filtros-dialisis/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a dialyzer',
    params: Params,
    query: minPositionOnly,
    responses: { 200: ok('The dialyzer', DialyzerView, { ETag: 'W/"<revision>"' }), 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialyzer', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      const doc = await dialyzerOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: dialyzerView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  route<IdParams, PatientQuery>({
    method: 'get',
    path: '/filtros-dialisis/{id}/aptitud',
    legacyQuery: ['pacienteId'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'May this dialyzer be used for this patient now? Every failed rule is a reason',
    params: Params,
    query: forPatient,
    responses: { 200: { description: 'The verdict', schema: ReadinessView }, 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialyzerReadiness', recordId: input.params.id, patientIds: [input.query.patientId] }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      const at = ctx.services.now().toISOString();
      return { status: 200, body: await readyForUse(tenantCtx(ctx), input.params.id, input.query.patientId, at) };
    },
  }),
  route<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/filtros-dialisis/{id}/etiqueta',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary:
      'The printable label (PDF): QR code of the dialyzer id, patient name and document, uses, first use, last reprocessing, baseline TCV',
    params: Params,
    query: minPositionOnly,
    responses: {
      200: { description: 'The label', contentType: 'application/pdf', schema: { type: 'string', format: 'binary' } },
      404: notFound404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'dialyzerLabel', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      const label = await dialyzerLabel(tenantCtx(ctx), input.params.id);
      const auditPatientIds = label.patientId ? [label.patientId] : []; // a PDF: the audit cannot read the patient from it
      return { status: 200, body: await labelPdf(label), contentType: 'application/pdf', auditPatientIds };
    },
  }),
  historyRoute({
    path: '/filtros-dialisis/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The dialyzer's history: who, when, why and what of every event (reprocessings, checks, uses), oldest first",
    params: Params,
    idParam: 'id',
    auditAs: 'dialyzerHistory',
    category: DIALYZER_CATEGORY,
    projection: FILTROS_PROJECTION,
    notFound: notFound404,
    exists: dialyzerOr404,
  }),
];
