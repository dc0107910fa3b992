// /colaboradores: hire, list (by state, position, licence expiry), read, correct (If-Match), history, and who may sign.
import Type from 'typebox';
import { MinPositionField } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { LIMITS } from '../../../limits.js';
import { correctStaff, hireStaff } from '../../../commands/colaboradores/staffWrites.js';
import { COLABORADORES_PROJECTION } from '../../../projections/colaboradores/colaboradoresProjection.js';
import { CARGOS_PROJECTION } from '../../../projections/cargos-laborales/cargosProjection.js';
import { maySignClinicalRecords } from '../../../queries/colaboradores/maySign.js';
import { listStaff, staffListDay } from '../../../queries/colaboradores/staffList.js';
import { staffModel } from '../../../queries/colaboradores/staffRecords.js';
import { commandCtx, tenantCtx, unavailable503 } from '../shared/recordSupport.js';
import { IdParams, IdSchema } from '../shared/fieldSchemas.js';
import { staff } from './support.js';
import { CorrectBody, HireBody, READ, SigningView, TAG, UserIdSchema } from './schemas.js';

const { licenceExpiringDefaultDays, licenceExpiringMaxDays } = LIMITS.staffRecord;

const SigningQuery = Type.Object(
  {
    userId: Type.Optional({ ...UserIdSchema, description: 'Default: the caller' }),
    at: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now' })),
    ...MinPositionField,
  },
  { additionalProperties: false },
);

export const staffRoutes: RouteDecl[] = [
  staff.create({
    summary: 'Hire a staff member',
    description:
      'The identity document is unique within the company (409 duplicate-document); positionId must be an active job position of ' +
      'the company and its licence requirement met (422 naming positionId or licence); a linked userId must be a member of the ' +
      'company and linked to no other staff record (409 user-already-linked).',
    body: HireBody,
    idKey: 'staffId',
    handle: (body, ctx) => hireStaff(ctx.services, commandCtx(ctx), body),
  }),
  staff.list({
    summary: 'List staff by name, or by licence expiry when filtering on licences',
    description:
      'Dates compare against the service clock, as calendar dates in the company time zone (UTC when it has none): licence=vencida lists licences that expired before today; ' +
      `licence=por-vencer those expiring today or within days days (default ${licenceExpiringDefaultDays}, max ${licenceExpiringMaxDays}).`,
    legacyQuery: ['estado', 'cargoId', 'licencia', 'dias'],
    filters: {
      status: Type.Optional(Type.Enum(['activo', 'cesado'])),
      positionId: Type.Optional({ ...IdSchema, description: 'Only staff holding this job position' }),
      licence: Type.Optional(Type.Enum(['vencida', 'por-vencer'])),
      days: Type.Optional(
        Type.Integer({ minimum: 0, maximum: licenceExpiringMaxDays, description: 'Window of licence=por-vencer, in days' }),
      ),
    },
    list: listStaff,
    // A licence filter compares with the company's today: the day is part of the page.
    prepared: {
      context: async (scope, query) => {
        const day = await staffListDay(scope, query);
        return { key: day ?? '', value: day };
      },
    },
  }),
  route({
    method: 'get',
    path: '/colaboradores/firma-habilitada',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'May this user sign clinical records now?',
    description:
      'Allowed when the user is linked to a staff record of the company that is active (hired on or before the day, not terminated), ' +
      'whose job position is active and clinical, and whose licence is valid that day when the position requires one. Every ' +
      'failed condition is a reason code.',
    query: SigningQuery,
    responses: { 200: { description: 'The verdict', schema: SigningView }, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [COLABORADORES_PROJECTION, CARGOS_PROJECTION]);
      const scope = tenantCtx(ctx);
      const verdict = await maySignClinicalRecords(scope, input.query.userId ?? scope.auth.userId, input.query.at ?? ctx.services.now());
      return { status: 200, body: verdict };
    },
  }),
  staff.read({ summary: 'Read a staff record' }),
  staff.patch({
    summary: "Correct a staff member's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the record changed). A changed document must still be unique (409).',
    body: CorrectBody,
    handle: (id, { reason, ...patch }, ctx, ifMatch) => correctStaff(ctx.services.events, commandCtx(ctx, reason), id, patch, ifMatch),
  }),
  // Not the kit's history: a staff record's history is not in the access audit (its reads are).
  historyRoute({
    path: '/colaboradores/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The record's history: who, when, why and what of every event, oldest first",
    params: IdParams,
    idParam: 'id',
    category: staffModel.category,
    fold: staffModel.fold,
    projection: staffModel.projection,
    notFound: staff.notFound404,
    exists: staffModel.or404,
  }),
];
