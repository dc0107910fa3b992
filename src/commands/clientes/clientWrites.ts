// Commands on payers as the routes run them: the client stream (contracts included) and the guard that keeps a tax id
// unique within the company; and the contract in force, read from the stream for the daily record and the report.
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { notFound } from '../decider.js';
import { newId, uuidV5 } from '../eventIds.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import { releaseClaim, withClaims, type UniqueGuard } from '../uniqueClaimWrites.js';
import { LIMITS } from '../../limits.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { clientDecider } from './clientDecider.js';
import { taxIdKey, type ClientCommand, type ClientFields, type ClientPatch, type Contract } from './clientEvents.js';
import type { ClientState } from './shared/clientState.js';
import { contractInForceOn } from './shared/contractRules.js';

type Result = CommandResult<ClientState>;
const clientStream = (tenantId: string, id: string): string => streamName(tenantId, clientDecider.category, id);

export const CLIENT_TAX_ID_GUARD: UniqueGuard = {
  decider: uniqueClaimDecider('clientTaxId', 'duplicate-tax-id', 'another client of this company already has this tax id'),
  duplicateCode: 'duplicate-tax-id',
  holderCategory: clientDecider.category,
  graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
  async heldKey(events: EventStore, tenantId: string, holderId: string) {
    const { state } = await loadAggregate(events, clientDecider, clientStream(tenantId, holderId));
    return state.fields ? taxIdKey(state.fields) : null;
  },
};

/** A retried registration (same Idempotency-Key) targets the same client id; otherwise a fresh one. */
const newClientId = (idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`client\u0000${idempotencyKey}`) : newId();

const decidedAlone = (ctx: CommandContext, command: Pick<ClientCommand, 'type' | 'data' | 'aggregateId'>, state: ClientState) =>
  clientDecider.decide(
    { ...command, at: ctx.at ?? new Date().toISOString(), actor: ctx.actor, tenantId: ctx.tenantId } as ClientCommand,
    state,
  );

export async function registerClient(
  events: EventStore,
  ctx: CommandContext,
  data: ClientFields,
): Promise<{ clientId: string; result: Result }> {
  const clientId = newClientId(ctx.idempotencyKey);
  const command = { type: 'RegisterClient' as const, aggregateId: clientId, data };
  // Checked first (pure), so a refused registration never holds a tax id; the claim takes the canonical number.
  const [registered] = decidedAlone(ctx, command, clientDecider.initialState);
  const checked = registered!.data as ClientFields;
  const result = await withClaims(
    events,
    ctx,
    [{ guard: CLIENT_TAX_ID_GUARD, claim: { holderId: clientId, key: taxIdKey(checked) } }],
    () => handleCommand(events, clientDecider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { clientId, result };
}

/** A correction; a new tax id (or country) is claimed first and the old one released after. */
export async function correctClient(
  events: EventStore,
  ctx: CommandContext,
  clientId: string,
  patch: ClientPatch,
  ifMatch: number,
): Promise<Result> {
  const command = { type: 'CorrectClient' as const, aggregateId: clientId, data: patch };
  const { state, revision } = await loadAggregate(events, clientDecider, clientStream(ctx.tenantId, clientId));
  if (!state.fields) throw notFound('client');
  if (ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  const before = taxIdKey(state.fields);
  const decided = decidedAlone(ctx, command, state);
  const after = decided.reduce((s, e) => clientDecider.evolve(s, e), state).fields!;
  const moved = taxIdKey(after) !== before;
  const claims = moved ? [{ guard: CLIENT_TAX_ID_GUARD, claim: { holderId: clientId, key: taxIdKey(after) } }] : [];
  const result = await withClaims(events, ctx, claims, () => handleCommand(events, clientDecider, command, ctx, { ifMatch }));
  if (moved) await releaseClaim(events, ctx, CLIENT_TAX_ID_GUARD, { holderId: clientId, key: before });
  return result;
}

type PlainCommand = Exclude<ClientCommand, { type: 'RegisterClient' | 'CorrectClient' }>;

/** Status changes and contracts: commands that need nothing but the client's own stream. */
export function clientCommand(
  events: EventStore,
  ctx: CommandContext,
  clientId: string,
  command: Pick<PlainCommand, 'type' | 'data'>,
  ifMatch: number | null,
): Promise<Result> {
  return handleCommand(events, clientDecider, { ...command, aggregateId: clientId }, ctx, { ifMatch });
}

export type ContractInForce = Contract & { clientId: string; clientStatus: ClientState['status'] };

/**
 * The client's contract in force on a date (of the service when given), folded from the client's stream: a lagging
 * read model never hands the daily record or the payer report another rate. Null when none (or no such client).
 */
export async function contractInForce(
  services: { events: EventStore },
  tenantId: string,
  clientId: string,
  date: string,
  serviceCode?: string,
): Promise<ContractInForce | null> {
  const { state } = await loadAggregate(services.events, clientDecider, clientStream(tenantId, clientId));
  if (!state.fields) return null;
  const contract = contractInForceOn(state.contracts, date, serviceCode);
  return contract ? { ...contract, clientId, clientStatus: state.status } : null;
}

/** Whether a client of this company exists (from its stream: a client registered a moment ago counts). */
export async function clientExists(services: { events: EventStore }, tenantId: string, clientId: string): Promise<boolean> {
  const { state } = await loadAggregate(services.events, clientDecider, clientStream(tenantId, clientId));
  return state.fields !== null;
}
