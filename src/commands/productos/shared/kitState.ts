// A supply kit's state as its events leave it: the decider judges on it and the read side folds its documents with it.
import type { KitFields, SupplyKitEvent } from '../kitEvents.js';

export interface SupplyKitState {
  /** The kit in force; null when never set or removed. */
  kit: KitFields | null;
}

export const initialSupplyKitState: SupplyKitState = { kit: null };

export function evolveSupplyKit(_state: SupplyKitState, event: SupplyKitEvent): SupplyKitState {
  switch (event.type) {
    case 'SupplyKitSet':
      return { kit: { warehouseId: event.data.warehouseId, items: event.data.items.map((i) => ({ ...i })) } };
    case 'SupplyKitRemoved':
      return { kit: null };
  }
}
