// The balance of one product in one warehouse, per lot, as its movements leave it; and the FEFO order of its lots.
import type { LotPortion, StockEvent } from '../stockEvents.js';

export interface StockState {
  /** Per lot key (the lot, or '' for a product that is not lot-tracked). */
  lots: Record<string, LotPortion>;
  balance: number;
  /** What the warehouse's units are worth at their weighted average cost. */
  value: number;
}

export const initialStockState: StockState = { lots: {}, balance: 0, value: 0 };

export const lotKey = (lot: string | null | undefined): string => lot ?? '';
/** Quantities keep three decimals (litres of concentrate): no binary drift in balances. */
export const round3 = (n: number): number => Math.round(n * 1000) / 1000;

export function evolveStock(state: StockState, event: StockEvent): StockState {
  const { lot, expiry, lotBalanceAfter, balanceAfter, valueAfter } = event.data;
  const lots = { ...state.lots, [lotKey(lot)]: { lot, expiry, quantity: lotBalanceAfter } };
  return { lots, balance: balanceAfter, value: valueAfter ?? state.value };
}

/** Money keeps cents, a unit cost four decimals. */
export const round2 = (n: number): number => Math.round(n * 100) / 100;
export const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/** The weighted average cost of a unit in the warehouse (0 while it holds none). */
export const averageCost = (state: StockState): number => (state.balance > 0 ? round4(state.value / state.balance) : 0);

/** A lot is expired when its expiry is before the movement's day (it may still be used on its expiry date). */
export const isExpired = (expiry: string | null, today: string): boolean => expiry !== null && expiry < today;

/** Lots with stock that may still be issued, earliest expiry first (no expiry last, then by lot). */
export function fefoLots(lots: readonly LotPortion[], today: string): LotPortion[] {
  return lots
    .filter((l) => l.quantity > 0 && !isExpired(l.expiry, today))
    .sort((x, y) => (x.expiry ?? '9999').localeCompare(y.expiry ?? '9999') || (x.lot ?? '').localeCompare(y.lot ?? ''));
}
