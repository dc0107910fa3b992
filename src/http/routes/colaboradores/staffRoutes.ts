// /colaboradores: hire, list (by state, position, licence expiry), read, correct (If-Match), history, and who may sign.
import { minPositionQueryProperty, pageOf, pageQueryProperties } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { LIMITS } from '../../../limits.js';
import type { HireStaffData } from '../../../commands/colaboradores/staffEvents.js';
import { STAFF_CATEGORY } from '../../../commands/colaboradores/staffEvents.js';
import type { StaffPatch } from '../../../commands/colaboradores/staffTypes.js';
import { correctStaff, hireStaff } from '../../../commands/colaboradores/staffWrites.js';
import { COLABORADORES_PROJECTION } from '../../../projections/colaboradores/colaboradoresProjection.js';
import { CARGOS_PROJECTION } from '../../../projections/cargos-laborales/cargosProjection.js';
import { staffView } from '../../../projections/colaboradores/staffDoc.js';
import { maySignClinicalRecords } from '../../../queries/colaboradores/maySign.js';
import { listStaff, type StaffListQuery } from '../../../queries/colaboradores/staffList.js';
import { staffOr404 } from '../../../queries/colaboradores/staffRecords.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  precondition412,
  RECORD_HEADERS,
  required428,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
} from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { notFound404, Params, requireMember, staffAnswer, type IdParams } from './support.js';
import { CorrectBody, HireBody, READ, SigningView, StaffView, TAG, UserIdSchema, WRITE } from './schemas.js';

const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };
const { licenceExpiringDefaultDays, licenceExpiringMaxDays } = LIMITS.staffRecord;

export const staffRoutes: RouteDecl[] = [
  route<NoInput, NoInput, Omit<HireStaffData, 'position'>>({
    method: 'post',
    path: '/colaboradores',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Hire a staff member',
    description:
      'The identity document is unique within the company (409 duplicate-document); positionId must be an active job position of ' +
      'the company and its licence requirement met (422 naming positionId or licence); a linked userId must be a member of the ' +
      'company and linked to no other staff record (409 user-already-linked).',
    body: HireBody,
    responses: { 201: ok('The new staff record', StaffView, { ...RECORD_HEADERS, Location: 'URL of the record' }), 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        if (input.body.userId) await requireMember(ctx, input.body.userId, '/body/userId');
        const { staffId, result } = await hireStaff(ctx.services.events, commandCtx(ctx), input.body);
        return staffAnswer(ctx, staffId, result, 201);
      }),
  }),
  route<NoInput, StaffListQuery & MinPositionQuery>({
    method: 'get',
    path: '/colaboradores',
    legacyQuery: ['estado', 'cargoId', 'licencia', 'dias'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List staff by name, or by licence expiry when filtering on licences',
    description:
      'Dates compare against the service clock, as calendar dates in the company time zone (UTC when it has none): licence=vencida lists licences that expired before today; ' +
      `licence=por-vencer those expiring today or within days days (default ${licenceExpiringDefaultDays}, max ${licenceExpiringMaxDays}).`,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { enum: ['activo', 'cesado'] },
        positionId: { ...IdSchema, description: 'Only staff holding this job position' },
        licence: { enum: ['vencida', 'por-vencer'] },
        days: { type: 'integer', minimum: 0, maximum: licenceExpiringMaxDays, description: 'Window of licence=por-vencer, in days' },
        ...pageQueryProperties,
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'A page of staff records', schema: pageOf(StaffView) }, 400: badCursor400, 503: unavailable503 },
    auditAccess: () => ({ recordType: 'staffList', recordId: null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [COLABORADORES_PROJECTION]);
      return { status: 200, body: await listStaff(tenantCtx(ctx), input.query) };
    },
  }),
  route<NoInput, { userId?: string; at?: string } & MinPositionQuery>({
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
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        userId: { ...UserIdSchema, description: 'Default: the caller' },
        at: { type: 'string', format: 'date-time', description: 'Default: now' },
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'The verdict', schema: SigningView }, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [COLABORADORES_PROJECTION, CARGOS_PROJECTION]);
      const scope = tenantCtx(ctx);
      const verdict = await maySignClinicalRecords(scope, input.query.userId ?? scope.auth.userId, input.query.at ?? ctx.services.now());
      return { status: 200, body: verdict };
    },
  }),
  route<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/colaboradores/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a staff record',
    params: Params,
    query: minPositionOnly,
    responses: { 200: ok('The staff record', StaffView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'staff', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [COLABORADORES_PROJECTION]);
      const doc = await staffOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: staffView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  route<IdParams, NoInput, StaffPatch & { reason: string }>({
    method: 'patch',
    path: '/colaboradores/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: "Correct a staff member's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the record changed). A changed document must still be unique (409).',
    params: Params,
    body: CorrectBody,
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: { 200: ok('The corrected record', StaffView), 404: notFound404, 409: conflict409, 412: precondition412, 428: required428 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const header = input.headers['if-match'];
        const ifMatch = ifMatchRevision(header, { required: true });
        const { reason, ...patch } = input.body;
        const result = await correctStaff(ctx.services.events, commandCtx(ctx, reason), input.params.id, patch, ifMatch);
        return staffAnswer(ctx, input.params.id, result, 200);
      }),
  }),
  historyRoute({
    path: '/colaboradores/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The record's history: who, when, why and what of every event, oldest first",
    params: Params,
    idParam: 'id',
    category: STAFF_CATEGORY,
    projection: COLABORADORES_PROJECTION,
    notFound: notFound404,
    exists: staffOr404,
  }),
];
