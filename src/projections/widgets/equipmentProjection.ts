// Read models of the equipment and stock widgets: per-company counters of machines and products by attention state
// (moved by the record's own document), and small per-item documents indexed for the date and threshold lists.
import { MACHINE_CATEGORY, MACHINE_EVENT_TYPES } from '../../commands/monitores/machineEvents.js';
import { DIALYZER_CATEGORY, DIALYZER_EVENT_TYPES } from '../../commands/filtros-dialisis/dialyzerEvents.js';
import { PRODUCT_CATEGORY, PRODUCT_EVENT_TYPES } from '../../commands/productos/productEvents.js';
import { STOCK_CATEGORY, STOCK_EVENT_TYPES, type MovementLine } from '../../commands/productos/stockEvents.js';
import { type ProjectedDoc, type Projection, type ProjectionTx } from '../runner/projection.js';
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

/**
 * A company's counter document: how many records are in each bucket. 'machines' and 'products' count by attention state,
 * 'dialyzer-uses' by model and uses, 'dialyzer-tcv' by whole TCV percent, and `lots:<day>` the lots with stock left
 * expiring that day (`day` indexed: a horizon's count is the sum of its days' documents).
 */
export type CounterDoc = ProjectedDoc & { counts: Record<string, number>; day?: string };

/** Where a record counts: the counter document and the key in it (the document's day for the lot days). */
export interface Bucket {
  counter: string;
  key: string;
  day?: string;
}

async function counterDoc(tx: ProjectionTx, tenantId: string, id: string): Promise<CounterDoc | null> {
  const peeked = tx.peek?.<CounterDoc>(EQUIPMENT_COUNTERS, tenantId, id);
  return peeked !== undefined ? peeked : tx.get<CounterDoc>(EQUIPMENT_COUNTERS, tenantId, id);
}

/** Adds the deltas to one counter document; its own position makes a replay of the event move it once. */
async function bump(tx: ProjectionTx, tenantId: string, id: string, deltas: [string, number][], position: number, day?: string) {
  const doc = await counterDoc(tx, tenantId, id);
  if (doc && doc._position >= position) return;
  const counts = { ...doc?.counts };
  for (const [key, delta] of deltas) {
    const value = (counts[key] ?? 0) + delta;
    if (value === 0) delete counts[key];
    else counts[key] = value;
  }
  tx.put<CounterDoc>(EQUIPMENT_COUNTERS, { tenantId, id, counts, ...(day ? { day } : {}), _position: position });
}

/** Moves a record from one bucket to another (either may be none): one write per counter document. */
async function move(tx: ProjectionTx, tenantId: string, from: Bucket | null, to: Bucket | null, position: number) {
  if (from?.counter === to?.counter && from?.key === to?.key) return;
  if (from && to && from.counter === to.counter) {
    await bump(
      tx,
      tenantId,
      from.counter,
      [
        [from.key, -1],
        [to.key, 1],
      ],
      position,
      to.day,
    );
    return;
  }
  if (from) await bump(tx, tenantId, from.counter, [[from.key, -1]], position, from.day);
  if (to) await bump(tx, tenantId, to.counter, [[to.key, 1]], position, to.day);
}

/** Folds a record's document and moves it in each counter whose bucket changed: the document is its membership. */
async function foldCounted<T extends ProjectedDoc>(
  tx: ProjectionTx,
  collection: string,
  id: string,
  event: RecordedEvent,
  fold: (doc: T | null, event: RecordedEvent) => T | null,
  bucketsOf: (doc: T | null) => (Bucket | null)[],
): Promise<void> {
  const tenantId = tenantOfStream(event.streamName);
  const peeked = tx.peek?.<T>(collection, tenantId, id);
  const current = peeked !== undefined ? peeked : await tx.get<T>(collection, tenantId, id);
  const position = Number(event.position);
  if (current && current._position >= position) return;
  const next = fold(current, event);
  if (next === current) return;
  const [was, now] = [bucketsOf(current), bucketsOf(next)];
  for (let i = 0; i < was.length; i++) await move(tx, tenantId, was[i]!, now[i]!, position);
  if (next === null) tx.delete(collection, tenantId, id);
  else tx.put(collection, next);
}

const attentionIn =
  (counter: string) =>
  (doc: { attention: string | null } | null): (Bucket | null)[] => [doc?.attention ? { counter, key: doc.attention } : null];

/** A dialyzer counts by its model's uses (reusable, assigned) and by its last TCV's whole percent (assigned). */
function dialyzerBuckets(doc: EquipmentDialyzerDoc | null): (Bucket | null)[] {
  if (!doc || doc.patientId === null) return [null, null];
  return [
    doc.reusable ? { counter: DIALYZER_USES, key: `${doc.modelKey}|${doc.uses}` } : null,
    doc.lastTcvPercent !== null ? { counter: DIALYZER_TCV, key: String(Math.floor(doc.lastTcvPercent)) } : null,
  ];
}

/** A lot with stock left counts on the day it expires. */
const lotBuckets = (doc: BalanceDoc | null): (Bucket | null)[] => [
  doc?.expiry ? { counter: `${LOT_DAY}${doc.expiry}`, key: 'lots', day: doc.expiry } : null,
];

export const DIALYZER_USES = 'dialyzer-uses';
export const DIALYZER_TCV = 'dialyzer-tcv';
export const LOT_DAY = 'lots:';

export const equipmentProjection: Projection = {
  name: EQUIPMENT_PROJECTION,
  version: 1,
  // Counters first: a failure between the two leaves the record's document behind, and the replay moves nothing twice.
  collections: {
    [EQUIPMENT_COUNTERS]: [{ keys: { tenantId: 1, day: 1, id: 1 }, name: 'by_day' }],
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
      await foldCounted<EquipmentMachineDoc>(tx, EQUIPMENT_MACHINES, id, event, foldEquipmentMachine, attentionIn('machines'));
    } else if (category === DIALYZER_CATEGORY) {
      const id = aggregateIdOfStream(event.streamName);
      await foldCounted<EquipmentDialyzerDoc>(tx, EQUIPMENT_DIALYZERS, id, event, foldEquipmentDialyzer, dialyzerBuckets);
    } else if (category === PRODUCT_CATEGORY) {
      const id = aggregateIdOfStream(event.streamName);
      const fold = (doc: EquipmentProductDoc | null, e: RecordedEvent) => foldEquipmentProduct(doc, e, false);
      await foldCounted<EquipmentProductDoc>(tx, EQUIPMENT_PRODUCTS, id, event, fold, attentionIn('products'));
    } else if (category === STOCK_CATEGORY) {
      const line = event.data as MovementLine;
      await foldCounted<BalanceDoc>(tx, EQUIPMENT_LOTS, balanceId(line), event, foldEquipmentLot, lotBuckets);
      const fold = (doc: EquipmentProductDoc | null, e: RecordedEvent) => foldEquipmentProduct(doc, e, true);
      await foldCounted<EquipmentProductDoc>(tx, EQUIPMENT_PRODUCTS, line.productId, event, fold, attentionIn('products'));
    }
  },
};
