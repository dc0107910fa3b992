// Rules of a payer's contracts shared by the decider and the read side: the last day a contract is in force, overlaps
// of one service, the contract in force on a date, and exact money on decimal strings.
import type { Contract } from '../clientEvents.js';

/** A contract terminated before it started never was in force: its last day is before its first. */
export function lastDayOf(c: Pick<Contract, 'validTo' | 'terminatedOn'>): string | null {
  if (c.terminatedOn !== undefined && (c.validTo === undefined || c.terminatedOn < c.validTo)) return c.terminatedOn;
  return c.validTo ?? null;
}

export const inForceOn = (c: Contract, date: string): boolean => {
  const last = lastDayOf(c);
  return c.validFrom <= date && (last === null || date <= last);
};

/** Two validity periods share at least one day (null: open-ended). */
export function periodsOverlap(aFrom: string, aTo: string | null, bFrom: string, bTo: string | null): boolean {
  return (aTo === null || bFrom <= aTo) && (bTo === null || aFrom <= bTo);
}

/** The contracts of the same service whose validity shares a day with the period. */
export function overlapping(contracts: readonly Contract[], serviceCode: string, from: string, to: string | null): Contract[] {
  const key = serviceKey(serviceCode);
  return contracts.filter((c) => {
    const last = lastDayOf(c);
    if (serviceKey(c.serviceCode) !== key || (last !== null && last < c.validFrom)) return false;
    return periodsOverlap(c.validFrom, last, from, to);
  });
}

export const serviceKey = (code: string): string => code.normalize('NFKC').trim().toUpperCase();

/**
 * The contract in force on a date: of the service when given (at most one, the decider keeps them apart), else the
 * first by service code of those in force.
 */
export function contractInForceOn(contracts: readonly Contract[], date: string, serviceCode?: string): Contract | null {
  const candidates = contracts
    .filter((c) => inForceOn(c, date) && (serviceCode === undefined || serviceKey(c.serviceCode) === serviceKey(serviceCode)))
    .sort((a, b) => serviceKey(a.serviceCode).localeCompare(serviceKey(b.serviceCode)));
  return candidates[0] ?? null;
}

/** Minor units of an ISO 4217 currency (PEN 2, CLP 0, KWD 3); null for an unknown code. */
export function minorUnitsOf(currency: string): number | null {
  if (!Intl.supportedValuesOf('currency').includes(currency)) return null;
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** The decimal amount times a count, exact (the monthly payer report multiplies a rate by the sessions). */
export function amountTimes(amount: string, count: number): string {
  const [units = '0', decimals = ''] = amount.split('.');
  const scaled = BigInt(units + decimals) * BigInt(count);
  if (decimals.length === 0) return scaled.toString();
  const digits = scaled.toString().padStart(decimals.length + 1, '0');
  return `${digits.slice(0, -decimals.length)}.${digits.slice(-decimals.length)}`;
}
