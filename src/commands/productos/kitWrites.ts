// Supply kits as the routes and the session supplies process manager use them: the facts the decider judges (the
// products and the warehouse named, from their own streams), the patient a kit belongs to, and the kit in force for a
// patient at a point of the log (their own, else the company default), so a replay takes the kit the session ended with.
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../handleCommand.js';
import { notFound } from '../decider.js';
import { patientDecider } from '../pacientes/patientDecider.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { productDecider, warehouseDecider } from './productDecider.js';
import { supplyKitDecider } from './kitDecider.js';
import { initialSupplyKitState, type SupplyKitState } from './shared/kitState.js';
import { COMPANY_DEFAULT_KIT, type KitFacts, type KitFields, type SupplyKitEvent } from './kitEvents.js';

const kitStream = (tenantId: string, kitId: string): string => streamName(tenantId, supplyKitDecider.category, kitId);

/** True when the product is one of this company's (active or not). */
/** A kit's writes read and append streams only: the event store, not the whole AppServices. */
type KitDeps = { events: EventStore };

export async function isCompanyProduct(services: KitDeps, tenantId: string, productId: string): Promise<boolean> {
  const { state } = await loadAggregate(services.events, productDecider, streamName(tenantId, productDecider.category, productId));
  return state.fields !== null;
}

async function kitFacts(services: KitDeps, tenantId: string, fields: KitFields): Promise<KitFacts> {
  const warehouse = await loadAggregate(
    services.events,
    warehouseDecider,
    streamName(tenantId, warehouseDecider.category, fields.warehouseId),
  );
  const products: KitFacts['products'] = {};
  for (const productId of new Set(fields.items.map((i) => i.productId))) {
    const { state } = await loadAggregate(services.events, productDecider, streamName(tenantId, productDecider.category, productId));
    if (state.fields) products[productId] = { active: state.active };
  }
  return { warehouseExists: warehouse.state.fields !== null, products };
}

/** A patient's kit belongs to a patient of this company (404 otherwise, as another company's patient is absent). */
export async function mustBeKitOwner(services: KitDeps, tenantId: string, kitId: string): Promise<void> {
  if (kitId === COMPANY_DEFAULT_KIT) return;
  const { state } = await loadAggregate(services.events, patientDecider, streamName(tenantId, patientDecider.category, kitId));
  if (!state.exists) throw notFound('patient');
}

export async function supplyKitOf(
  services: KitDeps,
  tenantId: string,
  kitId: string,
): Promise<{ state: SupplyKitState; revision: number }> {
  const { state, revision } = await loadAggregate(services.events, supplyKitDecider, kitStream(tenantId, kitId));
  return { state, revision };
}

/**
 * Sets (or replaces) a kit. `ifMatch` guards a replacement; without it the kit is written over the revision just read,
 * so a concurrent change is a conflict, never lost.
 */
export async function setSupplyKit(
  services: KitDeps,
  ctx: CommandContext,
  kitId: string,
  fields: KitFields,
  ifMatch: number | null,
): Promise<CommandResult<SupplyKitState>> {
  await mustBeKitOwner(services, ctx.tenantId, kitId);
  const facts = await kitFacts(services, ctx.tenantId, fields);
  const { revision } = await supplyKitOf(services, ctx.tenantId, kitId);
  const guard = ifMatch ?? (revision >= 0 ? revision : null);
  const command = { type: 'SetSupplyKit' as const, aggregateId: kitId, data: { ...fields, facts } };
  return handleCommand(services.events, supplyKitDecider, command, ctx, guard === null ? { expectNew: true } : { ifMatch: guard });
}

export async function removeSupplyKit(
  services: KitDeps,
  ctx: CommandContext,
  kitId: string,
  ifMatch: number | null,
): Promise<CommandResult<SupplyKitState>> {
  await mustBeKitOwner(services, ctx.tenantId, kitId);
  return handleCommand(services.events, supplyKitDecider, { type: 'RemoveSupplyKit', aggregateId: kitId, data: {} }, ctx, { ifMatch });
}

async function kitBefore(services: KitDeps, tenantId: string, kitId: string, position: bigint): Promise<KitFields | null> {
  let state = initialSupplyKitState;
  for (const e of await services.events.readStream(kitStream(tenantId, kitId))) {
    if (e.position >= position) break;
    state = supplyKitDecider.evolve(state, { type: e.type, data: e.data } as unknown as SupplyKitEvent);
  }
  return state.kit;
}

/** The kit in force for a patient just before `position` of the log: their own, else the company default, else none. */
export async function supplyKitInForce(
  services: KitDeps,
  tenantId: string,
  patientId: string,
  position: bigint,
): Promise<{ kitId: string; kit: KitFields } | null> {
  for (const kitId of [patientId, COMPANY_DEFAULT_KIT]) {
    const kit = await kitBefore(services, tenantId, kitId, position);
    if (kit) return { kitId, kit };
  }
  return null;
}
