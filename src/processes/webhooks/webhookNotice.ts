// When deliveries kept failing the endpoint is disabled (an event with the reason, shown on the endpoint) and the
// company's administrators are told by e-mail when the service sends e-mail (SMTP_URL).
import { DomainError } from '../../commands/decider.js';
import { changeWebhookStatus } from '../../commands/sistema/webhooks/webhookWrites.js';
import { sendNoticeMail } from '../../notifications/mailer.js';
import { parseTraceparent, traceCausedBy } from '../../observability/traceContext.js';
import { ADMIN_ROLE } from '../../permissions/builtInRoles.js';
import { platformCollections } from '../../queries/platform/memberships.js';
import type { WebhookEndpointDoc } from '../../projections/sistema/webhookEndpointDoc.js';
import type { AppServices } from '../../services.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import type { DeliveryDoc } from './deliveryLog.js';

export const WEBHOOK_ACTOR = 'process:webhooks';

/** The e-mail addresses of the company's active administrators. */
async function adminAddresses(services: AppServices, companyId: string): Promise<string[]> {
  const models = platformCollections(services);
  const page = await models.memberships.find(PLATFORM_DOCS, { companyId, active: true }, { limit: 200 });
  const admins = page.items.filter((m) => m.roles.includes(ADMIN_ROLE));
  const users = await Promise.all(admins.map((m) => models.users.get(PLATFORM_DOCS, m.userId)));
  return users.flatMap((u) => (u && u.active ? [u.email] : []));
}

export async function disableAfterFailures(services: AppServices, endpoint: WebhookEndpointDoc, delivery: DeliveryDoc): Promise<void> {
  const attempts = delivery.attempts.length;
  const last = delivery.attempts.at(-1);
  const lastOutcome = last?.statusCode != null ? `HTTP ${last.statusCode}` : (last?.error ?? 'no answer');
  const reason = `deliveries kept failing: ${attempts} attempts of ${delivery.id} (${delivery.eventType}) failed, the last with ${lastOutcome}`;
  // The disabling is in the trace of the delivery that failed last (the trace of the event it carried).
  const delivered = parseTraceparent(delivery.traceparent);
  const ctx = {
    tenantId: endpoint.tenantId,
    actor: WEBHOOK_ACTOR,
    sessionId: null,
    correlationId: delivery.id,
    causationId: delivery.eventId,
    idempotencyKey: `webhook-disable\u0000${delivery.id}`,
    ip: null,
    userAgent: null,
    reason,
    at: services.now().toISOString(),
    ...(delivered ? traceCausedBy({ traceId: delivered.traceId, spanId: delivered.parentSpanId }) : {}),
  };
  try {
    await changeWebhookStatus(services.events, ctx, endpoint.id, { type: 'DisableWebhook', reason, automatic: true }, null);
  } catch (err) {
    if (err instanceof DomainError) return; // already disabled (by hand, or by another failed delivery): told then
    throw err;
  }
  const text =
    `The webhook endpoint ${endpoint.url} (${endpoint.description || endpoint.id}) was disabled: ${reason}.\n\n` +
    `Its delivery log is at /sistema/webhooks/${endpoint.id}/entregas. Fix the receiver, enable the endpoint ` +
    `(POST /sistema/webhooks/${endpoint.id}/reactivacion) and replay what it missed.\n`;
  await sendNoticeMail(services, { to: await adminAddresses(services, endpoint.tenantId), subject: 'Webhook endpoint disabled', text });
}
