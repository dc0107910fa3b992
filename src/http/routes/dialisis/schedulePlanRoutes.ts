// /dialisis/planes: the patients' standing plans (patient x weekdays x shift, from a date to a date). A plan lives in its
// patient's plan stream: its writes name that stream (streamId) for the read after them.
import Type from 'typebox';
import { pageOf, PageQueryFields, problem, MinPositionField } from '../../commonSchemas.js';
import { asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import type { RouteDecl } from '../../routeTypes.js';
import { createStandingPlan, endStandingPlan } from '../../../commands/dialisis/schedule/scheduleWrites.js';
import { SCHEDULE_PROJECTION } from '../../../projections/dialisis/scheduleProjection.js';
import { awaitScheduleHead, listPlans, planModel, planView } from '../../../queries/dialisis/scheduleQueries.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  createdOk,
  ok,
  READ_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
} from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { IdParams, IdSchema } from '../shared/fieldSchemas.js';
import { READ, TAG, WRITE } from './permissions.js';
import { PlanBody, PlanEndBody, PlanView } from './scheduleSchemas.js';
import { groupRoutes } from '../shared/groupRoutes.js';

const routes = groupRoutes(TAG);

const plans = recordKit({
  tag: TAG,
  base: '/dialisis/planes',
  read: READ,
  write: WRITE,
  noun: 'standing plan',
  model: planModel,
  view: planView,
  viewSchema: PlanView,
});

const plan404 = problem("No such standing plan in the selected company (another company's plan is reported the same way)");
const PlanListQuery = Type.Object(
  {
    patientId: Type.Optional(IdSchema),
    shiftId: Type.Optional(IdSchema),
    status: Type.Optional(Type.Enum(['active', 'ended'])),
    ...PageQueryFields,
    ...MinPositionField,
  },
  { additionalProperties: false },
);

export const planRoutes: RouteDecl[] = [
  plans.create({
    summary: 'Create a standing plan: patient x weekdays x shift, from a date (to a date)',
    description:
      'The patient must be of the company (422 patientId) and active (409 patient-not-schedulable); the shift of the company ' +
      '(422 shiftId), not retired, running on those weekdays (422 weekdays). A patient never has two plans on one weekday ' +
      'over overlapping dates (409 plan-overlap, with existingPlanId).',
    body: PlanBody,
    responses: { 201: createdOk('The new plan', PlanView, 'URL of the plan') },
    idKey: 'planId',
    handle: async (body, ctx) => {
      const { planId, result } = await createStandingPlan(ctx.services, commandCtx(ctx), body);
      return { planId, result: { ...result, streamId: body.patientId } };
    },
  }),
  routes.get('/dialisis/planes', READ, {
    legacyQuery: ['pacienteId', 'turnoId', 'estado'],
    summary: 'List standing plans by start date, of one patient, one shift or status',
    query: PlanListQuery,
    responses: { 200: { description: 'A page of plans', schema: pageOf(PlanView) }, 400: badCursor400, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'schedulePlanList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SCHEDULE_PROJECTION]);
      // Ajv's useDefaults filled limit from the schema's default.
      return { status: 200, body: await listPlans(tenantCtx(ctx), { ...input.query, limit: input.query.limit }) };
    },
  }),
  routes.get('/dialisis/planes/{id}', READ, {
    summary: 'Read a standing plan',
    params: IdParams,
    query: RecordReadQuerySchema,
    responses: {
      200: { description: 'The plan', schema: PlanView, headers: READ_HEADERS },
      404: plan404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'schedulePlan', recordId: input.params.id }),
    handle: async (input, ctx) => {
      const point = pointOf(input.query);
      await awaitMinPosition(ctx, input.query.minPosition, [SCHEDULE_PROJECTION]);
      const plan = await planModel.or404(tenantCtx(ctx), input.params.id);
      if (!point) return { status: 200, body: planView(plan) };
      // A plan is kept in its patient's plan stream.
      const at = await planModel.at(tenantCtx(ctx), input.params.id, point, plan.patientId);
      return { status: 200, body: planView(at.doc), headers: await asOfHeaders(ctx, at) };
    },
  }),
  routes.post('/dialisis/planes/{id}/fin', WRITE, {
    summary: 'End a standing plan: its last day and why (sessions already scheduled stay as they are)',
    params: IdParams,
    body: PlanEndBody,
    responses: { 200: ok('The ended plan', PlanView), 404: plan404, 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        await awaitScheduleHead(tenantCtx(ctx));
        const plan = { planId: input.params.id, patientId: (await planModel.or404(tenantCtx(ctx), input.params.id)).patientId };
        const result = await endStandingPlan(ctx.services, commandCtx(ctx, input.body.reason), plan, input.body);
        return plans.answer(ctx, plan.planId, { ...result, streamId: plan.patientId });
      }),
  }),
];
