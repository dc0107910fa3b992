// Queries over products and warehouses: the product and warehouse record models (get, or404, the product's latest after
// a write), the balance and kardex collections, and the lists.
import { PRODUCT_CATEGORY, WAREHOUSE_CATEGORY } from '../../commands/productos/productEvents.js';
import { LIMITS } from '../../limits.js';
import { round3 } from '../../commands/productos/shared/stockState.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Filter, Page } from '../../stores/readStore.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { recordModel } from '../recordModel.js';
import { BALANCES, KARDEX, PRODUCTOS_PROJECTION, PRODUCTS, WAREHOUSES } from '../../projections/productos/productosProjection.js';
import {
  foldProduct,
  foldWarehouse,
  productView,
  warehouseView,
  type BalanceDoc,
  type KardexDoc,
  type ProductDoc,
  type WarehouseDoc,
} from '../../projections/productos/productDocs.js';
import { changedSince } from '../changedSince.js';

/** The product record; its stock is projected from the movements, so a product folded from its own stream takes the stored one. */
export const productModel = recordModel<ProductDoc>({
  projection: PRODUCTOS_PROJECTION,
  collection: PRODUCTS,
  category: PRODUCT_CATEGORY,
  fold: foldProduct,
  notFound: 'Product not found',
  fromStored: (folded, stored) => {
    const stock = stored?.stock ?? 0;
    return { ...folded, stock, belowMinimum: stock < folded.minimumStock };
  },
  // As it was: the stock then, from the kardex (each warehouse's balance after its last line up to that instant).
  atInstant: async (scope, folded, instant) => {
    const stock = await stockAt(scope, folded.id, instant);
    return { ...folded, stock, belowMinimum: stock < folded.minimumStock };
  },
});

/** A product's total stock at an instant: the balance of each warehouse that ever held it, after its last line until then. */
async function stockAt(scope: TenantScope, productId: string, instant: string): Promise<number> {
  const tenantId = scope.auth.tenantId;
  const held = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: Page<BalanceDoc> = await balances(scope).find(tenantId, { productId }, { limit: 500, after: cursor });
    for (const b of page.items) held.add(b.warehouseId);
    cursor = page.nextCursor;
  } while (cursor);
  let total = 0;
  for (const warehouseId of held) {
    const last = await kardex(scope).find(tenantId, { productId, warehouseId, at: { $lte: instant } }, { sort: { seq: -1 }, limit: 1 });
    total += last.items[0]?.balanceAfter ?? 0;
  }
  return round3(total);
}

/**
 * A warehouse is created and never changed: one event, so always revision 0, which its document does not store (its
 * view does not show one). The model serves get and or404; its create answers without an ETag.
 */
type WarehouseRecord = WarehouseDoc & { revision: number };
export const warehouseModel = recordModel<WarehouseRecord>({
  projection: PRODUCTOS_PROJECTION,
  collection: WAREHOUSES,
  category: WAREHOUSE_CATEGORY,
  fold: (doc: WarehouseRecord | null, event: RecordedEvent) => foldWarehouse(doc, event) as WarehouseRecord | null,
  notFound: 'Warehouse not found',
});

const collection = <T extends BalanceDoc | KardexDoc>(scope: TenantScope, name: string): Collection<T> =>
  scope.services.projections.collection<T>(PRODUCTOS_PROJECTION, name);
export const products = productModel.collection;
export const warehouses = warehouseModel.collection;
export const balances = (scope: TenantScope) => collection<BalanceDoc>(scope, BALANCES);
export const kardex = (scope: TenantScope) => collection<KardexDoc>(scope, KARDEX);

/** Waits (bounded) until the read model has applied a write. */
export async function awaitWrite(scope: TenantScope, position: bigint | null): Promise<void> {
  if (position === null) return;
  await scope.services.projections.waitFor(position, { projections: [PRODUCTOS_PROJECTION], timeoutMs: LIMITS.readYourWrites.maxWaitMs });
}

export interface ProductListQuery {
  category?: string;
  belowMinimum?: boolean;
  active?: boolean;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

export async function listProducts(scope: TenantScope, query: ProductListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {};
  if (query.category) filter.category = query.category;
  if (query.belowMinimum !== undefined) filter.belowMinimum = query.belowMinimum;
  if (query.active !== undefined) filter.active = query.active;
  const page = await products(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { codeKey: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(productView), nextCursor: page.nextCursor };
}

export async function listWarehouses(
  scope: TenantScope,
  query: { locationId?: string; limit: number; cursor?: string; updatedSince?: string },
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = query.locationId ? { locationId: query.locationId } : {};
  const page = await warehouses(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { codeKey: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(warehouseView), nextCursor: page.nextCursor };
}
