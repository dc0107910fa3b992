// Read models of the equipment and stock widgets: per-company counters of machines and products by attention state
// (moved by the record's own document), and small per-item documents indexed for the date and threshold lists.
import { MACHINE_CATEGORY, MACHINE_EVENT_TYPES } from '../../commands/monitores/machineEvents.js';
import { DIALYZER_CATEGORY, DIALYZER_EVENT_TYPES } from '../../commands/filtros-dialisis/dialyzerEvents.js';
import { PRODUCT_CATEGORY, PRODUCT_EVENT_TYPES } from '../../commands/productos/productEvents.js';
import { STOCK_CATEGORY, STOCK_EVENT_TYPES, type MovementLine } from '../../commands/productos/stockEvents.js';
import { applyFold, type ProjectedDoc, type Projection, type ProjectionTx } from '../runner/projection.js';
import { aggregateIdOfStream, categoryOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import { balanceId, type BalanceDoc } from '../productos/productDocs.js';
import {
  foldEquipmentDialyzer,
  foldEquipmentLot,
  foldEquipmentMachine,
  foldEquipmentProduct,
  type EquipmentDialyzerDoc,
  type EquipmentMachineDoc,
  type EquipmentProductDoc,
} from './equipmentDocs.js';

export const EQUIPMENT_PROJECTION = 'widgets-equipment';
export const EQUIPMENT_COUNTERS = 'equipment_counters';
export const EQUIPMENT_MACHINES = 'equipment_machines';
export const EQUIPMENT_DIALYZERS = 'equipment_dialyzers';
export const EQUIPMENT_PRODUCTS = 'equipment_products';
export const EQUIPMENT_LOTS = 'equipment_lots';

/** A company's counter document ('machines', 'products'): how many records are in each attention state. */
export type CounterDoc = ProjectedDoc & { counts: Record<string, number> };

type Attentive = ProjectedDoc & { attention: string | null };

/** Moves one record from one state's count to another's; the counter's own position makes a replay move it once. */
async function moveCounter(tx: ProjectionTx, tenantId: string, id: string, from: string | null, to: string | null, position: number) {
  if (from === to) return;
  const peeked = tx.peek?.<CounterDoc>(EQUIPMENT_COUNTERS, tenantId, id);
  const doc = peeked !== undefined ? peeked : await tx.get<CounterDoc>(EQUIPMENT_COUNTERS, tenantId, id);
  if (doc && doc._position >= position) return;
  const counts = { ...doc?.counts };
  if (from !== null) counts[from] = (counts[from] ?? 0) - 1;
  if (to !== null) counts[to] = (counts[to] ?? 0) + 1;
  tx.put<CounterDoc>(EQUIPMENT_COUNTERS, { tenantId, id, counts, _position: position });
}

/** Folds a record's document and moves the company's counter when its attention state changed (the membership). */
async function foldCounted<T extends Attentive>(
  tx: ProjectionTx,
  collection: string,
  counter: string,
  id: string,
  event: RecordedEvent,
  fold: (doc: T | null, event: RecordedEvent) => T | null,
): Promise<void> {
  const tenantId = tenantOfStream(event.streamName);
  const peeked = tx.peek?.<T>(collection, tenantId, id);
  const current = peeked !== undefined ? peeked : await tx.get<T>(collection, tenantId, id);
  const position = Number(event.position);
  if (current && current._position >= position) return;
  const next = fold(current, event);
  if (next === current) return;
  await moveCounter(tx, tenantId, counter, current?.attention ?? null, next?.attention ?? null, position);
  if (next === null) tx.delete(collection, tenantId, id);
  else tx.put(collection, next);
}

export const equipmentProjection: Projection = {
  name: EQUIPMENT_PROJECTION,
  version: 1,
  // Counters first: a failure between the two leaves the record's document behind, and the replay moves nothing twice.
  collections: {
    [EQUIPMENT_COUNTERS]: [],
    [EQUIPMENT_MACHINES]: [
      { keys: { tenantId: 1, attention: 1, codeKey: 1, id: 1 }, name: 'by_attention_code' },
      { keys: { tenantId: 1, modelKey: 1, pmBaseDate: 1, id: 1 }, name: 'by_model_pm_date' },
      { keys: { tenantId: 1, pmBaseDate: 1, id: 1 }, name: 'by_pm_date' },
      { keys: { tenantId: 1, hoursSincePm: -1, id: 1 }, name: 'by_pm_hours' },
    ],
    [EQUIPMENT_DIALYZERS]: [
      { keys: { tenantId: 1, modelKey: 1, uses: -1, id: 1 }, name: 'by_model_uses' },
      { keys: { tenantId: 1, uses: -1, id: 1 }, name: 'by_uses' },
      { keys: { tenantId: 1, lastTcvPercent: 1, id: 1 }, name: 'by_tcv' },
    ],
    [EQUIPMENT_PRODUCTS]: [{ keys: { tenantId: 1, attention: 1, codeKey: 1, id: 1 }, name: 'by_attention_code' }],
    [EQUIPMENT_LOTS]: [{ keys: { tenantId: 1, expiry: 1, id: 1 }, name: 'by_expiry' }],
  },
  eventTypes: [...MACHINE_EVENT_TYPES, ...DIALYZER_EVENT_TYPES, ...PRODUCT_EVENT_TYPES, ...STOCK_EVENT_TYPES],
  async handle(event, tx) {
    const category = categoryOfStream(event.streamName);
    if (category === MACHINE_CATEGORY) {
      const id = aggregateIdOfStream(event.streamName);
      await foldCounted<EquipmentMachineDoc>(tx, EQUIPMENT_MACHINES, 'machines', id, event, foldEquipmentMachine);
    } else if (category === DIALYZER_CATEGORY) {
      const tenantId = tenantOfStream(event.streamName);
      const id = aggregateIdOfStream(event.streamName);
      await applyFold<EquipmentDialyzerDoc>(tx, EQUIPMENT_DIALYZERS, tenantId, id, event, foldEquipmentDialyzer);
    } else if (category === PRODUCT_CATEGORY) {
      const id = aggregateIdOfStream(event.streamName);
      await foldCounted<EquipmentProductDoc>(tx, EQUIPMENT_PRODUCTS, 'products', id, event, (doc, e) =>
        foldEquipmentProduct(doc, e, false),
      );
    } else if (category === STOCK_CATEGORY) {
      const line = event.data as MovementLine;
      const tenantId = tenantOfStream(event.streamName);
      await applyFold<BalanceDoc>(tx, EQUIPMENT_LOTS, tenantId, balanceId(line), event, foldEquipmentLot);
      await foldCounted<EquipmentProductDoc>(tx, EQUIPMENT_PRODUCTS, 'products', line.productId, event, (doc, e) =>
        foldEquipmentProduct(doc, e, true),
      );
    }
  },
};
