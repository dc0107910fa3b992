// /filtros-dialisis reads: the list, the floor queries (ready for a patient, alerts), a dialyzer, its readiness, its
// printable label and its history.
import Type from 'typebox';
import { MinPositionField, MinPositionQuerySchema } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import type { RouteDecl } from '../../routeTypes.js';
import { FILTROS_PROJECTION } from '../../../projections/filtros-dialisis/filtrosProjection.js';
import { DIALYZER_STATUSES } from '../../../commands/filtros-dialisis/dialyzerEvents.js';
import { listDialyzers } from '../../../queries/filtros-dialisis/dialyzers.js';
import { dialyzerAlerts, readyForPatient, readyForUse } from '../../../queries/filtros-dialisis/readyForUse.js';
import { dialyzerLabel } from '../../../queries/filtros-dialisis/label.js';
import { tenantCtx, unavailable503 } from '../shared/recordSupport.js';
import { IdParams, IdSchema } from '../shared/fieldSchemas.js';
import { labelPdf } from './labelPdf.js';
import { AlertListView, READ, ReadinessView, ReadyListView, TAG } from './schemas.js';
import { dialyzerKit } from './writeRoutes.js';
import { groupRoutes } from '../shared/groupRoutes.js';

const reads = groupRoutes(TAG);

const ForPatientQuery = Type.Object({ patientId: IdSchema, ...MinPositionField }, { additionalProperties: false });
const notFound404 = dialyzerKit.notFound404;

export const readRoutes: RouteDecl[] = [
  dialyzerKit.list({
    summary: 'List dialyzers by serial, optionally of one patient and/or in one status',
    legacyQuery: ['pacienteId', 'estado'],
    filters: { patientId: Type.Optional(IdSchema), status: Type.Optional(Type.Enum(DIALYZER_STATUSES)) },
    auditId: (query) => query.patientId ?? null,
    list: (scope, { patientId, status, limit, cursor, updatedSince }) =>
      listDialyzers(scope, { patientId, status, limit, cursor, updatedSince }),
    prepared: {}, // made of the collection alone: prepared once per change of it
  }),
  reads.get('/filtros-dialisis/listos', READ, {
    legacyQuery: ['pacienteId'],
    summary: "The patient's dialyzers in service, ready ones first, each with why it is not ready",
    query: ForPatientQuery,
    responses: { 200: { description: 'Dialyzers of the patient', schema: ReadyListView }, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialyzerList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      const at = ctx.services.now().toISOString();
      return { status: 200, body: await readyForPatient(tenantCtx(ctx), input.query.patientId, at) };
    },
  }),
  reads.get('/filtros-dialisis/alertas', READ, {
    summary: 'Dialyzers near their maximum uses (uses >= max - 2) or with falling TCV (last % below the threshold + 5)',
    query: MinPositionQuerySchema,
    responses: { 200: { description: 'Dialyzers that need attention', schema: AlertListView }, 503: unavailable503 },
    auditAccess: () => ({ recordType: 'dialyzerAlertList', recordId: null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      return { status: 200, body: await dialyzerAlerts(tenantCtx(ctx)) };
    },
  }),
  dialyzerKit.read({ summary: 'Read a dialyzer' }),
  reads.get('/filtros-dialisis/{id}/aptitud', READ, {
    legacyQuery: ['pacienteId'],
    summary: 'May this dialyzer be used for this patient now? Every failed rule is a reason',
    params: IdParams,
    query: ForPatientQuery,
    responses: { 200: { description: 'The verdict', schema: ReadinessView }, 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialyzerReadiness', recordId: input.params.id, patientIds: [input.query.patientId] }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [FILTROS_PROJECTION]);
      const at = ctx.services.now().toISOString();
      return { status: 200, body: await readyForUse(tenantCtx(ctx), input.params.id, input.query.patientId, at) };
    },
  }),
  reads.get('/filtros-dialisis/{id}/etiqueta', READ, {
    summary:
      'The printable label (PDF): QR code of the dialyzer id, patient name and document, uses, first use, last reprocessing, baseline TCV',
    params: IdParams,
    query: MinPositionQuerySchema,
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
  dialyzerKit.history({
    summary: "The dialyzer's history: who, when, why and what of every event (reprocessings, checks, uses), oldest first",
    auditAs: 'dialyzerHistory',
  }),
];
