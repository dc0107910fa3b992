// Every rule about a webhook endpoint. Pure: time, ids and the sealed secret come in with the command.
import { fieldChanges } from '../../shared/fieldChanges.js';
import type { Decider } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import { FieldChecks } from '../../shared/fieldChecks.js';
import {
  CORRECTABLE_WEBHOOK_FIELDS,
  ROTATION_OVERLAP_MS,
  WEBHOOK_ENDPOINT_CATEGORY,
  type EndpointStatus,
  type WebhookCommand,
  type WebhookEvent,
  type WebhookFields,
} from './webhookEvents.js';

export interface WebhookState {
  exists: boolean;
  status: EndpointStatus;
  fields: WebhookFields | null;
  secret: string | null;
}

export const initialWebhookState: WebhookState = { exists: false, status: 'enabled', fields: null, secret: null };

function checkFields(f: WebhookFields): void {
  const checks = new FieldChecks();
  checks.check(f.eventTypes.length > 0, 'eventTypes', 'must name at least one event or record type');
  checks.check(new Set(f.eventTypes).size === f.eventTypes.length, 'eventTypes', 'lists a type twice');
  checks.throwIfAny();
}

function existing(state: WebhookState): WebhookState & { fields: WebhookFields; secret: string } {
  if (!state.exists || !state.fields || !state.secret) throw notFound('webhook endpoint');
  return state as WebhookState & { fields: WebhookFields; secret: string };
}

const reasonOf = (reason: string): string => {
  new FieldChecks().check(reason.trim().length > 0, 'reason', 'must not be blank').throwIfAny();
  return reason.trim();
};

export function decideWebhook(command: WebhookCommand, state: WebhookState): WebhookEvent[] {
  switch (command.type) {
    case 'RegisterWebhook': {
      if (state.exists) throw new DomainError('already-exists', 'this webhook endpoint already exists', 409);
      const { secret, ...fields } = command.data;
      const trimmed = { ...fields, description: fields.description.trim() };
      checkFields(trimmed);
      return [{ type: 'WebhookEndpointRegistered', data: { endpointId: command.aggregateId, ...trimmed, secret, status: 'enabled' } }];
    }
    case 'CorrectWebhook': {
      const current = existing(state).fields;
      const patch =
        command.data.description === undefined ? command.data : { ...command.data, description: command.data.description.trim() };
      const diff = fieldChanges(current, patch, CORRECTABLE_WEBHOOK_FIELDS);
      if (!diff) return [];
      checkFields({ ...current, ...diff.changes });
      return [{ type: 'WebhookEndpointCorrected', data: diff }];
    }
    case 'RotateWebhookSecret': {
      const s = existing(state);
      const previousValidUntil = new Date(Date.parse(command.at) + ROTATION_OVERLAP_MS).toISOString();
      return [{ type: 'WebhookSecretRotated', data: { secret: command.data.secret, previousSecret: s.secret, previousValidUntil } }];
    }
    case 'DisableWebhook': {
      if (existing(state).status === 'disabled') throw rule('webhook-disabled', 'the webhook endpoint is already disabled');
      return [{ type: 'WebhookEndpointDisabled', data: { reason: reasonOf(command.data.reason), automatic: command.data.automatic } }];
    }
    case 'EnableWebhook': {
      if (existing(state).status === 'enabled') throw rule('webhook-enabled', 'the webhook endpoint is already enabled');
      return [{ type: 'WebhookEndpointEnabled', data: { reason: reasonOf(command.data.reason) } }];
    }
  }
}

export function evolveWebhook(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'WebhookEndpointRegistered': {
      const { url, description, eventTypes, secret } = event.data;
      return { exists: true, status: 'enabled', fields: { url, description, eventTypes }, secret };
    }
    case 'WebhookEndpointCorrected':
      return state.fields ? { ...state, fields: { ...state.fields, ...event.data.changes } } : state;
    case 'WebhookSecretRotated':
      return { ...state, secret: event.data.secret };
    case 'WebhookEndpointDisabled':
      return { ...state, status: 'disabled' };
    case 'WebhookEndpointEnabled':
      return { ...state, status: 'enabled' };
  }
}

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  category: WEBHOOK_ENDPOINT_CATEGORY,
  initialState: initialWebhookState,
  evolve: evolveWebhook,
  decide: decideWebhook,
};
