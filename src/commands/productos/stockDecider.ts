// Every rule of the kardex: no balance below zero per lot, no issue of an expired lot, lot and expiry on receipt when
// tracked, FEFO when an issue names no lot. Pure: the product's flags and the company's day come in with the command.
import type { Decider } from '../decider.js';
import { rule } from '../decider.js';
import { FieldChecks, isRealDate } from '../shared/fieldChecks.js';
import { lotExpiryConflict } from './lotDecider.js';
import type { LotPortion, MovementLine, StockCommand, StockEvent, StockFacts } from './stockEvents.js';
import { STOCK_CATEGORY } from './stockEvents.js';
import {
  averageCost,
  evolveStock,
  fefoLots,
  initialStockState,
  isExpired,
  lotKey,
  round2,
  round3,
  round4,
  type StockState,
} from './shared/stockState.js';

type Target = Pick<MovementLine, 'movementId' | 'productId' | 'warehouseId'>;

const insufficient = (available: number, lot: string | null): Error =>
  rule('insufficient-stock', `only ${available} in stock${lot ? ` of lot ${lot}` : ''}`, { available, lot });

const prescriptionNeedsPatient = (): Error =>
  rule('prescription-needs-patient', 'a prescription drug is issued to a patient or to a session, never as plain consumption', {
    errors: [{ field: 'patientId', message: 'is required: the product is a prescription drug' }],
  });

/** A write-off for expiry is for an expired lot: anything else is a loss (or still to be issued, FEFO first). */
const lotNotExpired = (p: LotPortion): Error =>
  rule('lot-not-expired', p.expiry ? `lot ${p.lot} expires on ${p.expiry}: not expired yet` : `lot ${p.lot} has no expiry`, {
    lot: p.lot,
    expiry: p.expiry,
    errors: [{ field: 'kind', message: 'expiry is for an expired lot; write off a damaged or lost one as loss' }],
  });

/**
 * The movement's lines with the balances and value each leaves, applied in order. Units leave at the warehouse's
 * average cost and come in at the portion's own cost (else at the average).
 */
function lines(state: StockState, target: Target, portions: LotPortion[], sign: 1 | -1): MovementLine[] {
  let current = state;
  return portions.map((p) => {
    const quantity = round3(sign * p.quantity);
    const lotBalanceAfter = round3((current.lots[lotKey(p.lot)]?.quantity ?? 0) + quantity);
    const balanceAfter = round3(current.balance + quantity);
    const costPerUnit = round4(sign < 0 ? averageCost(current) : (p.costPerUnit ?? averageCost(current)));
    const valueAfter = balanceAfter === 0 ? 0 : round2(current.value + quantity * costPerUnit);
    const line = { ...target, lot: p.lot, expiry: p.expiry, quantity, lotBalanceAfter, balanceAfter, costPerUnit, valueAfter };
    current = evolveStock(current, { type: 'StockAdjusted', data: { ...line, reason: '' } });
    return line;
  });
}

/** More than 0, and whole when the product is counted in units (half a vial is not stock). */
function checkQuantity(facts: Pick<StockFacts, 'product'>, quantity: number, field = 'quantity'): void {
  new FieldChecks()
    .check(Number.isFinite(quantity) && quantity > 0, field, 'must be more than 0')
    .check(!facts.product.countable || Number.isInteger(quantity), field, 'must be a whole number: the product is counted in units')
    .throwIfAny();
}

/** The lot a movement names, checked against the product's tracking (422 naming `lot`). */
function lotOf(facts: StockFacts, lot: string | undefined, required: boolean): string | null {
  const named = lot?.trim() ? lot.trim() : null;
  const checks = new FieldChecks();
  if (!facts.product.lotTracked) checks.check(named === null, 'lot', 'the product is not lot-tracked');
  else checks.check(!required || named !== null, 'lot', 'is required: the product is lot-tracked');
  checks.throwIfAny();
  return named;
}

/**
 * The portions an outgoing movement takes. A named lot (or the single balance of an untracked product) must hold the
 * quantity; without a lot, FEFO: the earliest-expiring lots that are not expired, in that order.
 */
export function portionsOut(
  state: StockState,
  facts: StockFacts,
  quantity: number,
  lot: string | undefined,
  options: { allowExpired: boolean; requireLot: boolean },
): { portions: LotPortion[]; fefo: boolean } {
  checkQuantity(facts, quantity);
  const named = lotOf(facts, lot, options.requireLot);
  if (!facts.product.lotTracked || named !== null) {
    const held = state.lots[lotKey(named)] ?? { lot: named, expiry: null, quantity: 0 };
    if (!options.allowExpired && isExpired(held.expiry, facts.today)) {
      throw rule('lot-expired', `lot ${named} expired on ${held.expiry}`, { lot: named, expiry: held.expiry });
    }
    if (held.quantity < quantity) throw insufficient(held.quantity, named);
    return { portions: [{ lot: named, expiry: held.expiry, quantity }], fefo: false };
  }
  const usable = fefoLots(Object.values(state.lots), facts.today);
  const available = round3(usable.reduce((sum, l) => sum + l.quantity, 0));
  if (available < quantity) throw insufficient(available, null);
  const portions: LotPortion[] = [];
  let left = quantity;
  for (const l of usable) {
    if (left <= 0) break;
    const take = Math.min(left, l.quantity);
    portions.push({ lot: l.lot, expiry: l.expiry, quantity: take });
    left = round3(left - take);
  }
  return { portions, fefo: true };
}

/** An incoming lot: lot and expiry when tracked, a real expiry, and one expiry per lot in every warehouse. */
function portionIn(
  state: StockState,
  facts: StockFacts,
  quantity: number,
  lot: string | undefined,
  expiry: string | undefined,
): LotPortion {
  checkQuantity(facts, quantity);
  const named = lotOf(facts, lot, true);
  // The lot's expiry as this warehouse holds it, else as the company recorded it: a stated one must be the same.
  const held = state.lots[lotKey(named)]?.expiry ?? facts.lotExpiry ?? null;
  const checks = new FieldChecks();
  if (!facts.product.expiryTracked) checks.check(expiry === undefined, 'expiry', 'the product is not expiry-tracked');
  else if (held === null) checks.check(expiry !== undefined, 'expiry', 'is required: the product is expiry-tracked');
  if (expiry !== undefined) checks.check(isRealDate(expiry), 'expiry', 'is not a real date');
  checks.throwIfAny();
  if (expiry !== undefined && held !== null && held !== expiry) throw lotExpiryConflict(named, held);
  return { lot: named, expiry: expiry ?? held, quantity };
}

/** A receipt's stated unit cost; else the average of what the warehouse holds; else the catalogue cost. */
const incomingCost = (state: StockState, facts: StockFacts, stated?: number): number =>
  stated ?? (state.balance > 0 ? averageCost(state) : (facts.product.cost ?? 0));

function decideIn(command: Extract<StockCommand, { type: 'ReceiveStock' | 'AdjustStock' }>, state: StockState): StockEvent[] {
  const { movementId, productId, warehouseId } = command.data;
  const target = { movementId, productId, warehouseId };
  if (command.type === 'AdjustStock') {
    const { quantity, lot, expiry, reason } = command.data;
    new FieldChecks()
      .check(quantity !== 0, 'quantity', 'must not be 0')
      .check(
        !command.data.product.countable || Number.isInteger(quantity),
        'quantity',
        'must be a whole number: the product is counted in units',
      )
      .check(reason.trim() !== '', 'reason', 'must not be blank')
      .throwIfAny();
    const portions =
      quantity > 0
        ? [{ ...portionIn(state, command.data, quantity, lot, expiry), costPerUnit: incomingCost(state, command.data) }]
        : portionsOut(state, command.data, -quantity, lot, { allowExpired: true, requireLot: true }).portions;
    return lines(state, target, portions, quantity > 0 ? 1 : -1).map((l) => ({
      type: 'StockAdjusted',
      data: { ...l, reason: reason.trim() },
    }));
  }
  const { quantity, lot, expiry, supplier, documentNumber, unitCost } = command.data;
  if (!command.data.product.active) throw rule('product-inactive', 'a deactivated product receives no stock');
  const portion = {
    ...portionIn(state, command.data, quantity, lot, expiry),
    costPerUnit: incomingCost(state, command.data, unitCost?.amount),
  };
  new FieldChecks()
    .check(portion.expiry === null || !isExpired(portion.expiry, command.data.today), 'expiry', 'the lot is already expired')
    .check(supplier.trim() !== '', 'supplier', 'must not be blank')
    .check(documentNumber.trim() !== '', 'documentNumber', 'must not be blank')
    .throwIfAny();
  const extra = { supplier: supplier.trim(), documentNumber: documentNumber.trim(), ...(unitCost ? { unitCost } : {}) };
  return lines(state, target, [portion], 1).map((l) => ({ type: 'StockReceived', data: { ...l, ...extra } }));
}

export function decideStock(command: StockCommand, state: StockState): StockEvent[] {
  const { movementId, productId, warehouseId } = command.data;
  const target = { movementId, productId, warehouseId };
  switch (command.type) {
    case 'ReceiveStock':
    case 'AdjustStock':
      return decideIn(command, state);
    case 'IssueStock': {
      const { quantity, lot, reference, reason, equipment } = command.data;
      if (command.data.product.prescriptionDrug && reference.kind === 'consumption') throw prescriptionNeedsPatient();
      const { portions, fefo } = portionsOut(state, command.data, quantity, lot, { allowExpired: false, requireLot: false });
      const extra = { reference, ...(reason?.trim() ? { reason: reason.trim() } : {}), fefo, ...(equipment ? { equipment } : {}) };
      return lines(state, target, portions, -1).map((l) => ({ type: 'StockIssued', data: { ...l, ...extra } }));
    }
    case 'TransferStockOut': {
      const { quantity, lot, toWarehouseId } = command.data;
      if (toWarehouseId === warehouseId) new FieldChecks().check(false, 'toWarehouseId', 'is the same warehouse').throwIfAny();
      const { portions, fefo } = portionsOut(state, command.data, quantity, lot, { allowExpired: false, requireLot: false });
      return lines(state, target, portions, -1).map((l) => ({ type: 'StockTransferredOut', data: { ...l, toWarehouseId, fefo } }));
    }
    case 'TransferStockIn':
      // The units keep the lot's expiry: a warehouse holding the lot with another date refuses them (never rewrites it).
      for (const p of command.data.portions) {
        const held = state.lots[lotKey(p.lot)];
        if (held && held.expiry !== p.expiry) throw lotExpiryConflict(p.lot, held.expiry, 'lot');
      }
      return lines(state, target, command.data.portions, 1).map((l) => ({
        type: 'StockTransferredIn',
        data: { ...l, fromWarehouseId: command.data.fromWarehouseId },
      }));
    case 'RevertTransferOut': {
      const { toWarehouseId, reason } = command.data;
      return lines(state, target, command.data.portions, 1).map((l) => ({
        type: 'StockTransferReverted',
        data: { ...l, toWarehouseId, reason },
      }));
    }
    case 'RevertIssue':
      return lines(state, target, command.data.portions, 1).map((l) => ({
        type: 'StockIssueReverted',
        data: { ...l, reason: command.data.reason },
      }));
    case 'WriteOffStock': {
      const { kind, quantity, lot, reason } = command.data;
      new FieldChecks().check(reason.trim() !== '', 'reason', 'must not be blank').throwIfAny();
      const { portions } = portionsOut(state, command.data, quantity, lot, { allowExpired: true, requireLot: true });
      const notExpired = portions.find((p) => !isExpired(p.expiry, command.data.today));
      if (kind === 'expiry' && notExpired) throw lotNotExpired(notExpired);
      return lines(state, target, portions, -1).map((l) => ({ type: 'StockWrittenOff', data: { ...l, kind, reason: reason.trim() } }));
    }
  }
}

export const stockDecider: Decider<StockCommand, StockEvent, StockState> = {
  category: STOCK_CATEGORY,
  initialState: initialStockState,
  evolve: evolveStock,
  decide: decideStock,
};
