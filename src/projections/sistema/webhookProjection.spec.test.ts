// Spec of the webhook endpoints projection: one document per endpoint, with its sealed secrets kept for the deliveries
// and left out of the view.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { WEBHOOK_ENDPOINTS, webhookProjection } from './webhookProjection.js';
import { webhookEndpointView, type WebhookEndpointDoc } from './webhookEndpointDoc.js';

const given = projectionSpec(webhookProjection);
const endpoint = streamOf('t1', 'webhookEndpoint', 'w1');
const registered = {
  type: 'WebhookEndpointRegistered',
  data: {
    endpointId: 'w1',
    url: 'https://hooks.example/in',
    description: 'ERP',
    eventTypes: ['patient'],
    secret: 'sealed-1',
    status: 'enabled',
  },
};

describe('webhooks projection', () => {
  it('keeps the sealed secret, the rotated-out one with its deadline, and never shows either', async () => {
    const rotated = {
      type: 'WebhookSecretRotated',
      data: { secret: 'sealed-2', previousSecret: 'sealed-1', previousValidUntil: '2025-03-04T08:02:00.000Z' },
    };
    await given(endpoint(registered, rotated)).then<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, 'w1', (doc) => {
      assert.deepEqual([doc.sealedSecret, doc.sealedPreviousSecret, doc.revision], ['sealed-2', 'sealed-1', 1]);
      const view = JSON.stringify(webhookEndpointView(doc));
      assert.ok(!view.includes('sealed'), view);
      assert.equal(webhookEndpointView(doc).previousSecretValidUntil, '2025-03-04T08:02:00.000Z');
    });
  });

  it('disables with the reason (and whether the service did it), enables again, and corrects fields', async () => {
    const disabled = { type: 'WebhookEndpointDisabled', data: { reason: 'kept failing', automatic: true } };
    const enabled = { type: 'WebhookEndpointEnabled', data: { reason: 'fixed' } };
    const corrected = { type: 'WebhookEndpointCorrected', data: { changes: { eventTypes: ['*'] }, previous: { eventTypes: ['patient'] } } };
    await given(endpoint(registered, disabled)).then<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, 'w1', (doc) =>
      assert.deepEqual([doc.status, doc.statusReason, doc.disabledAutomatically], ['disabled', 'kept failing', true]),
    );
    await given(endpoint(registered, disabled, enabled, corrected)).then<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, 'w1', (doc) => {
      assert.deepEqual([doc.status, doc.disabledAutomatically, doc.eventTypes], ['enabled', undefined, ['*']]);
    });
    await given(endpoint(registered, disabled)).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    await given(streamOf('t2', 'webhookEndpoint', 'w1')(registered))
      .in('t1')
      .thenAbsent(WEBHOOK_ENDPOINTS, 'w1');
  });
});
