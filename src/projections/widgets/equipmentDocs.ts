// The equipment widgets' documents, each a pure fold reusing the groups' own folds: machines (with the maintenance basis
// and the attention state they count in), dialyzers in service, products (below minimum) and lots with stock left.
import { foldMachine, type MachineDoc } from '../monitores/machineDoc.js';
import { foldProduct, foldProductStock, foldBalance, type BalanceDoc, type ProductDoc } from '../productos/productDocs.js';
import type { DialyzerEvent } from '../../commands/filtros-dialisis/dialyzerEvents.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

/** A model as the policy's model plans and reuse limits compare it (startRules planFor, reusePolicy maxUsesFor). */
export const modelKeyOf = (model: string): string => model.normalize('NFKC').trim().toLowerCase();

/** The attention state a machine counts in: a per-company counter per state, moved when the machine's state moves. */
export type MachineAttention = 'awaiting-disinfection' | 'out-of-service' | null;

export type EquipmentMachineDoc = MachineDoc & {
  modelKey: string;
  /** Operating hours since the last preventive maintenance (the plan's hours run out at its everyHours). */
  hoursSincePm: number;
  attention: MachineAttention;
};

/** Out of service: taken out (a failed calibration, a repair's tests) or under corrective maintenance. */
export function machineAttention(status: MachineDoc['status']): MachineAttention {
  if (status === 'awaiting-disinfection') return 'awaiting-disinfection';
  if (status === 'out-of-service' || status === 'corrective-maintenance') return 'out-of-service';
  return null;
}

export function foldEquipmentMachine(doc: EquipmentMachineDoc | null, recorded: RecordedEvent): EquipmentMachineDoc | null {
  const next = foldMachine(doc, recorded) as EquipmentMachineDoc | null;
  if (next === null || next === doc) return next;
  next.modelKey = modelKeyOf(next.model);
  next.hoursSincePm = Math.round((next.hourMeter - next.pmBaseHours) * 100) / 100;
  next.attention = machineAttention(next.status);
  return next;
}

/** A dialyzer in service: what the reuse alerts read (readyForUse alertsOf). Discarded ones are deleted. */
export type EquipmentDialyzerDoc = ProjectedDoc & {
  serial: string;
  model: string;
  modelKey: string;
  reusable: boolean;
  patientId: string | null;
  uses: number;
  lastTcvPercent: number | null;
};

export function foldEquipmentDialyzer(doc: EquipmentDialyzerDoc | null, recorded: RecordedEvent): EquipmentDialyzerDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as DialyzerEvent;
  const _position = Number(recorded.position);
  if (event.type === 'DialyzerReceived') {
    if (doc) return doc;
    const { serial, model, reusable } = event.data;
    const tenantId = tenantOfStream(recorded.streamName);
    const id = aggregateIdOfStream(recorded.streamName);
    return {
      tenantId,
      id,
      serial,
      model,
      modelKey: modelKeyOf(model),
      reusable,
      patientId: null,
      uses: 0,
      lastTcvPercent: null,
      _position,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'DialyzerAssignedToPatient':
      return { ...doc, patientId: event.data.patientId, _position };
    case 'DialyzerReprocessed':
      return { ...doc, lastTcvPercent: event.data.tcvPercent, _position };
    case 'DialyzerUsed':
      return { ...doc, uses: event.data.useNumber, _position };
    case 'DialyzerDiscarded':
      return null;
    default:
      return doc;
  }
}

export type ProductAttention = 'below-minimum' | null;
export type EquipmentProductDoc = ProductDoc & { attention: ProductAttention };

const productAttention = (doc: ProductDoc): ProductAttention => (doc.active && doc.belowMinimum ? 'below-minimum' : null);

/** The product as Productos folds it (its total stock, whether below its minimum), with the state it counts in. */
export function foldEquipmentProduct(doc: EquipmentProductDoc | null, recorded: RecordedEvent, stock: boolean): EquipmentProductDoc | null {
  const next = (stock ? foldProductStock(doc, recorded) : foldProduct(doc, recorded)) as EquipmentProductDoc | null;
  if (next === null || next === doc) return next;
  next.attention = productAttention(next);
  return next;
}

/** A lot with stock left and an expiry (Productos' balance per product, warehouse and lot); others are deleted. */
export function foldEquipmentLot(_doc: BalanceDoc | null, recorded: RecordedEvent): BalanceDoc | null {
  const next = foldBalance(null, recorded);
  return next.quantity > 0 && next.expiry !== null ? next : null;
}
