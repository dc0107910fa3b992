// What a stock movement needs from elsewhere: the product (404 when not of this company), the warehouses named in the
// body (422 naming the field), the patient or session, and the company's calendar day of the movement. What
// comes from read models is injected (StockDeps: src/facts/productos/, wired in server.ts), never imported.
import { sessionStream } from '../dialisis/session/sessionEvents.js';
import { loadAggregate, type CommandContext } from '../handleCommand.js';
import { notFound } from '../decider.js';
import { invalidFields } from '../shared/fieldChecks.js';
import { newId, uuidV5 } from '../eventIds.js';
import { patientDecider } from '../pacientes/patientDecider.js';
import type { FactLoaders } from '../factLoaders.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { productDecider, warehouseDecider } from './productDecider.js';
import { isCountableUnit, type ProductFields } from './productEvents.js';
import type { StockFacts } from './stockEvents.js';

/** A stock movement's dependencies: the event store, the clock, and its fact loaders (not the whole AppServices). */
export interface StockDeps {
  events: EventStore;
  now(): Date;
  facts: Pick<FactLoaders, 'companyDay' | 'stock'>;
}

export interface ProductFacts {
  fields: ProductFields;
  facts: StockFacts;
}

/** A movement retried with the same key gets the same id; otherwise a fresh one. */
export const movementIdFor = (kind: string, idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`${kind}\u0000${idempotencyKey}`) : newId();

export async function productFacts(deps: StockDeps, ctx: CommandContext, productId: string): Promise<ProductFacts> {
  const { state } = await loadAggregate(deps.events, productDecider, streamName(ctx.tenantId, productDecider.category, productId));
  if (!state.fields) throw notFound('product');
  const at = ctx.at ?? deps.now().toISOString();
  const today = await deps.facts.companyDay(ctx.tenantId, new Date(at));
  const { lotTracked, expiryTracked, prescriptionDrug, unit, cost } = state.fields;
  const countable = isCountableUnit(unit);
  const product = { active: state.active, lotTracked, expiryTracked, prescriptionDrug, countable, ...(cost ? { cost: cost.amount } : {}) };
  return { fields: state.fields, facts: { product, today } };
}

/** The warehouse must be one of this company's (422 naming `field` otherwise). */
export async function mustBeWarehouse(
  services: { events: EventStore },
  tenantId: string,
  warehouseId: string,
  field: string,
): Promise<void> {
  const { state } = await loadAggregate(services.events, warehouseDecider, streamName(tenantId, warehouseDecider.category, warehouseId));
  if (!state.fields) throw invalidFields([{ field, message: 'no such warehouse in this company' }]);
}

/** The patient must be an active patient of this company; a session must exist in it (422 naming the field). */
export async function mustBeReference(
  services: { events: EventStore },
  tenantId: string,
  reference: { patientId?: string; sessionId?: string },
): Promise<void> {
  if (reference.patientId !== undefined) {
    const { state } = await loadAggregate(
      services.events,
      patientDecider,
      streamName(tenantId, patientDecider.category, reference.patientId),
    );
    if (!state.exists || state.status !== 'active')
      throw invalidFields([{ field: 'patientId', message: 'no such active patient in this company' }]);
  }
  if (reference.sessionId !== undefined) {
    const held = await services.events.readStream(sessionStream(tenantId, reference.sessionId), { maxCount: 1 });
    if (held.length === 0) throw invalidFields([{ field: 'sessionId', message: 'no such dialysis session in this company' }]);
  }
}
