// JSON Schemas of /sistema/webhooks: endpoints (never their secret, but once), deliveries and their attempts.
import Type from 'typebox';
import {
  ENDPOINT_STATUSES,
  EVENT_SELECTOR_PATTERN,
  MAX_EVENT_SELECTORS,
} from '../../../commands/sistema/webhooks/webhookEvents.js';
import { DELIVERY_STATUSES } from '../../../processes/webhooks/deliveryLog.js';
import { closed, IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';
import { correctionBody } from '../shared/correctionBody.js';

export const WEBHOOKS_PERMISSION = 'sistema:webhooks';

const fields = {
  url: Type.String({
    pattern: '^https?://',
    maxLength: 2000,
    description: 'Where to POST (https; its host must not resolve to a private, loopback or link-local address)',
  }),
  description: text(500),
  eventTypes: Type.Array(Type.String({ pattern: EVENT_SELECTOR_PATTERN }), {
    minItems: 1,
    maxItems: MAX_EVENT_SELECTORS,
    description: 'Event types (PatientRegistered), record types (the stream category: patient, dialysisSession...) or `*`',
  }),
};

export const CreateWebhookBody = closed({ url: fields.url, description: Type.Optional(fields.description), eventTypes: fields.eventTypes });
export const CorrectWebhookBody = correctionBody(fields);
export const RotateBody = closed({ reason: Type.Optional(ReasonSchema) });

export const WebhookView = Type.Object(
  {
    id: IdSchema,
    revision: Type.Integer({ minimum: 0 }),
    url: Type.String(),
    description: Type.String(),
    eventTypes: Type.Array(Type.String()),
    status: Type.Enum(ENDPOINT_STATUSES),
    statusReason: Type.Optional(Type.String({ description: 'Why it was disabled or enabled' })),
    disabledAutomatically: Type.Optional(Type.Boolean({ description: 'Disabled by the service after its deliveries kept failing' })),
    secretRotatedAt: Type.Optional(Type.String({ format: 'date-time' })),
    previousSecretValidUntil: Type.Optional(Type.String({ format: 'date-time', description: 'The old secret signs too until then' })),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String(),
  },
  { additionalProperties: false },
);

export const WithSecret = Type.Object(
  {
    endpoint: WebhookView,
    secret: Type.String({ description: 'The signing secret (whsec_...): shown only in this answer' }),
  },
  { additionalProperties: false },
);

const Attempt = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    statusCode: Type.Union([Type.Integer(), Type.Null()]),
    durationMs: Type.Integer({ minimum: 0 }),
    responseBody: Type.Union([Type.String(), Type.Null()], { description: 'Start of the response body' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Timeout, refused target, connection error' }),
    manual: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const DeliveryView = Type.Object(
  {
    id: Type.String({ description: 'The webhook-id: the same on every attempt and replay' }),
    eventId: IdSchema,
    eventType: Type.String(),
    position: Type.String({ description: 'Global position of the event (decimal)' }),
    status: Type.Enum(DELIVERY_STATUSES),
    attempts: Type.Array(Attempt),
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const DeliveryParams = closed({ id: IdSchema, deliveryId: Type.String({ pattern: '^msg_[0-9a-f]{32}$' }) });
