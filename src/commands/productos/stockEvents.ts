// The stock of one product in one warehouse (stream `<tenant>.stock-<productId>_<warehouseId>`): every movement of the
// kardex is one of these events, carrying the balance it leaves (per lot and in total) so the ledger is a plain copy.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import type { LineType } from '../lineas/bloodlineEvents.js';
import type { Money } from './productEvents.js';

/** The category of the stock (one per product and warehouse) streams: written once, here (the decider, the writes and the read side take it). */
export const STOCK_CATEGORY = 'stock';

/** What the orchestration found about the product, and the company's calendar day of the movement. */
export interface StockFacts {
  product: {
    active: boolean;
    lotTracked: boolean;
    expiryTracked: boolean;
    /** A prescription drug is issued to a patient (or a patient's session), never as plain consumption. */
    prescriptionDrug?: boolean;
    /** Counted in whole units (vials, boxes...), not measured (litres): quantities are integers. */
    countable?: boolean;
    /** The catalogue cost per unit: what a receipt without a unit cost is valued at while the warehouse holds none. */
    cost?: number;
  };
  today: string;
  /** The company-wide expiry of the lot the movement names (lotDecider.ts); absent while no warehouse held it. */
  lotExpiry?: string | null;
}

export type IssueReference = { kind: 'session'; sessionId: string } | { kind: 'patient'; patientId: string } | { kind: 'consumption' };

export const WRITE_OFF_KINDS = ['loss', 'expiry'] as const;
export type WriteOffKind = (typeof WRITE_OFF_KINDS)[number];

/** The serialized item a reusable dialyzer or bloodline issued to a patient becomes (the model is the product's name). */
export interface EquipmentInput {
  serial: string;
  surfaceM2?: number;
  flux?: 'low' | 'high';
  membrane?: string;
  baselineTcvMl?: number;
  lineType?: LineType;
  primingVolumeMl?: number;
}

/** A quantity of one lot (lot null: a product that is not lot-tracked). */
export interface LotPortion {
  lot: string | null;
  expiry: string | null;
  quantity: number;
  /** What each unit is valued at (a transfer and a give-back carry the cost they left with). */
  costPerUnit?: number;
}

type Target = {
  movementId: string;
  productId: string;
  warehouseId: string;
};

export type StockCommand =
  | CommandEnvelope<
      'ReceiveStock',
      Target & StockFacts & { quantity: number; lot?: string; expiry?: string; supplier: string; documentNumber: string; unitCost?: Money }
    >
  | CommandEnvelope<
      'IssueStock',
      Target & StockFacts & { quantity: number; lot?: string; reference: IssueReference; reason?: string; equipment?: EquipmentInput }
    >
  | CommandEnvelope<'TransferStockOut', Target & StockFacts & { quantity: number; lot?: string; toWarehouseId: string }>
  | CommandEnvelope<'TransferStockIn', Target & { fromWarehouseId: string; portions: LotPortion[] }>
  | CommandEnvelope<'RevertTransferOut', Target & { toWarehouseId: string; portions: LotPortion[]; reason: string }>
  | CommandEnvelope<'RevertIssue', Target & { portions: LotPortion[]; reason: string }>
  | CommandEnvelope<'AdjustStock', Target & StockFacts & { quantity: number; lot?: string; expiry?: string; reason: string }>
  | CommandEnvelope<'WriteOffStock', Target & StockFacts & { kind: WriteOffKind; quantity: number; lot?: string; reason: string }>;

/** One line of the kardex: `quantity` is signed (in > 0, out < 0); balances are after it. */
export type MovementLine = Target & {
  lot: string | null;
  expiry: string | null;
  quantity: number;
  lotBalanceAfter: number;
  balanceAfter: number;
  /** Valuation (weighted average cost per warehouse): the unit cost of the line and the warehouse's stock value after it. */
  costPerUnit?: number;
  valueAfter?: number;
};

export type StockEvent =
  | DecidedEvent<'StockReceived', MovementLine & { supplier: string; documentNumber: string; unitCost?: Money }>
  /** With `equipment`, the intent of a serialized issue: the item is created from it (by the request or after a crash). */
  | DecidedEvent<'StockIssued', MovementLine & { reference: IssueReference; reason?: string; fefo: boolean; equipment?: EquipmentInput }>
  | DecidedEvent<'StockTransferredOut', MovementLine & { toWarehouseId: string; fefo: boolean }>
  | DecidedEvent<'StockTransferredIn', MovementLine & { fromWarehouseId: string }>
  /** Compensation: the destination refused the transfer, the source takes its units back. */
  | DecidedEvent<'StockTransferReverted', MovementLine & { toWarehouseId: string; reason: string }>
  /** Compensation: what was issued came back (its consequence elsewhere was refused). */
  | DecidedEvent<'StockIssueReverted', MovementLine & { reason: string }>
  | DecidedEvent<'StockAdjusted', MovementLine & { reason: string }>
  | DecidedEvent<'StockWrittenOff', MovementLine & { kind: WriteOffKind; reason: string }>;

export const STOCK_EVENT_TYPES: readonly StockEvent['type'][] = [
  'StockReceived',
  'StockIssued',
  'StockTransferredOut',
  'StockTransferredIn',
  'StockTransferReverted',
  'StockIssueReverted',
  'StockAdjusted',
  'StockWrittenOff',
];

/** Stream id of the stock of a product in a warehouse. */
export const stockId = (productId: string, warehouseId: string): string => `${productId}_${warehouseId}`;
