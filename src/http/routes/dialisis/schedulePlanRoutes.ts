// /dialisis/planes: the patients' standing plans (patient x weekdays x shift, from a date to a date).
import { minPositionQueryProperty, pageOf, pageQueryProperties, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { writeHeaders } from '../../recordHeaders.js';
import { handTypedRoute, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { createStandingPlan, endStandingPlan, type PlanInput } from '../../../commands/dialisis/schedule/scheduleWrites.js';
import { SCHEDULE_PROJECTION } from '../../../projections/dialisis/scheduleProjection.js';
import {
  awaitScheduleHead,
  listPlans,
  planAfterWrite,
  planOr404,
  planView,
  type PlanListQuery,
} from '../../../queries/dialisis/scheduleQueries.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
} from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { READ, TAG, WRITE } from './permissions.js';
import { PlanBody, PlanEndBody, PlanView } from './scheduleSchemas.js';

type IdParams = { id: string };
const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };
const plan404 = problem("No such standing plan in the selected company (another company's plan is reported the same way)");

async function planAnswer(ctx: RequestContext, plan: { planId: string; patientId: string }, position: bigint | null, status = 200) {
  const doc = await planAfterWrite(tenantCtx(ctx), plan, position);
  const location = status === 201 ? `/dialisis/planes/${plan.planId}` : undefined;
  return {
    status,
    body: planView(doc),
    headers: writeHeaders({ position: position ?? BigInt(doc._position), ...(location ? { location } : {}) }),
  };
}

export const planRoutes: RouteDecl[] = [
  handTypedRoute<NoInput, NoInput, PlanInput>({
    method: 'post',
    path: '/dialisis/planes',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Create a standing plan: patient x weekdays x shift, from a date (to a date)',
    description:
      'The patient must be of the company (422 patientId) and active (409 patient-not-schedulable); the shift of the company ' +
      '(422 shiftId), not retired, running on those weekdays (422 weekdays). A patient never has two plans on one weekday ' +
      'over overlapping dates (409 plan-overlap, with existingPlanId).',
    body: PlanBody,
    responses: { 201: ok('The new plan', PlanView, { ...RECORD_HEADERS, Location: 'URL of the plan' }), 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { planId, result } = await createStandingPlan(ctx.services, commandCtx(ctx), input.body);
        return planAnswer(ctx, { planId, patientId: input.body.patientId }, result.position, 201);
      }),
  }),
  handTypedRoute<NoInput, PlanListQuery & MinPositionQuery>({
    method: 'get',
    path: '/dialisis/planes',
    legacyQuery: ['pacienteId', 'turnoId', 'estado'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List standing plans by start date, of one patient, one shift or status',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        patientId: IdSchema,
        shiftId: IdSchema,
        status: { enum: ['active', 'ended'] },
        ...pageQueryProperties,
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'A page of plans', schema: pageOf(PlanView) }, 400: badCursor400, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'schedulePlanList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SCHEDULE_PROJECTION]);
      return { status: 200, body: await listPlans(tenantCtx(ctx), input.query) };
    },
  }),
  handTypedRoute<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/dialisis/planes/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a standing plan',
    params: Params,
    query: minPositionOnly,
    responses: { 200: { description: 'The plan', schema: PlanView }, 404: plan404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'schedulePlan', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SCHEDULE_PROJECTION]);
      return { status: 200, body: planView(await planOr404(tenantCtx(ctx), input.params.id)) };
    },
  }),
  handTypedRoute<IdParams, NoInput, { effectiveTo: string; reason: string }>({
    method: 'post',
    path: '/dialisis/planes/{id}/fin',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: 'End a standing plan: its last day and why (sessions already scheduled stay as they are)',
    params: Params,
    body: PlanEndBody,
    responses: { 200: ok('The ended plan', PlanView), 404: plan404, 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        await awaitScheduleHead(tenantCtx(ctx));
        const plan = { planId: input.params.id, patientId: (await planOr404(tenantCtx(ctx), input.params.id)).patientId };
        const result = await endStandingPlan(ctx.services, commandCtx(ctx, input.body.reason), plan, input.body);
        return planAnswer(ctx, plan, result.position);
      }),
  }),
];
