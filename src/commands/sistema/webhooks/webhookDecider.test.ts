// Given webhook endpoint events / when a command / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { webhookDecider } from './webhookDecider.js';
import type { WebhookCommand, WebhookEvent, WebhookFields } from './webhookEvents.js';

const given = scenario(webhookDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends WebhookCommand['type']>(type: T, data: Extract<WebhookCommand, { type: T }>['data']): WebhookCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 'w1', tenantId: 't1' }) as WebhookCommand;

const hook: WebhookFields = { url: 'https://hooks.example/in', description: 'ERP', eventTypes: ['patient', 'SessionSigned'] };
const registered: WebhookEvent = {
  type: 'WebhookEndpointRegistered',
  data: { endpointId: 'w1', ...hook, secret: 'sealed-1', status: 'enabled' },
};
const disabled: WebhookEvent = { type: 'WebhookEndpointDisabled', data: { reason: 'failing', automatic: true } };

describe('webhook endpoint decider', () => {
  it('registers an endpoint with its sealed secret, trimming the description', () => {
    given()
      .when(cmd('RegisterWebhook', { ...hook, description: ' ERP ', secret: 'sealed-1' }))
      .then(registered);
    given(registered)
      .when(cmd('RegisterWebhook', { ...hook, secret: 's' }))
      .thenError('already-exists');
  });

  it('refuses no event types and an event type listed twice', () => {
    given()
      .when(cmd('RegisterWebhook', { ...hook, eventTypes: [], secret: 's' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['eventTypes']));
    given()
      .when(cmd('RegisterWebhook', { ...hook, eventTypes: ['patient', 'patient'], secret: 's' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['eventTypes']));
  });

  it('corrects only what changed, remembering the previous values', () => {
    given(registered)
      .when(cmd('CorrectWebhook', { url: 'https://hooks.example/v2', description: 'ERP' }))
      .then({ type: 'WebhookEndpointCorrected', data: { changes: { url: 'https://hooks.example/v2' }, previous: { url: hook.url } } });
    given(registered)
      .when(cmd('CorrectWebhook', { eventTypes: ['patient', 'SessionSigned'] }))
      .then();
    given()
      .when(cmd('CorrectWebhook', { description: 'x' }))
      .thenError('not-found');
  });

  it('rotates the secret: the previous one keeps signing for 24 hours', () => {
    given(registered)
      .when(cmd('RotateWebhookSecret', { secret: 'sealed-2' }))
      .then({
        type: 'WebhookSecretRotated',
        data: { secret: 'sealed-2', previousSecret: 'sealed-1', previousValidUntil: '2025-03-02T10:00:00.000Z' },
      });
  });

  it('disables (by hand or after failing deliveries) and enables with a reason, once each', () => {
    given(registered)
      .when(cmd('DisableWebhook', { reason: ' failing ', automatic: true }))
      .then(disabled);
    given(registered, disabled)
      .when(cmd('DisableWebhook', { reason: 'again', automatic: false }))
      .thenError('webhook-disabled');
    given(registered, disabled)
      .when(cmd('EnableWebhook', { reason: 'fixed' }))
      .then({ type: 'WebhookEndpointEnabled', data: { reason: 'fixed' } });
    given(registered)
      .when(cmd('EnableWebhook', { reason: 'x' }))
      .thenError('webhook-enabled');
    given(registered)
      .when(cmd('DisableWebhook', { reason: ' ', automatic: false }))
      .thenError('validation-failed');
  });
});
