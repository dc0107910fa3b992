// Commands on products and warehouses as the routes run them: the product stream with its code and barcode guards
// (unique within the company), and the warehouse stream.
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { DomainError, notFound } from '../decider.js';
import type { FactLoaders } from '../factLoaders.js';
import { newId, uuidV5 } from '../eventIds.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import { releaseClaim, withClaims, type UniqueGuard } from '../uniqueClaimWrites.js';
import { LIMITS } from '../../limits.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { productDecider, warehouseDecider, type WarehouseState } from './productDecider.js';
import type { ProductState } from './shared/productState.js';
import { productValueKey, type ProductFields, type ProductPatch, type WarehouseFields } from './productEvents.js';

type Unique = 'code' | 'barcode';

const guardOf = (field: Unique, category: string, code: string, message: string): UniqueGuard => ({
  decider: uniqueClaimDecider(category, code, message),
  duplicateCode: code,
  holderCategory: productDecider.category,
  graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
  async heldKey(events: EventStore, tenantId: string, holderId: string) {
    const { state } = await loadAggregate(events, productDecider, streamName(tenantId, productDecider.category, holderId));
    const value = state.fields?.[field];
    return value === undefined ? null : productValueKey(value);
  },
});

export const PRODUCT_GUARDS: Record<Unique, UniqueGuard> = {
  code: guardOf('code', 'productCode', 'duplicate-code', 'another product of this company already has this code'),
  barcode: guardOf('barcode', 'productBarcode', 'duplicate-barcode', 'another product of this company already has this barcode'),
};

const claimsOf = (productId: string, fields: Partial<Record<Unique, string | null>>, which: Unique[]) =>
  which.flatMap((field) => {
    const value = fields[field];
    return typeof value === 'string' ? [{ guard: PRODUCT_GUARDS[field], claim: { holderId: productId, key: productValueKey(value) } }] : [];
  });

const idFor = (kind: string, idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`${kind}\u0000${idempotencyKey}`) : newId();

export async function createProduct(
  events: EventStore,
  ctx: CommandContext,
  data: ProductFields,
): Promise<{ productId: string; result: CommandResult<ProductState> }> {
  const productId = idFor('product', ctx.idempotencyKey);
  const command = { type: 'CreateProduct' as const, aggregateId: productId, data };
  // Judge the data first (pure), so a refused product never holds a code.
  productDecider.decide(
    { ...command, at: ctx.at ?? new Date().toISOString(), actor: ctx.actor, tenantId: ctx.tenantId },
    productDecider.initialState,
  );
  const result = await withClaims(events, ctx, claimsOf(productId, data, ['code', 'barcode']), () =>
    handleCommand(events, productDecider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { productId, result };
}

/** A correction; a new code or barcode is claimed first and the old one released after. */
export async function correctProduct(
  events: EventStore,
  ctx: CommandContext,
  productId: string,
  patch: ProductPatch,
  ifMatch: number,
): Promise<CommandResult<ProductState>> {
  const { state, revision } = await loadAggregate(events, productDecider, streamName(ctx.tenantId, productDecider.category, productId));
  if (!state.fields) throw notFound('product');
  if (ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  const current = state.fields;
  const key = (v: string | null | undefined) => (typeof v === 'string' ? productValueKey(v) : null);
  const moved = (['code', 'barcode'] as const).filter((f) => patch[f] !== undefined && key(patch[f]) !== key(current[f]));
  const command = { type: 'CorrectProduct' as const, aggregateId: productId, data: patch };
  const result = await withClaims(events, ctx, claimsOf(productId, patch, moved), () =>
    handleCommand(events, productDecider, command, ctx, { ifMatch }),
  );
  for (const field of moved) {
    const old = current[field];
    if (old !== undefined) await releaseClaim(events, ctx, PRODUCT_GUARDS[field], { holderId: productId, key: productValueKey(old) });
  }
  return result;
}

export function deactivateProduct(
  events: EventStore,
  ctx: CommandContext,
  productId: string,
  reason: string,
  ifMatch: number | null,
): Promise<CommandResult<ProductState>> {
  return handleCommand(events, productDecider, { type: 'DeactivateProduct', aggregateId: productId, data: { reason } }, ctx, { ifMatch });
}

/** A warehouse stands at a location of the company (read from the locations model through the injected loader). */
export async function createWarehouse(
  deps: { events: EventStore; facts: Pick<FactLoaders, 'isLocation'> },
  ctx: CommandContext,
  data: WarehouseFields,
): Promise<{ warehouseId: string; result: CommandResult<WarehouseState> }> {
  const { events } = deps;
  if (!(await deps.facts.isLocation(ctx.tenantId, data.locationId))) {
    const message = 'no such location in this company';
    throw new DomainError('validation-failed', `locationId: ${message}`, 422, { errors: [{ field: 'locationId', message }] });
  }
  const warehouseId = idFor('warehouse', ctx.idempotencyKey);
  const command = { type: 'CreateWarehouse' as const, aggregateId: warehouseId, data };
  const result = await handleCommand(events, warehouseDecider, command, ctx, { expectNew: true, assumeNew: true });
  return { warehouseId, result };
}
