// What stock movements read from the productos read models (eventual), injected into the write side through
// AppServices.facts (server.ts), so no command imports a query (issue 22 item 3).
import type { StockFactLoaders } from '../../commands/productos/stockFactLoaders.js';
import type { AppServices } from '../../services.js';
import { balances } from '../../queries/productos/products.js';

export const stockFactLoaders = (services: () => AppServices): StockFactLoaders => ({
  async earliestHeldExpiry(tenantId, productId, lot) {
    const scope = { services: services(), auth: { tenantId } };
    const held = await balances(scope).find(tenantId, { productId, lot, expiry: { $ne: null } }, { sort: { expiry: 1 }, limit: 1 });
    return held.items[0]?.expiry ?? null;
  },
});
