// Mexico's RFC (SAT): 3 letters (legal entity) or 4 (natural person), the date YYMMDD, and the homoclave: two
// characters the SAT derives from the name and a check digit over the first 11 or 12 characters.
import { compactTaxId, refused, type NumberCheck } from './taxIdCheck.js';

// SAT's value table: 0-9 are 0-9, A-N 10-23, & 24, O-Z 25-36, space 37, Ñ 38 (the index in this string).
const RFC_ALPHABET = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

// The homoclave's first two characters come from the SAT's base-34 table (no 0, no O; the first stays below W).
const RFC_PATTERN = /^([A-ZÑ&]{3,4})(\d{2})(\d{2})(\d{2})[1-9A-NP-V][1-9A-NP-Z][\dA]$/;

/** The SAT's generic RFCs (general public, foreign residents): issued without a homoclave check digit. */
export const GENERIC_RFCS: readonly string[] = ['XAXX010101000', 'XEXX010101000'];

/**
 * The homoclave check digit: the first 11 (entity) or 12 (person) characters, padded on the left with a space to 12,
 * weighted 13 down to 2; r = sum mod 11; the digit is 0 when r is 0, else 11 - r, where 10 is written A.
 */
export function rfcCheckDigit(first: string): string {
  const padded = first.length === 11 ? ` ${first}` : first;
  let sum = 0;
  [...padded].forEach((c, i) => (sum += RFC_ALPHABET.indexOf(c) * (13 - i)));
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'A' : String(check);
}

function isCalendarDate(yy: number, mm: number, dd: number): boolean {
  // The century is not in the RFC: a year divisible by 4 may be 2000 or a leap year, so Feb 29 is allowed then.
  const days = [31, yy % 4 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1];
  return days !== undefined && dd >= 1 && dd <= days;
}

/** Canonical: upper case without separators, e.g. `SAT970701NN3` (entity) or `GODE561231GR8` (person). */
export function checkMexicoRfc(typed: string): NumberCheck {
  const compact = compactTaxId(typed);
  if (GENERIC_RFCS.includes(compact)) return { ok: true, normalized: compact };
  if (!/^[A-ZÑ&\d]+$/.test(compact)) return refused('invalid-characters');
  // Ñ is one UTF-16 unit once NFC-normalized, so length counts characters here.
  if (compact.length !== 12 && compact.length !== 13) return refused('invalid-length');
  const match = RFC_PATTERN.exec(compact);
  if (!match) return refused('invalid-format');
  if (!isCalendarDate(Number(match[2]), Number(match[3]), Number(match[4]))) return refused('invalid-date');
  const check = rfcCheckDigit(compact.slice(0, -1));
  return check === compact.slice(-1) ? { ok: true, normalized: compact } : refused('invalid-check-digit');
}
