// The delivery log of a webhook endpoint: each delivery with its attempts, and a manual replay (the same webhook-id).
import Type from 'typebox';
import { route, type RouteDecl } from '../../routeTypes.js';
import { pageOf, PageQueryFields, problem } from '../../commonSchemas.js';
import { ProblemError, notFoundProblem } from '../../../problems.js';
import { DELIVERY_STATUSES, deliveryView, listDeliveries, replayDelivery } from '../../../processes/webhooks/deliveryLog.js';
import { webhookEndpointModel } from '../../../queries/sistema/webhooks.js';
import { closed, IdParams } from '../shared/fieldSchemas.js';
import { badCursor400, tenantCtx } from '../shared/recordSupport.js';
import { DeliveryParams, DeliveryView, WEBHOOKS_PERMISSION } from './webhookSchemas.js';

const TAG = 'Sistema';
const notFound404 = problem('No such endpoint or delivery in the selected company');

export const webhookDeliveryRoutes: RouteDecl[] = [
  route({
    method: 'get',
    path: '/sistema/webhooks/{id}/entregas',
    tag: TAG,
    auth: 'tenant',
    permission: WEBHOOKS_PERMISSION,
    summary: "The endpoint's deliveries, newest first",
    params: IdParams,
    query: closed({ status: Type.Optional(Type.Enum(DELIVERY_STATUSES)), ...PageQueryFields }),
    responses: { 200: { description: 'A page of deliveries', schema: pageOf(DeliveryView) }, 400: badCursor400, 404: notFound404 },
    handle: async (input, ctx) => {
      const scope = tenantCtx(ctx);
      await webhookEndpointModel.or404(scope, input.params.id);
      return { status: 200, body: await listDeliveries(ctx.services.reads, scope.auth.tenantId, input.params.id, input.query) };
    },
  }),
  route({
    method: 'post',
    path: '/sistema/webhooks/{id}/entregas/{deliveryId}/reenvio',
    tag: TAG,
    auth: 'tenant',
    permission: WEBHOOKS_PERMISSION,
    summary: 'Send a delivery again (same webhook-id)',
    params: DeliveryParams,
    responses: {
      202: { description: 'Queued', schema: DeliveryView },
      404: notFound404,
      409: problem('`webhook-disabled` or `delivery-pending`'),
    },
    handle: async (input, ctx) => {
      const scope = tenantCtx(ctx);
      const endpoint = await webhookEndpointModel.or404(scope, input.params.id);
      if (endpoint.status === 'disabled') throw new ProblemError(409, 'webhook-disabled', 'Conflict', 'Enable the endpoint first');
      const { reads } = ctx.services;
      const replayed = await replayDelivery(reads, scope.auth.tenantId, endpoint.id, input.params.deliveryId, ctx.services.now());
      if (replayed === null) throw notFoundProblem('Delivery not found');
      if (replayed === 'pending') throw new ProblemError(409, 'delivery-pending', 'Conflict', 'The delivery is still being retried');
      return { status: 202, body: deliveryView(replayed) };
    },
  }),
];
