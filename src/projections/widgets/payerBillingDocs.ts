// The month's billing per payer, kept incrementally: each session remembers the (payer, currency, amount, flagged)
// buckets it counts in (a membership document), and a change moves it from one bucket to another in the per-(month,
// payer) counters. Same rules as the monthly payer report: paid by paidByPayer, covered on the session date, the rate
// of the contract in force that day, flagged (kept out of the amount due) when unsigned or lacking a required unit.
import type { Contract } from '../../commands/clientes/clientEvents.js';
import type { SessionEvent } from '../../commands/dialisis/session/sessionEvents.js';
import type { CoverageEntry } from '../../commands/pacientes/patientTypes.js';
import { contractInForceOn } from '../../commands/clientes/shared/contractRules.js';
import { isSigned, paidByPayer } from '../../commands/clientes/shared/payerBilling.js';
import type { ProjectedDoc } from '../runner/projection.js';

export type BilledSessionDoc = ProjectedDoc & {
  patientId: string;
  date: string;
  status: string;
  minutes: number | null;
  interrupted: boolean;
  /** A payer authorization holds or consumed a unit for it. */
  authorized: boolean;
  /** Buckets it counts in, `clientId\tcurrency\tamount\tflagged` (currency and amount empty without a contract). */
  buckets: string[];
};

export type CoverageDoc = ProjectedDoc & {
  coverages: Pick<CoverageEntry, 'clientId' | 'validFrom' | 'validTo'>[];
  /** The patient's latest sessions (at most RECENT_SESSIONS): a coverage added later bills them again. */
  sessions?: string[];
};

/** How many of a patient's latest sessions a later coverage reaches (two years of thrice-weekly sessions and more). */
export const RECENT_SESSIONS = 400;

export type Totals = { sessions: number; amount: string };
export type BillingMonthDoc = ProjectedDoc & {
  month: string;
  clientId: string;
  /** Every paid, covered session of the month (the report's `sessions`). */
  sessions: number;
  /** Per currency: due (signed and authorized as the contract requires) and flagged (kept out of the amount due). */
  due: Record<string, Totals>;
  flagged: Record<string, Totals>;
};

/** What a session event changes on the membership document (null: nothing the bill reads, e.g. check-in or start). */
export function sessionChange(event: SessionEvent): Partial<BilledSessionDoc> | null {
  switch (event.type) {
    case 'SessionEnded':
      return { status: 'ended', minutes: event.data.effectiveMinutes };
    case 'SessionInterrupted':
      return { status: 'interrupted', minutes: event.data.effectiveMinutes, interrupted: true };
    case 'SessionCancelled':
      return { status: 'cancelled' };
    case 'SessionMarkedNoShow':
      return { status: 'no-show' };
    case 'SessionSignedByNurse':
      return { status: 'signed' };
    case 'SessionValidatedByPhysician':
      return { status: 'validated' };
    case 'SessionAmended': {
      const { block, effectiveMinutes, returnsToValidation } = event.data;
      const minutes = block === 'times' && effectiveMinutes !== undefined ? { minutes: effectiveMinutes } : {};
      return { ...minutes, ...(returnsToValidation ? { status: 'signed' } : {}) };
    }
    default:
      return null;
  }
}

/** The buckets a session counts in given the patient's coverages and the payers' contracts (by client id). */
export function bucketsOf(
  s: Pick<BilledSessionDoc, 'date' | 'status' | 'minutes' | 'interrupted' | 'authorized'>,
  coverages: CoverageDoc['coverages'],
  contractsOf: (clientId: string) => readonly Contract[],
): string[] {
  if (!paidByPayer(s.status, s.minutes, s.interrupted)) return [];
  const buckets: string[] = [];
  for (const c of coverages) {
    if (!c.clientId || c.validFrom > s.date || (c.validTo !== undefined && s.date > c.validTo)) continue;
    const contract = contractInForceOn(contractsOf(c.clientId), s.date);
    const flagged = !isSigned(s.status) || (contract?.authorizationRequired === true && !s.authorized);
    const bucket = `${c.clientId}\t${contract?.rate.currency ?? ''}\t${contract?.rate.amount ?? ''}\t${flagged ? 1 : 0}`;
    if (!buckets.includes(bucket)) buckets.push(bucket);
  }
  return buckets;
}

/** Decimal strings added or subtracted exactly ("350.00" - "12.5"). */
export function addAmount(a: string, b: string, sign: 1 | -1): string {
  const places = Math.max((a.split('.')[1] ?? '').length, (b.split('.')[1] ?? '').length);
  const scaled = (x: string): bigint => {
    const negative = x.startsWith('-');
    const [units = '0', decimals = ''] = (negative ? x.slice(1) : x).split('.');
    const value = BigInt(units + decimals.padEnd(places, '0'));
    return negative ? -value : value;
  };
  const sum = scaled(a) + BigInt(sign) * scaled(b);
  const negative = sum < 0n;
  const digits = (negative ? -sum : sum).toString().padStart(places + 1, '0');
  const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return negative ? `-${text}` : text;
}

/** The counter document of (month, payer) with one bucket added (sign 1) or taken away (sign -1). */
export function countBucket(doc: BillingMonthDoc, bucket: string, sign: 1 | -1): BillingMonthDoc {
  const [, currency = '', amount = '', flagged] = bucket.split('\t');
  const next = { ...doc, sessions: doc.sessions + sign };
  if (currency === '') return next;
  const key = flagged === '1' ? 'flagged' : 'due';
  const was = doc[key][currency] ?? { sessions: 0, amount: '0' };
  const now = { sessions: was.sessions + sign, amount: addAmount(was.amount, amount, sign) };
  const totals = { ...doc[key] };
  if (now.sessions === 0) delete totals[currency];
  else totals[currency] = now;
  return { ...next, [key]: totals };
}

export const billingMonthId = (month: string, clientId: string): string => `${month}|${clientId}`;
