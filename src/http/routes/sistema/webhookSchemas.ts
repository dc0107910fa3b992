// JSON Schemas of /sistema/webhooks: endpoints (never their secret, but once), deliveries and their attempts.
import Type from 'typebox';
import { ENDPOINT_STATUSES, EVENT_SELECTOR_PATTERN, MAX_EVENT_SELECTORS } from '../../../commands/sistema/webhooks/webhookEvents.js';
import { DELIVERY_STATUSES } from '../../../processes/webhooks/deliveryLog.js';
import { closed, IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';
import { correctionBody } from '../shared/correctionBody.js';

export const WEBHOOKS_PERMISSION = 'sistema:webhooks';

const fields = {
  url: Type.String({
    pattern: '^https?://',
    maxLength: 2000,
  }),
  description: text(500),
  eventTypes: Type.Array(Type.String({ pattern: EVENT_SELECTOR_PATTERN }), {
    minItems: 1,
    maxItems: MAX_EVENT_SELECTORS,
    description: 'Event types, record types (patient...) or `*`',
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
    statusReason: Type.Optional(Type.String()),
    disabledAutomatically: Type.Optional(Type.Boolean()),
    secretRotatedAt: Type.Optional(Type.String({ format: 'date-time' })),
    previousSecretValidUntil: Type.Optional(Type.String({ format: 'date-time' })),
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
    secret: Type.String({ description: 'Shown only here' }),
  },
  { additionalProperties: false },
);

const Attempt = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    statusCode: Type.Union([Type.Integer(), Type.Null()]),
    durationMs: Type.Integer({ minimum: 0 }),
    responseBody: Type.Union([Type.String(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    manual: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const DeliveryView = Type.Object(
  {
    id: Type.String(),
    eventId: IdSchema,
    eventType: Type.String(),
    position: Type.String(),
    status: Type.Enum(DELIVERY_STATUSES),
    attempts: Type.Array(Attempt),
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const DeliveryParams = closed({ id: IdSchema, deliveryId: Type.String({ pattern: '^msg_[0-9a-f]{32}$' }) });
