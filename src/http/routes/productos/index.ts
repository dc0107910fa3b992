// The Productos group: the company's products, warehouses per location, and the kardex of every stock movement.
import type { GroupModule } from '../../groupModule.js';
import { productosProjection } from '../../../projections/productos/productosProjection.js';
import { READ, TAG, WRITE } from './schemas.js';
import { productRoutes } from './productRoutes.js';
import { warehouseRoutes } from './warehouseRoutes.js';
import { stockRoutes } from './stockRoutes.js';
import { kitRoutes } from './kitRoutes.js';
import { kitProjection } from '../../../projections/productos/kitProjection.js';
import { serializedIssues, stockTransfers } from '../../../processes/stockCompletions.js';

export const productosGroup: GroupModule = {
  tag: TAG,
  description:
    'Products of the selected company (code and barcode unique, category, unit, minimum stock, reusable, lot and expiry tracking, ' +
    'prescription drug, cost), warehouses per location (main, pharmacy, ward) and the kardex: receipts, issues to sessions or ' +
    'patients, transfers, adjustments and write-offs, each with the balance per warehouse and lot it leaves. Balances never go ' +
    'negative, expired lots are never issued, issues without a lot follow FEFO. Supply kits (company default and per patient) name ' +
    'what an ended session consumes. A lot has one expiry in every warehouse. A transfer or a serialized issue that stopped ' +
    'in the middle is completed (or given back) by a process manager.',
  permissions: [READ, WRITE],
  routes: [...productRoutes, ...warehouseRoutes, ...stockRoutes, ...kitRoutes],
  projections: [productosProjection, kitProjection],
  processes: [stockTransfers, serializedIssues],
};
