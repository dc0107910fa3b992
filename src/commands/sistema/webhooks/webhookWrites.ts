// Commands on webhook endpoints as the routes (and the deliveries) run them: a new secret is made here, sealed with
// the service's secret box before it reaches an event, and handed back once to be shown.
import { handleCommand, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { newId } from '../../eventIds.js';
import type { EventStore } from '../../../stores/eventStore.js';
import type { Config } from '../../../config.js';
import { authRuntime } from '../../../auth/authRuntime.js';
import { newWebhookSecret } from '../../../auth/webhookSignature.js';
import { webhookDecider, type WebhookState } from './webhookDecider.js';
import type { WebhookFields, WebhookPatch } from './webhookEvents.js';

export interface WebhookDeps {
  events: EventStore;
  config: Config;
}

/** A fresh secret and its sealed form (the only one that is stored). */
async function sealedNewSecret(deps: WebhookDeps): Promise<{ secret: string; sealed: string }> {
  const secret = newWebhookSecret();
  return { secret, sealed: (await authRuntime(deps)).totpSecrets.seal(secret) };
}

/** Opens a sealed secret for signing. */
export async function openSecret(deps: WebhookDeps, sealed: string): Promise<string> {
  return (await authRuntime(deps)).totpSecrets.open(sealed);
}

export async function registerWebhook(
  deps: WebhookDeps,
  ctx: CommandContext,
  fields: WebhookFields,
): Promise<{ endpointId: string; secret: string; result: CommandResult<WebhookState> }> {
  const endpointId = newId();
  const { secret, sealed } = await sealedNewSecret(deps);
  const command = { type: 'RegisterWebhook' as const, aggregateId: endpointId, data: { ...fields, secret: sealed } };
  const result = await handleCommand(deps.events, webhookDecider, command, ctx, { expectNew: true, assumeNew: true });
  return { endpointId, secret, result };
}

export function correctWebhook(
  deps: WebhookDeps,
  ctx: CommandContext,
  endpointId: string,
  patch: WebhookPatch,
  ifMatch: number,
): Promise<CommandResult<WebhookState>> {
  return handleCommand(deps.events, webhookDecider, { type: 'CorrectWebhook', aggregateId: endpointId, data: patch }, ctx, { ifMatch });
}

export async function rotateWebhookSecret(
  deps: WebhookDeps,
  ctx: CommandContext,
  endpointId: string,
  ifMatch: number | null,
): Promise<{ secret: string; result: CommandResult<WebhookState> }> {
  const { secret, sealed } = await sealedNewSecret(deps);
  const command = { type: 'RotateWebhookSecret' as const, aggregateId: endpointId, data: { secret: sealed } };
  return { secret, result: await handleCommand(deps.events, webhookDecider, command, ctx, { ifMatch }) };
}

export function changeWebhookStatus(
  events: EventStore,
  ctx: CommandContext,
  endpointId: string,
  change: { type: 'DisableWebhook'; reason: string; automatic: boolean } | { type: 'EnableWebhook'; reason: string },
  ifMatch: number | null,
): Promise<CommandResult<WebhookState>> {
  const { type, ...data } = change;
  const command =
    type === 'DisableWebhook'
      ? { type, aggregateId: endpointId, data: data as { reason: string; automatic: boolean } }
      : { type, aggregateId: endpointId, data: { reason: data.reason } };
  return handleCommand(events, webhookDecider, command, ctx, { ifMatch });
}
