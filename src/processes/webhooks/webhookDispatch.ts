// Sends the deliveries that are due (a periodic task): signs each attempt (Standard Webhooks, with every secret still
// signing), checks the target again, records the attempt, and schedules the next with jitter until the schedule runs
// out; then the delivery has failed and the endpoint is disabled with a notice. A 2xx is success, anything else fails.
import { openSecret } from '../../commands/sistema/webhooks/webhookWrites.js';
import { signatureHeader } from '../../auth/webhookSignature.js';
import type { WebhookEndpointDoc } from '../../projections/sistema/webhookEndpointDoc.js';
import type { AppServices } from '../../services.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import type { PeriodicTask } from '../periodicTasks.js';
import { deliveryLog, MAX_KEPT_ATTEMPTS, schedule, type DeliveryDoc, type DueDoc } from './deliveryLog.js';
import { endpointsOf } from './webhookDeliveries.js';
import { postWebhook, type AttemptOutcome } from './webhookHttp.js';
import { disableAfterFailures } from './webhookNotice.js';
import { checkTarget, TargetRefused } from './webhookTargets.js';

/** Deliveries sent at once per run. */
const BATCH = 16;
/** Each delay is stretched or shortened by up to this fraction, at random, so failing receivers are not hit in step. */
const JITTER = 0.2;

export const jittered = (delayMs: number, random: () => number = Math.random): number =>
  Math.round(delayMs * (1 - JITTER + 2 * JITTER * random()));

/** The secrets that sign now: the current one, and the rotated-out one during its overlap. */
async function signingSecrets(services: AppServices, endpoint: WebhookEndpointDoc, at: Date): Promise<string[]> {
  const secrets = [await openSecret(services, endpoint.sealedSecret)];
  const until = endpoint.previousSecretValidUntil;
  if (endpoint.sealedPreviousSecret && until && Date.parse(until) > at.getTime()) {
    // One this instance cannot open (rotated after an import) does not keep the new one from signing.
    const previous = await openSecret(services, endpoint.sealedPreviousSecret).catch(() => null);
    if (previous !== null) secrets.push(previous);
  }
  return secrets;
}

async function send(services: AppServices, endpoint: WebhookEndpointDoc, delivery: DeliveryDoc, at: Date): Promise<AttemptOutcome> {
  const settings = services.config.webhooks;
  // A secret sealed by another instance's key (a company imported from an export) fails the attempt, on the schedule.
  const secrets = await signingSecrets(services, endpoint, at).catch(() => null);
  if (!secrets) {
    const error = 'the signing secret cannot be opened here (sealed by another instance): rotate the secret';
    return { statusCode: null, durationMs: 0, responseBody: null, error };
  }
  try {
    const target = await checkTarget(endpoint.url, settings.allowPrivateTargets);
    const timestamp = Math.floor(at.getTime() / 1000);
    const headers = {
      'user-agent': 'dialysis-records-webhooks/1',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, delivery.id, timestamp, delivery.body),
      ...(delivery.traceparent ? { traceparent: delivery.traceparent } : {}),
    };
    return await postWebhook(target, headers, delivery.body, settings);
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    return { statusCode: null, durationMs: 0, responseBody: null, error: `target refused: ${err.message}` };
  }
}

async function attemptDelivery(services: AppServices, due: DueDoc): Promise<void> {
  const { deliveries } = await deliveryLog(services.reads);
  const delivery = await deliveries.get(due.companyId, due.id);
  if (!delivery || delivery.status !== 'pending') return schedule(services.reads, { id: due.id, tenantId: due.companyId }, null);
  const endpoint = await endpointsOf(services).get(delivery.tenantId, delivery.endpointId);
  if (!endpoint || endpoint.status === 'disabled') {
    await deliveries.replace({ ...delivery, status: 'cancelled', nextAttemptAt: null, updatedAt: services.now().toISOString() });
    return schedule(services.reads, delivery, null);
  }
  const at = services.now();
  const outcome = await send(services, endpoint, delivery, at);
  const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const plan = services.config.webhooks.retryScheduleMs;
  const made = delivery.roundAttempts + 1;
  const last = delivery.manualRound || made >= plan.length;
  // Counted from the attempt's start: a slow answer does not push the schedule back.
  const next = succeeded || last ? null : new Date(at.getTime() + jittered(plan[made]!)).toISOString();
  const attempt = { at: at.toISOString(), ...outcome, manual: delivery.manualRound };
  const updated: DeliveryDoc = {
    ...delivery,
    attempts: [...delivery.attempts, attempt].slice(-MAX_KEPT_ATTEMPTS),
    roundAttempts: made,
    status: succeeded ? 'succeeded' : last ? 'failed' : 'pending',
    nextAttemptAt: next,
    updatedAt: services.now().toISOString(),
  };
  await deliveries.replace(updated);
  await schedule(services.reads, updated, next);
  if (updated.status === 'failed' && !delivery.manualRound) await disableAfterFailures(services, endpoint, updated);
}

async function dispatchDue(services: AppServices): Promise<void> {
  const { due } = await deliveryLog(services.reads);
  const page = await due.find(PLATFORM_DOCS, { dueAt: { $lte: services.now().toISOString() } }, { sort: { dueAt: 1 }, limit: BATCH });
  await Promise.all(
    page.items.map((d) =>
      attemptDelivery(services, d).catch((err: unknown) =>
        services.logger.error('webhook delivery attempt failed; retried at the next run', { delivery: d.id, error: String(err) }),
      ),
    ),
  );
}

export const webhookDispatch: PeriodicTask<AppServices> = { name: 'webhook-dispatch', everyMs: 200, run: dispatchDue };
