// Policy writes as the routes and the company registration run them.
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { uuidV5 } from '../eventIds.js';
import type { AppServices } from '../../services.js';
import { streamName } from '../../stores/eventStore.js';
import { policyDecider, type PolicyState } from './policyDecider.js';
import type { ChangePolicyData } from './policyEvents.js';

/** Who records the defaults: the registration flow's caller (a platform administrator, or 'system'). */
export interface PolicyCaller {
  actor: string;
  correlationId?: string;
  sessionId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/**
 * Records the default policy for a newly registered company. Idempotent: the event id derives from the tenant alone,
 * so a retried registration writes nothing twice, and a company that already has a policy is left as it is.
 */
export async function adoptDefaultPolicy(services: AppServices, tenantId: string, ctx: PolicyCaller): Promise<CommandResult<PolicyState>> {
  const context: CommandContext = {
    tenantId,
    actor: ctx.actor,
    sessionId: ctx.sessionId ?? null,
    correlationId: ctx.correlationId ?? uuidV5(`policyAdoption\u0000${tenantId}`),
    idempotencyKey: uuidV5(`policyAdoption\u0000${tenantId}`),
    ip: ctx.ip ?? null,
    userAgent: ctx.userAgent ?? null,
    at: services.now().toISOString(),
  };
  return handleCommand(services.events, policyDecider, { type: 'AdoptDefaultPolicy', aggregateId: tenantId, data: {} }, context);
}

/**
 * A change of the policy applied only to revision `ifMatch` (-1: the defaults, no event recorded yet). A change that
 * changes nothing decides no event and answers the current state.
 */
export async function changePolicy(
  services: AppServices,
  ctx: CommandContext,
  data: ChangePolicyData,
  ifMatch: number,
): Promise<CommandResult<PolicyState>> {
  const command = { type: 'ChangePolicy' as const, aggregateId: ctx.tenantId, data };
  if (ifMatch >= 0) return handleCommand(services.events, policyDecider, command, ctx, { ifMatch });
  // handleCommand reads an If-Match on an absent stream as "no such record"; here -1 is a real revision (the defaults).
  const { revision } = await loadAggregate(services.events, policyDecider, streamName(ctx.tenantId, policyDecider.category, ctx.tenantId));
  if (revision !== -1) throw new PreconditionFailedError(ifMatch, revision);
  try {
    return await handleCommand(services.events, policyDecider, command, ctx, { expectNew: true });
  } catch (err) {
    if (err instanceof DomainError && err.code === 'already-exists') throw new PreconditionFailedError(ifMatch, 0);
    throw err;
  }
}
