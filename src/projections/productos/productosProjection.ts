// Read model of the Productos group: products, warehouses, balances per lot and the kardex; rebuildable from the log.
import {
  PRODUCT_EVENT_TYPES,
  WAREHOUSE_EVENT_TYPES,
  PRODUCT_CATEGORY,
  WAREHOUSE_CATEGORY,
} from '../../commands/productos/productEvents.js';
import { STOCK_EVENT_TYPES, type MovementLine, STOCK_CATEGORY } from '../../commands/productos/stockEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { aggregateIdOfStream, categoryOfStream, tenantOfStream } from '../../stores/eventStore.js';
import {
  balanceId,
  foldBalance,
  foldProduct,
  foldProductStock,
  foldWarehouse,
  kardexDoc,
  type BalanceDoc,
  type KardexDoc,
  type ProductDoc,
  type WarehouseDoc,
} from './productDocs.js';

export const PRODUCTOS_PROJECTION = 'productos';
export const PRODUCTS = 'products';
export const WAREHOUSES = 'warehouses';
export const BALANCES = 'balances';
export const KARDEX = 'kardex';

export const productosProjection: Projection = {
  name: PRODUCTOS_PROJECTION,
  version: 2, // 2: the kardex lines carry their valuation (costPerUnit, valueAfter)
  collections: {
    [PRODUCTS]: [
      { keys: { tenantId: 1, codeKey: 1, id: 1 }, name: 'by_code' },
      { keys: { tenantId: 1, category: 1, codeKey: 1, id: 1 }, name: 'by_category_code' },
    ],
    [WAREHOUSES]: [{ keys: { tenantId: 1, codeKey: 1, id: 1 }, name: 'by_code' }],
    [BALANCES]: [
      { keys: { tenantId: 1, productId: 1, warehouseId: 1, lot: 1 }, name: 'by_product' },
      { keys: { tenantId: 1, expiry: 1 }, name: 'by_expiry' },
    ],
    [KARDEX]: [{ keys: { tenantId: 1, productId: 1, seq: 1 }, name: 'by_product_seq' }],
  },
  eventTypes: [...PRODUCT_EVENT_TYPES, ...WAREHOUSE_EVENT_TYPES, ...STOCK_EVENT_TYPES],
  async handle(event, tx) {
    const tenantId = tenantOfStream(event.streamName);
    const category = categoryOfStream(event.streamName);
    if (category === PRODUCT_CATEGORY) {
      await applyFold<ProductDoc>(tx, PRODUCTS, tenantId, aggregateIdOfStream(event.streamName), event, foldProduct);
    } else if (category === WAREHOUSE_CATEGORY) {
      await applyFold<WarehouseDoc>(tx, WAREHOUSES, tenantId, aggregateIdOfStream(event.streamName), event, foldWarehouse);
    } else if (category === STOCK_CATEGORY) {
      const line = event.data as MovementLine;
      await applyFold<KardexDoc>(tx, KARDEX, tenantId, event.id, event, (doc) => doc ?? kardexDoc(event));
      await applyFold<BalanceDoc>(tx, BALANCES, tenantId, balanceId(line), event, foldBalance);
      await applyFold<ProductDoc>(tx, PRODUCTS, tenantId, line.productId, event, foldProductStock);
    }
  },
};
