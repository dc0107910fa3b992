// Urea kinetics of one session (domain.md 2.10): URR, single-pool Kt/V (Daugirdas 1993) and equilibrated Kt/V (rate
// equation). Unrounded; each answers a value or the reason it cannot be computed.

export type VascularAccessKind = 'fistula' | 'graft' | 'catheter';

export type KineticsReason =
  'bun-missing' | 'post-bun-not-below-pre' | 'bun-ratio-below-time-term' | 'treatment-time-missing' | 'access-unknown';

export type Computed = { value: number; reason?: never } | { value: null; reason: KineticsReason };

export interface BunPair {
  preBunMgDl?: number | undefined;
  postBunMgDl?: number | undefined;
}

const missing = (reason: KineticsReason): Computed => ({ value: null, reason });

/** R = postBUN / preBUN, when both were measured and the post value is below the pre value (a reduction). */
export function bunRatio({ preBunMgDl, postBunMgDl }: BunPair): Computed {
  if (preBunMgDl === undefined || postBunMgDl === undefined) return missing('bun-missing');
  if (!(postBunMgDl < preBunMgDl) || preBunMgDl <= 0) return missing('post-bun-not-below-pre');
  return { value: postBunMgDl / preBunMgDl };
}

/** URR (%) = (preBUN - postBUN) / preBUN x 100. */
export function urrPercent(pair: BunPair): Computed {
  const r = bunRatio(pair);
  return r.value === null ? r : { value: (1 - r.value) * 100 };
}

export interface SpKtVInput extends BunPair {
  /** Treatment time, hours. */
  hours: number | null;
  /** Weight lost during the session, litres (kg). */
  ufL: number;
  /** Post-dialysis weight, kg. */
  postWeightKg: number;
}

/** spKt/V = -ln(R - 0.008 t) + (4 - 3.5 R) UF / W (Daugirdas JT, J Am Soc Nephrol 1993;4:1205-13). */
export function spKtVDaugirdas(input: SpKtVInput): Computed {
  const r = bunRatio(input);
  if (r.value === null) return r;
  if (input.hours === null || !(input.hours > 0)) return missing('treatment-time-missing');
  const inner = r.value - 0.008 * input.hours;
  // The logarithm is undefined at or below zero: a post value this low for the time is a sampling error.
  if (!(inner > 0)) return missing('bun-ratio-below-time-term');
  return { value: -Math.log(inner) + ((4 - 3.5 * r.value) * input.ufL) / input.postWeightKg };
}

/** Rate-equation coefficients: AV access (Daugirdas & Schneditz, ASAIO J 1995;41:M719) and its venous-catheter variant (KDOQI 2006). */
export const EKTV_COEFFICIENTS = {
  av: { slope: 0.6, intercept: 0.03 },
  catheter: { slope: 0.47, intercept: 0.02 },
} as const;

/** eKt/V = spKt/V - a spKt/V / t + b, with a and b by access (rate equation, t in hours). */
export function eKtVRateEquation(spKtV: number, hours: number | null, access: VascularAccessKind | null): Computed {
  if (hours === null || !(hours > 0)) return missing('treatment-time-missing');
  if (access === null) return missing('access-unknown');
  const { slope, intercept } = access === 'catheter' ? EKTV_COEFFICIENTS.catheter : EKTV_COEFFICIENTS.av;
  return { value: spKtV - (slope * spKtV) / hours + intercept };
}
