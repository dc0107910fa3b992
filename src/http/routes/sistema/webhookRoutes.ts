// /sistema/webhooks: a company's webhook endpoints (sistema:webhooks, the administrator's): register (the secret shown
// once), list, read, correct (If-Match), rotate the secret (shown once; the old one signs too for 24 h), disable,
// reactivate, history without secrets; and the delivery log (webhookDeliveryRoutes.ts).
import { route, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { ProblemError } from '../../../problems.js';
import { writeHeaders, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { ENDPOINT_STATUSES, SECRET_FIELDS } from '../../../commands/sistema/webhooks/webhookEvents.js';
import {
  changeWebhookStatus,
  correctWebhook,
  registerWebhook,
  rotateWebhookSecret,
} from '../../../commands/sistema/webhooks/webhookWrites.js';
import { foldWebhookEndpoint, webhookEndpointView, type WebhookEndpointDoc } from '../../../projections/sistema/webhookEndpointDoc.js';
import { listWebhookEndpoints, webhookEndpointModel } from '../../../queries/sistema/webhooks.js';
import { checkTarget, TargetRefused } from '../../../processes/webhooks/webhookTargets.js';
import type { WriteOutcome } from '../../../queries/recordModel.js';
import type { RecordedEvent } from '../../../stores/eventStore.js';
import { commandCtx, conflict409, ok, precondition412, RECORD_HEADERS, tenantCtx, withFieldPointers } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { IdParams } from '../shared/fieldSchemas.js';
import Type from 'typebox';
import { CorrectWebhookBody, CreateWebhookBody, RotateBody, WebhookView, WEBHOOKS_PERMISSION, WithSecret } from './webhookSchemas.js';
import { webhookDeliveryRoutes } from './webhookDeliveryRoutes.js';

const TAG = 'Sistema';
const BASE = '/sistema/webhooks';

const endpoints = recordKit({
  tag: TAG,
  base: BASE,
  read: WEBHOOKS_PERMISSION,
  write: WEBHOOKS_PERMISSION,
  noun: 'webhook endpoint',
  model: webhookEndpointModel,
  view: webhookEndpointView,
  viewSchema: WebhookView,
});

/** 422 naming /body/url when the target may not be reached (https, no private, loopback or link-local address). */
async function mustBeAllowedTarget(ctx: RequestContext, url: string): Promise<void> {
  try {
    await checkTarget(url, ctx.services.config.webhooks.allowPrivateTargets);
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    const errors = [{ pointer: '/body/url', message: err.message }];
    throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', `url: ${err.message}`, {}, errors);
  }
}

/** The endpoint after a write, with the secret made by it: the one answer that shows it. */
async function withSecret(ctx: RequestContext, id: string, result: WriteOutcome, secret: string, status: 200 | 201): Promise<HttpResult> {
  const doc = await webhookEndpointModel.latest(tenantCtx(ctx), id, result);
  const headers = writeHeaders({
    revision: result.revision,
    position: result.position,
    ...(status === 201 ? { location: `${BASE}/${id}` } : {}),
  });
  return { status, body: { endpoint: webhookEndpointView(doc), secret }, headers };
}

const targetProblems = problem('Invalid field, or a url not allowed (`/body/url`)');

/** The history's fold shows no secret, sealed or not (each step starts from the previous one's copy). */
const historyFold = (doc: WebhookEndpointDoc | null, event: RecordedEvent): Record<string, unknown> | null => {
  const next = foldWebhookEndpoint(doc, event);
  return next && { ...next, sealedSecret: undefined, sealedPreviousSecret: undefined };
};
const history = historyRoute({
  path: `${BASE}/{id}/historial`,
  tag: TAG,
  permission: WEBHOOKS_PERMISSION,
  summary: "The endpoint's history",
  params: IdParams,
  idParam: 'id',
  category: webhookEndpointModel.category,
  projection: webhookEndpointModel.projection,
  fold: historyFold,
  notFound: endpoints.notFound404,
  exists: webhookEndpointModel.or404,
});
const secretFields = new Set<string>(SECRET_FIELDS);
const historyWithoutSecrets: RouteDecl = {
  ...history,
  handle: async (input, ctx) => {
    const answer = await history.handle(input, ctx);
    const body = answer.body as { items: { data: Record<string, unknown> }[] };
    for (const item of body.items) item.data = Object.fromEntries(Object.entries(item.data).filter(([k]) => !secretFields.has(k)));
    return answer;
  },
};

const statusAction = (path: string, summary: string, change: 'DisableWebhook' | 'EnableWebhook'): RouteDecl =>
  endpoints.action({
    path,
    summary,
    handle: (id, { reason }, ctx, ifMatch) => {
      const command = change === 'DisableWebhook' ? { type: change, reason, automatic: false } : { type: change, reason };
      return changeWebhookStatus(ctx.services.events, commandCtx(ctx, reason), id, command, ifMatch);
    },
  });

export const webhookRoutes: RouteDecl[] = [
  route({
    method: 'post',
    path: BASE,
    tag: TAG,
    auth: 'tenant',
    permission: WEBHOOKS_PERMISSION,
    // Not idempotent on purpose (like API clients): a replayed answer is kept, and this one carries a secret shown once.
    summary: 'Register a webhook endpoint (its secret shown once)',
    body: CreateWebhookBody,
    responses: {
      201: ok('The endpoint and its secret', WithSecret, { ...RECORD_HEADERS, Location: 'URL of the endpoint' }),
      409: conflict409,
      422: targetProblems,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { url, description, eventTypes } = input.body;
        await mustBeAllowedTarget(ctx, url);
        const created = await registerWebhook(ctx.services, commandCtx(ctx), { url, description: description ?? '', eventTypes });
        return withSecret(ctx, created.endpointId, created.result, created.secret, 201);
      }),
  }),
  endpoints.list({
    summary: 'Webhook endpoints, oldest first',
    filters: { status: Type.Optional(Type.Enum(ENDPOINT_STATUSES)) },
    list: listWebhookEndpoints,
  }),
  endpoints.read({ summary: 'A webhook endpoint' }),
  endpoints.patch({
    summary: 'Correct a webhook endpoint',
    description: 'Needs If-Match.',
    body: CorrectWebhookBody,
    responses: { 422: targetProblems },
    handle: async (id, { reason, ...patch }, ctx, ifMatch) => {
      await webhookEndpointModel.or404(tenantCtx(ctx), id);
      if (patch.url !== undefined) await mustBeAllowedTarget(ctx, patch.url);
      return correctWebhook(ctx.services, commandCtx(ctx, reason), id, patch, ifMatch);
    },
  }),
  route({
    method: 'post',
    path: `${BASE}/{id}/rotacion`,
    tag: TAG,
    auth: 'tenant',
    permission: WEBHOOKS_PERMISSION,
    summary: 'Rotate the secret (shown once; the old one signs for 24 h more)',
    params: IdParams,
    body: RotateBody,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: {
      200: ok('The endpoint and its new secret', WithSecret),
      404: endpoints.notFound404,
      409: conflict409,
      412: precondition412,
    },
    handle: async (input, ctx) => {
      await webhookEndpointModel.or404(tenantCtx(ctx), input.params.id);
      const ifMatch = ifMatchRevision(input.headers['if-match']);
      const rotated = await rotateWebhookSecret(ctx.services, commandCtx(ctx, input.body.reason ?? null), input.params.id, ifMatch);
      return withSecret(ctx, input.params.id, rotated.result, rotated.secret, 200);
    },
  }),
  statusAction('desactivacion', 'Disable a webhook endpoint', 'DisableWebhook'),
  statusAction('reactivacion', 'Enable a webhook endpoint again', 'EnableWebhook'),
  historyWithoutSecrets,
  ...webhookDeliveryRoutes,
];
