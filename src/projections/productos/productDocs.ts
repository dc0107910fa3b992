// Documents of the Productos read model, each a pure fold of its events: products (with their total stock and whether
// it is below the minimum), warehouses, balances per (product, warehouse, lot), and the kardex (one per movement line).
import { evolveProduct, initialProductState } from '../../commands/productos/shared/productState.js';
import {
  CORRECTABLE_PRODUCT_FIELDS,
  productValueKey,
  type ProductEvent,
  type ProductFields,
  type WarehouseFields,
} from '../../commands/productos/productEvents.js';
import type { MovementLine, StockEvent } from '../../commands/productos/stockEvents.js';
import { lotKey, round3 } from '../../commands/productos/shared/stockState.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type ProductDoc = ProjectedDoc &
  ProductFields & {
    active: boolean;
    /** Units in every warehouse of the company. */
    stock: number;
    belowMinimum: boolean;
    revision: number;
    codeKey: string;
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
  };

export function foldProduct(doc: ProductDoc | null, recorded: RecordedEvent): ProductDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as ProductEvent;
  if (!doc && event.type !== 'ProductCreated') return null;
  const state = doc ? { exists: true, active: doc.active, fields: fieldsOf(doc) } : initialProductState;
  const next = evolveProduct(state, event);
  if (!next.fields) return doc;
  const stock = doc?.stock ?? 0;
  const base = doc
    ? { tenantId: doc.tenantId, id: doc.id, createdAt: doc.createdAt, createdBy: doc.createdBy }
    : {
        tenantId: tenantOfStream(recorded.streamName),
        id: aggregateIdOfStream(recorded.streamName),
        createdAt: recorded.metadata.occurredAt,
        createdBy: recorded.metadata.actor,
      };
  return {
    ...base,
    ...next.fields,
    active: next.active,
    stock,
    belowMinimum: stock < next.fields.minimumStock,
    revision: recorded.revision,
    codeKey: productValueKey(next.fields.code),
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
}

function fieldsOf(doc: ProductDoc): ProductFields {
  const fields: Record<string, unknown> = {};
  // Every field of a product is correctable: the contract's list names them all.
  for (const name of CORRECTABLE_PRODUCT_FIELDS)
    if (doc[name as keyof ProductDoc] !== undefined) fields[name] = doc[name as keyof ProductDoc];
  return fields as unknown as ProductFields;
}

/** A stock movement line changes the product's total (the ETag revision stays the product stream's). */
export function foldProductStock(doc: ProductDoc | null, recorded: RecordedEvent): ProductDoc | null {
  if (!doc) return null;
  const stock = round3(doc.stock + (recorded.data as MovementLine).quantity);
  return { ...doc, stock, belowMinimum: stock < doc.minimumStock, _position: Number(recorded.position) };
}

export function productView(doc: ProductDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, codeKey: _k, ...view } = doc;
  return view;
}

export type WarehouseDoc = ProjectedDoc & WarehouseFields & { codeKey: string; createdAt: string; createdBy: string };

export function foldWarehouse(doc: WarehouseDoc | null, recorded: RecordedEvent): WarehouseDoc | null {
  if (doc) return doc;
  const { warehouseId, ...fields } = recorded.data as WarehouseFields & { warehouseId: string };
  return {
    tenantId: tenantOfStream(recorded.streamName),
    id: warehouseId,
    ...fields,
    codeKey: productValueKey(fields.code),
    createdAt: recorded.metadata.occurredAt,
    createdBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
}

export const warehouseView = (doc: WarehouseDoc): Record<string, unknown> => {
  const { tenantId: _t, _position, _changedAt: _changed, codeKey: _k, ...view } = doc;
  return view;
};

export type BalanceDoc = ProjectedDoc & {
  productId: string;
  warehouseId: string;
  lot: string | null;
  expiry: string | null;
  quantity: number;
  updatedAt: string;
};

export const balanceId = (line: MovementLine): string => `${line.productId}_${line.warehouseId}_${lotKey(line.lot)}`;

export function foldBalance(_doc: BalanceDoc | null, recorded: RecordedEvent): BalanceDoc {
  const line = recorded.data as MovementLine;
  return {
    tenantId: tenantOfStream(recorded.streamName),
    id: balanceId(line),
    productId: line.productId,
    warehouseId: line.warehouseId,
    lot: line.lot,
    expiry: line.expiry,
    quantity: line.lotBalanceAfter,
    updatedAt: recorded.metadata.occurredAt,
    _position: Number(recorded.position),
  };
}

export type KardexDoc = ProjectedDoc &
  MovementLine & {
    type: StockEvent['type'];
    /** Global position: the order of the ledger. */
    seq: number;
    at: string;
    actor: string;
    reason: string | null;
    /** What the movement refers to: supplier and document, session or patient, the other warehouse, the write-off kind. */
    details: Record<string, unknown>;
  };

export function kardexDoc(recorded: RecordedEvent): KardexDoc {
  const { movementId, productId, warehouseId, lot, expiry, quantity, lotBalanceAfter, balanceAfter, reason, ...rest } =
    recorded.data as MovementLine & { reason?: string };
  const { costPerUnit, valueAfter, ...details } = rest;
  return {
    tenantId: tenantOfStream(recorded.streamName),
    id: recorded.id,
    type: recorded.type as StockEvent['type'],
    movementId,
    productId,
    warehouseId,
    lot,
    expiry,
    quantity,
    lotBalanceAfter,
    balanceAfter,
    // Lines recorded before the kardex was valued have no cost.
    ...(costPerUnit !== undefined ? { costPerUnit, valueAfter } : {}),
    seq: Number(recorded.position),
    at: recorded.metadata.occurredAt,
    actor: recorded.metadata.actor,
    reason: reason ?? recorded.metadata.reason ?? null,
    details,
    _position: Number(recorded.position),
  };
}

export const kardexView = (doc: KardexDoc): Record<string, unknown> => {
  const { tenantId: _t, _position, _changedAt: _changed, seq: _s, ...view } = doc;
  return view;
};
