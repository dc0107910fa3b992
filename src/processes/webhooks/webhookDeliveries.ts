// The webhook process manager (own checkpoint): each company record event after it becomes one delivery per enabled
// endpoint that selects it and was registered before it. Keyed by (endpoint, event), so a replay after a restart makes
// no second delivery; the dispatcher (webhookDispatch.ts) then sends them.
import { WEBHOOK_ENDPOINTS, WEBHOOKS_PROJECTION } from '../../projections/sistema/webhookProjection.js';
import type { WebhookEndpointDoc } from '../../projections/sistema/webhookEndpointDoc.js';
import { causedTrace, formatTraceparent } from '../../observability/traceContext.js';
import type { AppServices } from '../../services.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import type { ProcessManager } from '../processRunner.js';
import { deliveryIdOf, deliveryLog, schedule, type DeliveryDoc } from './deliveryLog.js';
import { isCompanyRecordEvent, selects, webhookBody } from './webhookPayload.js';

const PROJECTION_WAIT_MS = 10_000;

export const endpointsOf = (services: AppServices) =>
  services.projections.collection<WebhookEndpointDoc>(WEBHOOKS_PROJECTION, WEBHOOK_ENDPOINTS);

async function ensureDelivery(services: AppServices, endpoint: WebhookEndpointDoc, event: RecordedEvent): Promise<void> {
  const { deliveries } = await deliveryLog(services.reads);
  const id = deliveryIdOf(endpoint.id, event.id);
  const existing = await deliveries.get(endpoint.tenantId, id);
  if (existing) {
    // Made before a crash that came before its queue entry: queue it again (the same entry, so nothing twice).
    if (existing.status === 'pending' && existing.nextAttemptAt) await schedule(services.reads, existing, existing.nextAttemptAt);
    return;
  }
  const now = services.now();
  const first = new Date(now.getTime() + (services.config.webhooks.retryScheduleMs[0] ?? 0)).toISOString();
  const trace = causedTrace(event.metadata);
  const doc: DeliveryDoc = {
    tenantId: endpoint.tenantId,
    id,
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    position: event.position.toString(),
    body: webhookBody(event),
    ...(trace ? { traceparent: formatTraceparent(trace) } : {}),
    status: 'pending',
    attempts: [],
    roundAttempts: 0,
    manualRound: false,
    nextAttemptAt: first,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await deliveries.replace(doc);
  await schedule(services.reads, doc, first);
}

/** A company's enabled endpoints, oldest first, read once per change of the collection (a catch-up after a restart
 * reacts to thousands of events: a query for each held the start's event loop ~0.4 s over 1M events). */
const enabledCache = new WeakMap<AppServices, Map<string, { stamp: number; endpoints: WebhookEndpointDoc[] }>>();

async function enabledEndpoints(services: AppServices, tenantId: string): Promise<WebhookEndpointDoc[]> {
  const stamp = services.projections.changeStamp(WEBHOOKS_PROJECTION, WEBHOOK_ENDPOINTS, tenantId);
  let byTenant = enabledCache.get(services);
  if (!byTenant) enabledCache.set(services, (byTenant = new Map<string, { stamp: number; endpoints: WebhookEndpointDoc[] }>()));
  const kept = byTenant.get(tenantId);
  if (stamp !== null && kept?.stamp === stamp) return kept.endpoints;
  const endpoints: WebhookEndpointDoc[] = [];
  let after: string | null = null;
  do {
    const page = await endpointsOf(services).find(tenantId, { status: 'enabled' }, { sort: { createdAt: 1 }, limit: 200, after });
    endpoints.push(...page.items);
    after = page.nextCursor;
  } while (after);
  if (stamp !== null) byTenant.set(tenantId, { stamp, endpoints });
  return endpoints;
}

/** False when no endpoint takes the event (the checkpoint then moves lazily, like over events of other types). */
async function react(event: RecordedEvent, services: AppServices): Promise<boolean> {
  // The endpoints as they were at this event: their projection must have reached it (else retried from the checkpoint).
  const reached = await services.projections.waitFor(event.position, { projections: [WEBHOOKS_PROJECTION], timeoutMs: PROJECTION_WAIT_MS });
  if (!reached) throw new Error(`webhook endpoints not projected up to ${event.position} yet`);
  let delivered = false;
  for (const endpoint of await enabledEndpoints(services, tenantOfStream(event.streamName))) {
    if (endpoint.sincePosition < Number(event.position) && selects(endpoint.eventTypes, event)) {
      await ensureDelivery(services, endpoint, event);
      delivered = true;
    }
  }
  return delivered;
}

export const webhookDeliveries: ProcessManager<AppServices> = {
  name: 'webhook-deliveries',
  eventTypes: [],
  accepts: isCompanyRecordEvent,
  react,
};
