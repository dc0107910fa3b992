// Reading sessions: one session with everything recorded, the day board, a patient's sessions, a session's history.
import { minPositionQueryProperty, pageOf, pageQueryProperties, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { handTypedRoute, type RouteDecl } from '../../routeTypes.js';
import { SESSION_KINDS, SESSION_STATUSES } from '../../../commands/dialisis/session/sessionEvents.js';
import { SESSIONS_PROJECTION } from '../../../projections/dialisis/sessionsProjection.js';
import { patientModel } from '../../../queries/pacientes/readModel.js';
import {
  SESSION_CATEGORY,
  dayBoard,
  patientSessions,
  sessionOr404,
  type PatientSessionsQuery,
} from '../../../queries/dialisis/sessions.js';
import { sessionWithClinical } from '../../../queries/dialisis/sessionClinicalView.js';
import { DateSchema, DateTimeSchema, IdSchema, nullable } from '../shared/fieldSchemas.js';
import {
  badCursor400,
  ok,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
  type MinPositionQuery,
  type NoInput,
} from '../shared/recordSupport.js';
import { READ, TAG } from './permissions.js';
import { SessionView } from './sessionAnswer.js';
import { obj } from './sessionSchemas.js';

type IdParams = { id: string };
const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
const PatientParams = { type: 'object', additionalProperties: false, required: ['patientId'], properties: { patientId: IdSchema } };
const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };
const notFound404 = problem("No such session in the selected company (another company's session is reported the same way)");

const PatientBrief = obj(
  {
    id: IdSchema,
    givenNames: { type: 'string' },
    familyNames: { type: 'string' },
    documentType: { type: 'string' },
    documentNumber: { type: 'string' },
  },
  ['id'],
);
const SessionSummary = obj({
  id: IdSchema,
  revision: { type: 'integer', minimum: 0 },
  date: DateSchema,
  shiftId: IdSchema,
  locationId: IdSchema,
  kind: { enum: [...SESSION_KINDS] },
  status: { enum: [...SESSION_STATUSES] },
  patient: PatientBrief,
  checkedInAt: nullable(DateTimeSchema),
  startedAt: nullable(DateTimeSchema),
  endedAt: nullable(DateTimeSchema),
  machineId: nullable(IdSchema),
  stationId: nullable(IdSchema),
  readingCount: { type: 'integer' },
  complicationCount: { type: 'integer' },
  refusedConsequences: { type: 'integer', description: 'Consequences of its end the equipment refused: each an alert' },
});
const BoardView = obj({
  date: DateSchema,
  locationId: nullable(IdSchema),
  shifts: {
    type: 'array',
    items: obj({
      shiftId: IdSchema,
      locationId: IdSchema,
      byStatus: { type: 'object', additionalProperties: { type: 'integer' }, description: 'How many sessions in each status' },
      sessions: { type: 'array', items: SessionSummary, description: 'By patient name' },
    }),
  },
});

type BoardQuery = MinPositionQuery & { date: string; locationId?: string; shiftId?: string };

export const sessionReadRoutes: RouteDecl[] = [
  handTypedRoute<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/dialisis/sesiones/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'A session with everything recorded: blocks, readings, complications, medications, signatures, amendments',
    params: Params,
    query: minPositionOnly,
    responses: { 200: ok('The session', SessionView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialysisSession', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SESSIONS_PROJECTION]);
      const scope = tenantCtx(ctx);
      const doc = await sessionOr404(scope, input.params.id);
      return { status: 200, body: await sessionWithClinical(scope, doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  handTypedRoute<NoInput, BoardQuery>({
    method: 'get',
    path: '/dialisis/agenda',
    legacyQuery: ['fecha', 'sedeId', 'turnoId'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'The day board: the sessions of a date by shift and status (optionally one location or shift)',
    query: {
      type: 'object',
      additionalProperties: false,
      required: ['date'],
      properties: { date: DateSchema, locationId: IdSchema, shiftId: IdSchema, ...minPositionQueryProperty },
    },
    responses: { 200: { description: 'The board', schema: BoardView }, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialysisDayBoard', recordId: input.query.date ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SESSIONS_PROJECTION]);
      const { date, locationId, shiftId } = input.query;
      const board = await dayBoard(tenantCtx(ctx), {
        date: date,
        ...(locationId ? { locationId: locationId } : {}),
        ...(shiftId ? { shiftId: shiftId } : {}),
      });
      return { status: 200, body: board };
    },
  }),
  handTypedRoute<{ patientId: string }, MinPositionQuery & PatientSessionsQuery & { from?: string; to?: string }>({
    method: 'get',
    path: '/dialisis/pacientes/{patientId}/sesiones',
    legacyQuery: ['desde', 'hasta'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "A patient's sessions, newest first (optionally between two dates)",
    params: PatientParams,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { from: DateSchema, to: DateSchema, ...pageQueryProperties, ...minPositionQueryProperty },
    },
    responses: {
      200: { description: 'A page of sessions', schema: pageOf(SessionSummary) },
      400: badCursor400,
      404: problem("No such patient in the selected company (another company's patient is reported the same way)"),
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'dialysisSessionList', recordId: input.params.patientId }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SESSIONS_PROJECTION]);
      const scope = tenantCtx(ctx);
      await patientModel.or404(scope, input.params.patientId);
      const { from, to, limit, cursor } = input.query;
      const query = { limit, ...(cursor ? { cursor } : {}), ...(from ? { from: from } : {}), ...(to ? { to: to } : {}) };
      return { status: 200, body: await patientSessions(scope, input.params.patientId, query) };
    },
  }),
  historyRoute({
    path: '/dialisis/sesiones/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The session's history: every event, who, when, why, oldest first (amendments keep the original)",
    params: Params,
    idParam: 'id',
    auditAs: 'dialysisSessionHistory',
    category: SESSION_CATEGORY,
    projection: SESSIONS_PROJECTION,
    notFound: notFound404,
    exists: sessionOr404,
  }),
];
