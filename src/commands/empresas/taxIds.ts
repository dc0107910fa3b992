// Tax identifiers of companies and clients: the countries whose authority publishes a check digit are checked with
// it; any other country takes a free identifier of type OTHER. Pure: shared by Empresas and Clientes.
import { LIMITS } from '../../limits.js';
import { checkMexicoRfc } from './mexicanRfc.js';
import { checkArgentinaCuit, checkChileRut, checkColombiaNit, checkPeruRuc } from './mod11TaxIds.js';
import type { NumberCheck, TaxIdProblem } from './taxIdCheck.js';

export type { TaxIdProblem } from './taxIdCheck.js';

export interface CheckedTaxIdType {
  country: string;
  type: string;
  authority: string;
  /** The canonical form `normalized` takes (a real example). */
  canonical: string;
  /** Takes the number as typed, upper-cased. */
  check: (typed: string) => NumberCheck;
}

/** The countries and types whose number is checked, with the canonical form of each. */
export const CHECKED_TAX_ID_TYPES: readonly CheckedTaxIdType[] = [
  { country: 'PE', type: 'RUC', authority: 'SUNAT', canonical: '20131312955', check: checkPeruRuc },
  { country: 'MX', type: 'RFC', authority: 'SAT', canonical: 'SAT970701NN3', check: checkMexicoRfc },
  { country: 'CO', type: 'NIT', authority: 'DIAN', canonical: '800197268-4', check: checkColombiaNit },
  { country: 'CL', type: 'RUT', authority: 'SII', canonical: '60803000-K', check: checkChileRut },
  { country: 'AR', type: 'CUIT', authority: 'AFIP', canonical: '33-69345023-9', check: checkArgentinaCuit },
];

/** The type of every other country: 3..30 characters [A-Z0-9-], no check digit. */
export const OTHER_TAX_ID_TYPE = 'OTHER';

export type TaxIdResult = { ok: true; normalized: string; type: string } | { ok: false; reason: TaxIdProblem };

/** The one type a country accepts: its checked type, or OTHER. */
export function taxIdTypeFor(country: string): string {
  const code = country.trim().toUpperCase();
  return CHECKED_TAX_ID_TYPES.find((t) => t.country === code)?.type ?? OTHER_TAX_ID_TYPE;
}

/**
 * Checks a tax id of a country (ISO 3166-1 alpha-2) and answers its canonical form. Spaces, dots and dashes are
 * ignored and letters upper-cased (for OTHER, dashes are kept: they are part of the identifier).
 */
export function validateTaxId(country: string, type: string, number: string): TaxIdResult {
  const code = country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return { ok: false, reason: 'invalid-country' };
  const expectedType = taxIdTypeFor(code);
  if (type.trim().toUpperCase() !== expectedType) return { ok: false, reason: 'unsupported-type' };
  if (number.length > LIMITS.taxId.maxInputChars) return { ok: false, reason: 'invalid-length' };
  const upper = number.normalize('NFC').toUpperCase();
  const checked = CHECKED_TAX_ID_TYPES.find((t) => t.country === code);
  const result = checked ? checked.check(upper) : checkOther(upper.replace(/[\s.]/g, ''));
  return result.ok ? { ok: true, normalized: result.normalized, type: expectedType } : result;
}

function checkOther(compact: string): NumberCheck {
  if (!/^[A-Z0-9-]*$/.test(compact)) return { ok: false, reason: 'invalid-characters' };
  const { otherMinChars, otherMaxChars } = LIMITS.taxId;
  if (compact.length < otherMinChars || compact.length > otherMaxChars) return { ok: false, reason: 'invalid-length' };
  // A dash separates parts; one at either end or two in a row is a typing slip, not an identifier.
  if (/^-|-$|--/.test(compact)) return { ok: false, reason: 'invalid-format' };
  return { ok: true, normalized: compact };
}
