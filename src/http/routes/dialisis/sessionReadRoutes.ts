// Reading sessions: one session with everything recorded, the day board, a patient's sessions, a session's history.
import Type from 'typebox';
import { MinPositionField, pageOf, PageQueryFields, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import type { RouteDecl } from '../../routeTypes.js';
import { SESSION_KINDS, SESSION_STATUSES } from '../../../commands/dialisis/session/sessionEvents.js';
import { SESSIONS_PROJECTION } from '../../../projections/dialisis/sessionsProjection.js';
import { patientModel } from '../../../queries/pacientes/readModel.js';
import { patientSessions, preparedDayBoard, sessionModel } from '../../../queries/dialisis/sessions.js';
import { PACIENTES_PROJECTION } from '../../../projections/pacientes/pacientesProjection.js';
import { PreparedJson } from '../../preparedJson.js';
import { DateSchema, DateTimeSchema, IdParams, IdSchema, nullable } from '../shared/fieldSchemas.js';
import { badCursor400, tenantCtx, unavailable503 } from '../shared/recordSupport.js';
import { READ, TAG } from './permissions.js';
import { obj } from './schemaParts.js';
import { sessionKit } from './sessionKit.js';
import { groupRoutes } from '../shared/groupRoutes.js';

const reads = groupRoutes(TAG);

const PatientParams = obj({ patientId: IdSchema });

const PatientBrief = obj(
  { id: IdSchema, givenNames: Type.String(), familyNames: Type.String(), documentType: Type.String(), documentNumber: Type.String() },
  ['id'],
);
const SessionSummary = obj({
  id: IdSchema,
  revision: Type.Integer({ minimum: 0 }),
  date: DateSchema,
  shiftId: IdSchema,
  locationId: IdSchema,
  kind: Type.Enum(SESSION_KINDS),
  status: Type.Enum(SESSION_STATUSES),
  patient: PatientBrief,
  checkedInAt: nullable(DateTimeSchema),
  startedAt: nullable(DateTimeSchema),
  endedAt: nullable(DateTimeSchema),
  machineId: nullable(IdSchema),
  stationId: nullable(IdSchema),
  readingCount: Type.Integer(),
  complicationCount: Type.Integer(),
  refusedConsequences: Type.Integer({ description: 'Consequences of its end the equipment refused: each an alert' }),
});
const BoardView = obj({
  date: DateSchema,
  locationId: nullable(IdSchema),
  shifts: Type.Array(
    obj({
      shiftId: IdSchema,
      locationId: IdSchema,
      byStatus: Type.Object({}, { additionalProperties: Type.Integer(), description: 'How many sessions in each status' }),
      sessions: Type.Array(SessionSummary, { description: 'By patient name' }),
    }),
  ),
});
const BoardQuery = Type.Object(
  { date: DateSchema, locationId: Type.Optional(IdSchema), shiftId: Type.Optional(IdSchema), ...MinPositionField },
  { additionalProperties: false },
);
const PatientSessionsQuery = Type.Object(
  { from: Type.Optional(DateSchema), to: Type.Optional(DateSchema), ...PageQueryFields, ...MinPositionField },
  { additionalProperties: false },
);

export const sessionReadRoutes: RouteDecl[] = [
  sessionKit.read({
    summary: 'A session with everything recorded: blocks, readings, complications, medications, signatures, amendments',
  }),
  reads.get('/dialisis/agenda', READ, {
    legacyQuery: ['fecha', 'sedeId', 'turnoId'],
    summary: 'The day board: the sessions of a date by shift and status (optionally one location or shift)',
    query: BoardQuery,
    responses: { 200: { description: 'The board', schema: BoardView }, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'dialysisDayBoard', recordId: input.query.date ?? null }),
    handle: async (input, ctx) => {
      // The board names its patients: a write to either is waited for, then the board kept since the last change is served.
      await awaitMinPosition(ctx, input.query.minPosition, [SESSIONS_PROJECTION, PACIENTES_PROJECTION]);
      const { date, locationId, shiftId } = input.query;
      const board = { date, ...(locationId ? { locationId } : {}), ...(shiftId ? { shiftId } : {}) };
      return { status: 200, body: await preparedDayBoard(tenantCtx(ctx), board, (b) => PreparedJson.of(b)) };
    },
  }),
  reads.get('/dialisis/pacientes/{patientId}/sesiones', READ, {
    legacyQuery: ['desde', 'hasta'],
    summary: "A patient's sessions, newest first (optionally between two dates)",
    params: PatientParams,
    query: PatientSessionsQuery,
    responses: {
      200: { description: 'A page of sessions', schema: pageOf(SessionSummary) },
      400: badCursor400,
      404: problem("No such patient in the selected company (another company's patient is reported the same way)"),
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'dialysisSessionList', recordId: input.params.patientId }),
    handle: async (input, ctx) => {
      // The page names its patient (and 404s without one): a write to either is waited for.
      await awaitMinPosition(ctx, input.query.minPosition, [SESSIONS_PROJECTION, PACIENTES_PROJECTION]);
      const scope = tenantCtx(ctx);
      await patientModel.or404(scope, input.params.patientId);
      const { from, to, limit, cursor, updatedSince } = input.query;
      // Ajv's useDefaults filled limit from the schema's default.
      const query = {
        limit: limit,
        ...(cursor ? { cursor } : {}),
        ...(from ? { from: from } : {}),
        ...(to ? { to: to } : {}),
        ...(updatedSince ? { updatedSince } : {}),
      };
      return { status: 200, body: await patientSessions(scope, input.params.patientId, query) };
    },
  }),
  historyRoute({
    path: '/dialisis/sesiones/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The session's history: every event, who, when, why, oldest first (amendments keep the original)",
    params: IdParams,
    idParam: 'id',
    auditAs: 'dialysisSessionHistory',
    category: sessionModel.category,
    fold: sessionModel.fold,
    projection: sessionModel.projection,
    notFound: sessionKit.notFound404,
    exists: sessionModel.or404,
  }),
];
