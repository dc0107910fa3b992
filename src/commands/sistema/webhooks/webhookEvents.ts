// Webhook endpoints of a company (stream `<tenant>.webhookEndpoint-<id>`): commands and events. The signing secret
// travels only sealed (src/auth/secretBox.ts); the feed and the payloads leave SECRET_FIELDS out.
import type { CommandEnvelope, DecidedEvent } from '../../decider.js';
import { streamName } from '../../../stores/streamNames.js';

export const WEBHOOK_ENDPOINT_CATEGORY = 'webhookEndpoint';
export const webhookEndpointStream = (tenantId: string, endpointId: string): string =>
  streamName(tenantId, WEBHOOK_ENDPOINT_CATEGORY, endpointId);

/** Event data fields that hold secrets (sealed): never in a feed, a payload or an answer. */
export const SECRET_FIELDS = ['secret', 'previousSecret'] as const;

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

/** An event type (PatientRegistered) or a record type (the stream category: patient), or `*` for every one. */
export const EVENT_SELECTOR_PATTERN = '^(\\*|[A-Za-z][A-Za-z0-9]{0,79})$';
export const MAX_EVENT_SELECTORS = 50;
/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export type WebhookFields = {
  url: string;
  description: string;
  eventTypes: string[];
};

export type WebhookPatch = Partial<WebhookFields>;
export const CORRECTABLE_WEBHOOK_FIELDS = ['url', 'description', 'eventTypes'] as const;

export type WebhookCommand =
  | CommandEnvelope<'RegisterWebhook', WebhookFields & { secret: string }>
  | CommandEnvelope<'CorrectWebhook', WebhookPatch>
  | CommandEnvelope<'RotateWebhookSecret', { secret: string }>
  | CommandEnvelope<'DisableWebhook', { reason: string; automatic: boolean }>
  | CommandEnvelope<'EnableWebhook', { reason: string }>;

export type WebhookEvent =
  | DecidedEvent<'WebhookEndpointRegistered', WebhookFields & { endpointId: string; secret: string; status: 'enabled' }>
  | DecidedEvent<'WebhookEndpointCorrected', { changes: WebhookPatch; previous: WebhookPatch }>
  | DecidedEvent<'WebhookSecretRotated', { secret: string; previousSecret: string; previousValidUntil: string }>
  | DecidedEvent<'WebhookEndpointDisabled', { reason: string; automatic: boolean }>
  | DecidedEvent<'WebhookEndpointEnabled', { reason: string }>;

export const WEBHOOK_EVENT_TYPES: readonly WebhookEvent['type'][] = [
  'WebhookEndpointRegistered',
  'WebhookEndpointCorrected',
  'WebhookSecretRotated',
  'WebhookEndpointDisabled',
  'WebhookEndpointEnabled',
];
