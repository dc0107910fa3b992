// Read model of the company's webhook endpoints (/sistema/webhooks), which the deliveries also read.
import { WEBHOOK_EVENT_TYPES } from '../../commands/sistema/webhooks/webhookEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream } from '../../stores/eventStore.js';
import { foldWebhookEndpoint, type WebhookEndpointDoc } from './webhookEndpointDoc.js';

export const WEBHOOKS_PROJECTION = 'webhooks';
export const WEBHOOK_ENDPOINTS = 'webhookEndpoints';

export const webhookProjection: Projection = {
  name: WEBHOOKS_PROJECTION,
  version: 1,
  collections: { [WEBHOOK_ENDPOINTS]: [{ keys: { tenantId: 1, createdAt: 1, id: 1 }, name: 'by_created' }] },
  eventTypes: WEBHOOK_EVENT_TYPES,
  handle(event, tx) {
    const [tenantId, id] = [tenantOfStream(event.streamName), aggregateIdOfStream(event.streamName)];
    return applyFold<WebhookEndpointDoc>(tx, WEBHOOK_ENDPOINTS, tenantId, id, event, foldWebhookEndpoint);
  },
};
