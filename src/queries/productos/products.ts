// Queries over products and warehouses, with read-your-writes: a write waits for the projection to apply its events,
// then reads; if the bounded wait runs out it folds the product's own stream instead.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Filter, Page } from '../../stores/readStore.js';
import { streamName } from '../../stores/eventStore.js';
import { BALANCES, KARDEX, PRODUCTOS_PROJECTION, PRODUCTS, WAREHOUSES } from '../../projections/productos/productosProjection.js';
import {
  foldProduct,
  productView,
  warehouseView,
  type BalanceDoc,
  type KardexDoc,
  type ProductDoc,
  type WarehouseDoc,
} from '../../projections/productos/productDocs.js';
import { PRODUCT_CATEGORY } from '../../commands/productos/productEvents.js';

const collection = <T extends ProductDoc | WarehouseDoc | BalanceDoc | KardexDoc>(scope: TenantScope, name: string): Collection<T> =>
  scope.services.projections.collection<T>(PRODUCTOS_PROJECTION, name);
export const products = (scope: TenantScope) => collection<ProductDoc>(scope, PRODUCTS);
export const warehouses = (scope: TenantScope) => collection<WarehouseDoc>(scope, WAREHOUSES);
export const balances = (scope: TenantScope) => collection<BalanceDoc>(scope, BALANCES);
export const kardex = (scope: TenantScope) => collection<KardexDoc>(scope, KARDEX);

/** A product of the caller's company, or 404 (another company's product is exactly as absent). */
export async function productOr404(scope: TenantScope, id: string): Promise<ProductDoc> {
  const doc = await products(scope).get(scope.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Product not found');
  return doc;
}

export async function warehouseOr404(scope: TenantScope, id: string): Promise<WarehouseDoc> {
  const doc = await warehouses(scope).get(scope.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Warehouse not found');
  return doc;
}

/** Waits (bounded) until the read model has applied a write. */
export async function awaitWrite(scope: TenantScope, position: bigint | null): Promise<void> {
  if (position === null) return;
  await scope.services.projections.waitFor(position, { projections: [PRODUCTOS_PROJECTION], timeoutMs: LIMITS.readYourWrites.maxWaitMs });
}

/** The product at least at the write's revision: from the read model, or folded from its stream when the model lags. */
export async function productAfterWrite(
  scope: TenantScope,
  id: string,
  result: { revision: number; position: bigint | null },
): Promise<ProductDoc> {
  await awaitWrite(scope, result.position);
  const tenantId = scope.auth.tenantId;
  const doc = await products(scope).get(tenantId, id);
  if (doc && doc.revision >= result.revision) return doc;
  let folded: ProductDoc | null = null;
  for (const e of await scope.services.events.readStream(streamName(tenantId, PRODUCT_CATEGORY, id))) folded = foldProduct(folded, e);
  if (!folded) throw notFoundProblem('Product not found');
  return { ...folded, stock: doc?.stock ?? 0, belowMinimum: (doc?.stock ?? 0) < folded.minimumStock };
}

export interface ProductListQuery {
  category?: string;
  belowMinimum?: boolean;
  active?: boolean;
  limit: number;
  cursor?: string;
}

export async function listProducts(scope: TenantScope, query: ProductListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {};
  if (query.category) filter.category = query.category;
  if (query.belowMinimum !== undefined) filter.belowMinimum = query.belowMinimum;
  if (query.active !== undefined) filter.active = query.active;
  const page = await products(scope).find(scope.auth.tenantId, filter, {
    sort: { codeKey: 1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
  return { items: page.items.map(productView), nextCursor: page.nextCursor };
}

export async function listWarehouses(
  scope: TenantScope,
  query: { locationId?: string; limit: number; cursor?: string },
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = query.locationId ? { locationId: query.locationId } : {};
  const page = await warehouses(scope).find(scope.auth.tenantId, filter, {
    sort: { codeKey: 1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
  return { items: page.items.map(warehouseView), nextCursor: page.nextCursor };
}
