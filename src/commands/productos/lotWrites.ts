// The company-wide expiry of a lot as movements use it: read before a movement brings a lot in (the decider compares a
// stated expiry with it), and recorded by the first movement that brings the lot in (a reservation on the lot's stream,
// so two warehouses receiving a new lot at once cannot record two expiries: the second is refused).
import { handleCommand, loadAggregate, type CommandContext } from '../handleCommand.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import type { StockDeps } from './stockFactWrites.js';
import { lotDecider, lotRegistryId } from './lotDecider.js';
import type { LotPortion, StockFacts } from './stockEvents.js';

/**
 * The facts with the company-wide expiry of the named lot. A lot held before lots were recorded company-wide has no
 * record yet: its expiry is then the earliest any warehouse holds (the read model points at it; the record follows).
 */
export async function withLotExpiry(
  deps: Pick<StockDeps, 'events' | 'facts'>,
  tenantId: string,
  productId: string,
  facts: StockFacts,
  lot: string | undefined,
): Promise<StockFacts> {
  const named = lot?.trim();
  if (!facts.product.lotTracked || !named) return facts;
  const stream = streamName(tenantId, lotDecider.category, lotRegistryId(productId, named));
  const { state } = await loadAggregate(deps.events, lotDecider, stream);
  if (state.expiry !== undefined) return { ...facts, lotExpiry: state.expiry };
  const earliest = await deps.facts.stock.earliestHeldExpiry(tenantId, productId, named);
  return earliest ? { ...facts, lotExpiry: earliest } : facts;
}

/** Records the expiry of every lot the movement brings in (refused with 409 lot-expiry-conflict naming `field`). */
export async function recordLotExpiries(
  services: { events: EventStore },
  ctx: CommandContext,
  productId: string,
  movementId: string,
  portions: readonly LotPortion[],
  field: string,
): Promise<void> {
  for (const { lot, expiry } of portions) {
    if (lot === null) continue;
    const data = { productId, lot, expiry, movementId, field };
    const keyed = { ...ctx, idempotencyKey: `lot-expiry\u0000${movementId}\u0000${lot}` };
    await handleCommand(services.events, lotDecider, { type: 'RecordLotExpiry', aggregateId: lotRegistryId(productId, lot), data }, keyed);
  }
}
