// Read model of the supply kits: one document per kit in force (a removed kit is deleted; its history stays in the log).
import { evolveSupplyKit, initialSupplyKitState } from '../../commands/productos/shared/kitState.js';
import { SUPPLY_KIT_EVENT_TYPES, type KitItem, type SupplyKitEvent } from '../../commands/productos/kitEvents.js';
import { applyFold, type ProjectedDoc, type Projection } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export const KITS_PROJECTION = 'productos-kits';
export const SUPPLY_KITS = 'supplyKits';

export type SupplyKitDoc = ProjectedDoc & {
  warehouseId: string;
  items: KitItem[];
  revision: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
};

export function foldSupplyKit(doc: SupplyKitDoc | null, recorded: RecordedEvent): SupplyKitDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as SupplyKitEvent;
  const state = evolveSupplyKit(doc ? { kit: { warehouseId: doc.warehouseId, items: doc.items } } : initialSupplyKitState, event);
  if (!state.kit) return null;
  const stamp = { at: recorded.metadata.occurredAt, by: recorded.metadata.actor };
  return {
    tenantId: tenantOfStream(recorded.streamName),
    id: aggregateIdOfStream(recorded.streamName),
    ...state.kit,
    revision: recorded.revision,
    createdAt: doc?.createdAt ?? stamp.at,
    createdBy: doc?.createdBy ?? stamp.by,
    updatedAt: stamp.at,
    updatedBy: stamp.by,
    _position: Number(recorded.position),
  };
}

export const kitProjection: Projection = {
  name: KITS_PROJECTION,
  version: 1,
  collections: { [SUPPLY_KITS]: [] },
  eventTypes: SUPPLY_KIT_EVENT_TYPES,
  async handle(event, tx) {
    await applyFold<SupplyKitDoc>(
      tx,
      SUPPLY_KITS,
      tenantOfStream(event.streamName),
      aggregateIdOfStream(event.streamName),
      event,
      foldSupplyKit,
    );
  },
};
