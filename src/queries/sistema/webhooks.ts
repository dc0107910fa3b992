// Queries over the webhook endpoints read model: the record model (get, or404, latest after a write) and the list.
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel } from '../recordModel.js';
import { changedSince } from '../changedSince.js';
import { WEBHOOK_ENDPOINTS, WEBHOOKS_PROJECTION } from '../../projections/sistema/webhookProjection.js';
import { foldWebhookEndpoint, webhookEndpointView, type WebhookEndpointDoc } from '../../projections/sistema/webhookEndpointDoc.js';
import { WEBHOOK_ENDPOINT_CATEGORY, type EndpointStatus } from '../../commands/sistema/webhooks/webhookEvents.js';

export const webhookEndpointModel = recordModel<WebhookEndpointDoc>({
  projection: WEBHOOKS_PROJECTION,
  collection: WEBHOOK_ENDPOINTS,
  category: WEBHOOK_ENDPOINT_CATEGORY,
  fold: foldWebhookEndpoint,
  notFound: 'Webhook endpoint not found',
});

/** Endpoints in the order they were registered, with an opaque cursor. */
export async function listWebhookEndpoints(
  scope: TenantScope,
  query: { status?: EndpointStatus; limit: number; cursor?: string; updatedSince?: string },
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = { ...(query.status ? { status: query.status } : {}), ...changedSince(query.updatedSince) };
  const page = await webhookEndpointModel
    .collection(scope)
    .find(scope.auth.tenantId, filter, { sort: { createdAt: 1 }, limit: query.limit, after: query.cursor ?? null });
  return { items: page.items.map(webhookEndpointView), nextCursor: page.nextCursor };
}
