// Supply kits as clients read them: each line with the product's code, name and unit; read-your-writes after a change.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import { streamName } from '../../stores/eventStore.js';
import { foldSupplyKit, KITS_PROJECTION, SUPPLY_KITS, type SupplyKitDoc } from '../../projections/productos/kitProjection.js';
import { products } from './products.js';
import { SUPPLY_KIT_CATEGORY } from '../../commands/productos/kitEvents.js';

export const COMPANY_DEFAULT_KIT_ID = 'company-default';

const kits = (scope: TenantScope) => scope.services.projections.collection<SupplyKitDoc>(KITS_PROJECTION, SUPPLY_KITS);

export async function kitView(scope: TenantScope, doc: SupplyKitDoc): Promise<Record<string, unknown>> {
  const { tenantId, _position, id, ...rest } = doc;
  const items = [];
  for (const item of doc.items) {
    const product = await products(scope).get(tenantId, item.productId);
    items.push({ ...item, ...(product ? { code: product.code, name: product.name, unit: product.unit } : {}) });
  }
  return { id, patientId: id === COMPANY_DEFAULT_KIT_ID ? null : id, ...rest, items };
}

/** The kit in force of this id, or 404. */
export async function kitOr404(scope: TenantScope, kitId: string): Promise<SupplyKitDoc> {
  const doc = await kits(scope).get(scope.auth.tenantId, kitId);
  if (!doc) throw notFoundProblem('No supply kit is set here');
  return doc;
}

/** A kit that was ever set (its history is then readable, also after a removal), or 404. */
export async function kitEverSet(scope: TenantScope, kitId: string): Promise<void> {
  const held = await scope.services.events.readStream(streamName(scope.auth.tenantId, SUPPLY_KIT_CATEGORY, kitId), { maxCount: 1 });
  if (held.length === 0) throw notFoundProblem('No supply kit was ever set here');
}

/** The kit at least at the write's revision: from the read model, or folded from its stream when the model lags. */
export async function kitAfterWrite(
  scope: TenantScope,
  kitId: string,
  result: { revision: number; position: bigint | null },
): Promise<SupplyKitDoc | null> {
  if (result.position !== null) {
    await scope.services.projections.waitFor(result.position, {
      projections: [KITS_PROJECTION],
      timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    });
  }
  const doc = await kits(scope).get(scope.auth.tenantId, kitId);
  if (doc && doc.revision >= result.revision) return doc;
  let folded: SupplyKitDoc | null = null;
  for (const e of await scope.services.events.readStream(streamName(scope.auth.tenantId, SUPPLY_KIT_CATEGORY, kitId))) {
    folded = foldSupplyKit(folded, e);
  }
  return folded;
}
