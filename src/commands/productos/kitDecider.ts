// Every rule of a supply kit. Pure: the products and the warehouse it names come in as facts with the command.
import type { Decider } from '../decider.js';
import { notFound } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import { SUPPLY_KIT_CATEGORY, type KitFields, type SupplyKitCommand, type SupplyKitEvent } from './kitEvents.js';
import { evolveSupplyKit, initialSupplyKitState, type SupplyKitState } from './shared/kitState.js';

const sameKit = (a: KitFields, b: KitFields): boolean =>
  a.warehouseId === b.warehouseId &&
  a.items.length === b.items.length &&
  a.items.every((item, i) => item.productId === b.items[i]!.productId && item.quantity === b.items[i]!.quantity);

export function decideSupplyKit(command: SupplyKitCommand, state: SupplyKitState): SupplyKitEvent[] {
  switch (command.type) {
    case 'SetSupplyKit': {
      const { warehouseId, items, facts } = command.data;
      const checks = new FieldChecks();
      checks.check(facts.warehouseExists, 'warehouseId', 'no such warehouse in this company');
      const seen = new Set<string>();
      items.forEach((item, i) => {
        const product = facts.products[item.productId];
        checks.check(!seen.has(item.productId), `items/${i}/productId`, 'the product is already in the kit: one line per product');
        checks.check(product !== undefined, `items/${i}/productId`, 'no such product in this company');
        checks.check(product === undefined || product.active, `items/${i}/productId`, 'the product is deactivated');
        checks.check(Number.isFinite(item.quantity) && item.quantity > 0, `items/${i}/quantity`, 'must be greater than 0');
        seen.add(item.productId);
      });
      checks.throwIfAny();
      const kit = { warehouseId, items: items.map(({ productId, quantity }) => ({ productId, quantity })) };
      if (state.kit && sameKit(state.kit, kit)) return [];
      return [{ type: 'SupplyKitSet', data: { kitId: command.aggregateId, ...kit } }];
    }
    case 'RemoveSupplyKit':
      if (!state.kit) throw notFound('supply kit');
      return [{ type: 'SupplyKitRemoved', data: { kitId: command.aggregateId } }];
  }
}

export const supplyKitDecider: Decider<SupplyKitCommand, SupplyKitEvent, SupplyKitState> = {
  category: SUPPLY_KIT_CATEGORY,
  initialState: initialSupplyKitState,
  evolve: evolveSupplyKit,
  decide: decideSupplyKit,
};
