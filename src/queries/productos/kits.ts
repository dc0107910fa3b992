// Supply kits as clients read them: the kit record model (get, or404, latest after a change) and each line with the
// product's code, name and unit.
import type { TenantScope } from '../tenantScope.js';
import { recordModel } from '../recordModel.js';
import { foldSupplyKit, KITS_PROJECTION, SUPPLY_KITS, type SupplyKitDoc } from '../../projections/productos/kitProjection.js';
import { products } from './products.js';
import { SUPPLY_KIT_CATEGORY } from '../../commands/productos/kitEvents.js';

export const COMPANY_DEFAULT_KIT_ID = 'company-default';

/** The kit in force of an id (the patient's, or the company default); a removed kit keeps its stream (mustExist: ever set). */
export const kitModel = recordModel<SupplyKitDoc>({
  projection: KITS_PROJECTION,
  collection: SUPPLY_KITS,
  category: SUPPLY_KIT_CATEGORY,
  fold: foldSupplyKit,
  notFound: 'No supply kit is set here',
});

export async function kitView(scope: TenantScope, doc: SupplyKitDoc): Promise<Record<string, unknown>> {
  const { tenantId, _position, _changedAt: _changed, id, ...rest } = doc;
  const items = [];
  for (const item of doc.items) {
    const product = await products(scope).get(tenantId, item.productId);
    items.push({ ...item, ...(product ? { code: product.code, name: product.name, unit: product.unit } : {}) });
  }
  return { id, patientId: id === COMPANY_DEFAULT_KIT_ID ? null : id, ...rest, items };
}
