// Peru's RUC, Argentina's CUIT, Colombia's NIT and Chile's RUT: digits closed by a modulo-11 check digit.
// Each takes the number as typed (upper-cased) and answers its canonical form.
import { compactTaxId, refused, weightedSum, type NumberCheck } from './taxIdCheck.js';

const RUC_PREFIXES = ['10', '15', '17', '20'];
const RUC_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** SUNAT: 11 digits; check = 11 - (sum mod 11), where 10 becomes 0 and 11 becomes 1. Canonical: `20131312955`. */
export function checkPeruRuc(typed: string): NumberCheck {
  const compact = compactTaxId(typed);
  if (!/^\d+$/.test(compact)) return refused('invalid-characters');
  if (compact.length !== 11) return refused('invalid-length');
  if (!RUC_PREFIXES.includes(compact.slice(0, 2))) return refused('invalid-prefix');
  const check = (11 - (weightedSum(compact, RUC_WEIGHTS) % 11)) % 10;
  return check === Number(compact[10]) ? { ok: true, normalized: compact } : refused('invalid-check-digit');
}

const CUIT_PREFIXES = ['20', '23', '24', '27', '30', '33', '34'];
const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/**
 * AFIP: 11 digits; check = 11 - (sum mod 11), where 11 becomes 0 and 10 is never issued (AFIP changes the prefix to
 * 23 or 33 instead). Canonical: `30-50001091-2`, as AFIP prints it.
 */
export function checkArgentinaCuit(typed: string): NumberCheck {
  const compact = compactTaxId(typed);
  if (!/^\d+$/.test(compact)) return refused('invalid-characters');
  if (compact.length !== 11) return refused('invalid-length');
  if (!CUIT_PREFIXES.includes(compact.slice(0, 2))) return refused('invalid-prefix');
  const check = (11 - (weightedSum(compact, CUIT_WEIGHTS) % 11)) % 11;
  if (check === 10 || check !== Number(compact[10])) return refused('invalid-check-digit');
  return { ok: true, normalized: `${compact.slice(0, 2)}-${compact.slice(2, 10)}-${compact.slice(10)}` };
}

// DIAN's weights, applied from the rightmost digit of the number leftwards.
const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];

/** The DIAN verification digit (DV) of a NIT: r = sum mod 11; DV = r when r is 0 or 1, else 11 - r. */
export function nitCheckDigit(body: string): number {
  const reversed = [...body].reverse().join('');
  const r = weightedSum(reversed, NIT_WEIGHTS.slice(0, body.length)) % 11;
  return r <= 1 ? r : 11 - r;
}

/**
 * DIAN: a 9-digit NIT with its DV (`900123456-8`, `9001234568`) or without it (`900123456`: the DV is then computed
 * and no typing error can be caught). A dash, when typed, marks the DV. Canonical: `900123456-8`.
 */
export function checkColombiaNit(typed: string): NumberCheck {
  const dash = typed.lastIndexOf('-');
  const compact = compactTaxId(typed);
  if (!/^\d+$/.test(compact)) return refused('invalid-characters');
  const body = dash < 0 ? compact.slice(0, 9) : compactTaxId(typed.slice(0, dash));
  const typedDv = dash < 0 ? compact.slice(9) : compactTaxId(typed.slice(dash + 1));
  if (body.length !== 9 || typedDv.length > 1 || (dash >= 0 && typedDv.length === 0)) return refused('invalid-length');
  const dv = nitCheckDigit(body);
  if (typedDv !== '' && dv !== Number(typedDv)) return refused('invalid-check-digit');
  return { ok: true, normalized: `${body}-${dv}` };
}

/** The SII check digit of a RUT: weights 2..7 repeating from the right; 11 - (sum mod 11), 11 is 0, 10 is K. */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (2 + (i % 6));
  const check = 11 - (sum % 11);
  return check === 11 ? '0' : check === 10 ? 'K' : String(check);
}

/** SII: 7 or 8 digits (from 1.000.000) and a check digit 0-9 or K. Canonical: `60803000-K`, no dots. */
export function checkChileRut(typed: string): NumberCheck {
  const compact = compactTaxId(typed);
  if (!/^\d+[\dK]$/.test(compact)) return refused('invalid-characters');
  const body = compact.slice(0, -1).replace(/^0+/, '');
  if (body.length < 7 || body.length > 8) return refused('invalid-length');
  const check = compact.slice(-1);
  return check === rutCheckDigit(body) ? { ok: true, normalized: `${body}-${check}` } : refused('invalid-check-digit');
}
