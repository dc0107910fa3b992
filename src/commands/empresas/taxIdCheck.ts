// The shape every country's check shares, and the weighted sum behind the mod-11 check digits.

/** Stable codes of a refused tax id; an HTTP layer names the field and maps them to one problem type. */
export type TaxIdProblem =
  | 'invalid-country'
  | 'unsupported-type'
  | 'invalid-characters'
  | 'invalid-length'
  | 'invalid-format'
  | 'invalid-prefix'
  | 'invalid-date'
  | 'invalid-check-digit';

/** The outcome of checking one number as typed (upper-cased, NFC). */
export type NumberCheck = { ok: true; normalized: string } | { ok: false; reason: TaxIdProblem };

/** The number without the separators people type: spaces, dots and dashes. */
export const compactTaxId = (typed: string): string => typed.replace(/[\s.-]/g, '');

export const refused = (reason: TaxIdProblem): NumberCheck => ({ ok: false, reason });

/** Sum of each digit times the weight at the same position (left to right); `digits` is as long as `weights`. */
export function weightedSum(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * (weights[i] ?? 0);
  return sum;
}
