// /dialisis/turnos: the shifts of each location (their occupancy on a date is in scheduleSessionRoutes.ts).
import type { TenantScope } from '../../../queries/tenantScope.js';
import { recordAnswer, type WriteOutcome } from '../../recordAnswer.js';
import { minPositionQueryProperty, pageOf, pageQueryProperties, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { handTypedRoute, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { ShiftPatch } from '../../../commands/dialisis/schedule/shiftEvents.js';
import { correctShift, defineShift, retireShift, type ShiftInput } from '../../../commands/dialisis/schedule/scheduleWrites.js';
import { scheduleDeps } from '../../../facts/dialisis/index.js';
import { SCHEDULE_PROJECTION } from '../../../projections/dialisis/scheduleProjection.js';
import { listShifts, shiftAfterWrite, shiftOr404, shiftView, type ShiftListQuery } from '../../../queries/dialisis/scheduleQueries.js';
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
import { READ, TAG, WRITE } from './permissions.js';
import { ReasonBody, ShiftBody, ShiftPatchBody, ShiftView } from './scheduleSchemas.js';

type IdParams = { id: string };
const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };
const shift404 = problem("No such shift in the selected company (another company's shift is reported the same way)");

const shiftRecord = {
  latest: (scope: TenantScope, id: string, result: WriteOutcome) => shiftAfterWrite(scope, id, result.position),
  view: shiftView,
  location: (id: string) => `/dialisis/turnos/${id}`,
};
const shiftAnswer = (ctx: RequestContext, id: string, result: WriteOutcome, status = 200): Promise<HttpResult> =>
  recordAnswer(ctx, shiftRecord, id, result, status);

export const shiftRoutes: RouteDecl[] = [
  handTypedRoute<NoInput, NoInput, ShiftInput>({
    method: 'post',
    path: '/dialisis/turnos',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Define a shift of a location: weekdays, dialysis window, cleaning window, nominal and reserved seats',
    description:
      'The location must be one of the company (422 naming locationId) and open (409 location-closed). Without capacity the ' +
      "company policy's default applies (the event records the policy revision).",
    body: ShiftBody,
    responses: { 201: ok('The new shift', ShiftView, { ...RECORD_HEADERS, Location: 'URL of the shift' }), 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { shiftId, result } = await defineShift(scheduleDeps(ctx.services), commandCtx(ctx), input.body);
        return shiftAnswer(ctx, shiftId, result, 201);
      }),
  }),
  handTypedRoute<NoInput, ShiftListQuery & MinPositionQuery>({
    method: 'get',
    path: '/dialisis/turnos',
    legacyQuery: ['sedeId', 'estado'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List shifts by name, of one location or status',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { locationId: IdSchema, status: { enum: ['active', 'retired'] }, ...pageQueryProperties, ...minPositionQueryProperty },
    },
    responses: { 200: { description: 'A page of shifts', schema: pageOf(ShiftView) }, 400: badCursor400, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SCHEDULE_PROJECTION]);
      return { status: 200, body: await listShifts(tenantCtx(ctx), input.query) };
    },
  }),
  handTypedRoute<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/dialisis/turnos/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a shift',
    params: Params,
    query: minPositionOnly,
    responses: { 200: ok('The shift', ShiftView, { ETag: RECORD_HEADERS.ETag }), 404: shift404, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SCHEDULE_PROJECTION]);
      const doc = await shiftOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: shiftView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  handTypedRoute<IdParams, NoInput, ShiftPatch & { reason: string }>({
    method: 'patch',
    path: '/dialisis/turnos/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: "Correct a shift's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the shift changed). Seats already taken ' +
      'stay taken when the capacity is lowered; new claims follow the new capacity.',
    params: Params,
    body: ShiftPatchBody,
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: { 200: ok('The corrected shift', ShiftView), 404: shift404, 409: conflict409, 412: precondition412, 428: required428 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match'], { required: true });
        const { reason, ...patch } = input.body;
        const result = await correctShift(ctx.services, commandCtx(ctx, reason), input.params.id, patch, ifMatch);
        return shiftAnswer(ctx, input.params.id, result);
      }),
  }),
  handTypedRoute<IdParams, NoInput, { reason: string }>({
    method: 'post',
    path: '/dialisis/turnos/{id}/baja',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: 'Retire a shift (terminal) with a reason: no new plan or session may use it',
    params: Params,
    body: ReasonBody,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The retired shift', ShiftView), 404: shift404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const cmd = commandCtx(ctx, input.body.reason);
        const result = await retireShift(ctx.services, cmd, input.params.id, input.body.reason, ifMatch);
        return shiftAnswer(ctx, input.params.id, result);
      }),
  }),
];
