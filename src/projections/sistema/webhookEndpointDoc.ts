// The webhook endpoint read model: one document per endpoint, folded from its stream. It keeps the sealed secrets for
// the deliveries (the view never shows them). Pure, so the projection and the read-your-writes fold build the same one.
import type { EndpointStatus, WebhookEvent } from '../../commands/sistema/webhooks/webhookEvents.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type WebhookEndpointDoc = ProjectedDoc & {
  revision: number;
  url: string;
  description: string;
  eventTypes: string[];
  status: EndpointStatus;
  statusReason?: string;
  /** Disabled by the service after deliveries kept failing (not by a person). */
  disabledAutomatically?: boolean;
  /** Internal: the sealed signing secret, and the rotated-out one while it still signs. */
  sealedSecret: string;
  sealedPreviousSecret?: string;
  previousSecretValidUntil?: string;
  secretRotatedAt?: string;
  /** Internal: the global position it was registered at (it receives the events after it). */
  sincePosition: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
};

export function foldWebhookEndpoint(doc: WebhookEndpointDoc | null, recorded: RecordedEvent): WebhookEndpointDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as WebhookEvent;
  const m = recorded.metadata;
  const stamp = { revision: recorded.revision, updatedAt: m.occurredAt, updatedBy: m.actor, _position: Number(recorded.position) };
  if (event.type === 'WebhookEndpointRegistered') {
    if (doc) return doc;
    const { url, description, eventTypes, status, secret } = event.data;
    const id = aggregateIdOfStream(recorded.streamName);
    const tenantId = tenantOfStream(recorded.streamName);
    const created = { createdAt: m.occurredAt, createdBy: m.actor, sincePosition: Number(recorded.position) };
    return { tenantId, id, url, description, eventTypes, status, sealedSecret: secret, ...created, ...stamp };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'WebhookEndpointCorrected':
      return { ...doc, ...stamp, ...event.data.changes };
    case 'WebhookSecretRotated':
      return {
        ...doc,
        ...stamp,
        sealedSecret: event.data.secret,
        sealedPreviousSecret: event.data.previousSecret,
        previousSecretValidUntil: event.data.previousValidUntil,
        secretRotatedAt: m.occurredAt,
      };
    case 'WebhookEndpointDisabled':
      return { ...doc, ...stamp, status: 'disabled', statusReason: event.data.reason, disabledAutomatically: event.data.automatic };
    case 'WebhookEndpointEnabled': {
      const { disabledAutomatically: _a, ...rest } = doc;
      return { ...rest, ...stamp, status: 'enabled', statusReason: event.data.reason };
    }
  }
}

/** What clients see: never a secret, sealed or not. */
export function webhookEndpointView(doc: WebhookEndpointDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, sealedSecret: _s, sealedPreviousSecret: _p, sincePosition: _since, ...view } = doc;
  return view;
}
