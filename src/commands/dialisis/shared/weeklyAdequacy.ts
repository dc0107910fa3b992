// Adequacy beyond one session (issue 21 item 5): standard Kt/V for any number of sessions a week, with residual urea
// clearance, and nPCR from the same BUN pair. Unrounded; each answers a value or the reason it cannot be computed.

export type AdequacyReason = 'frequency-missing' | 'npcr-frequency-unsupported' | 'interdialytic-interval-unknown';

export type Weekly = { value: number; reason?: never } | { value: null; reason: AdequacyReason };

/** KDOQI 2015 update (Daugirdas et al., Am J Kidney Dis 2015;66:884-930), guideline 3.2: for schedules other than thrice weekly. */
export const STD_KTV_TARGETS = { target: 2.3, minimum: 2.1 } as const;

const MINUTES_PER_WEEK = 10_080;

/**
 * stdKt/V = 10080 (1 - e^-eKt/V) / t / ((1 - e^-eKt/V) / eKt/V + 10080 / (N t) - 1), t in minutes, N sessions a week: the
 * FHN / Leypoldt equation as KDOQI 2015 gives it (Leypoldt JK, Semin Dial 2004;17:142; Gotch FA, NDT 1998;13 Suppl 6:10).
 */
export function stdKtVLeypoldt(eKtV: number, minutes: number, sessionsPerWeek: number | null): Weekly {
  if (sessionsPerWeek === null || !(sessionsPerWeek > 0)) return { value: null, reason: 'frequency-missing' };
  const removed = 1 - Math.exp(-eKtV);
  return { value: (MINUTES_PER_WEEK * removed) / minutes / (removed / eKtV + MINUTES_PER_WEEK / (sessionsPerWeek * minutes) - 1) };
}

/**
 * Residual urea clearance as weekly stdKt/V: Kru (mL/min) x 10080 / V (mL), added to the dialysis stdKt/V (KDOQI 2006
 * appendix and 2015 update: stdKt/V is a continuous-equivalent clearance, so the continuous Kru adds to it).
 */
export const residualStdKtV = (kruMlMin: number, ureaVolumeL: number): number => (kruMlMin * MINUTES_PER_WEEK) / (ureaVolumeL * 1000);

/** Urea distribution volume when not modelled: 55 % of the post-dialysis weight (total body water, Daugirdas' handbook). */
export const ureaVolumeFromWeightL = (postWeightKg: number): number => 0.55 * postWeightKg;

/** C0 / (a + b Kt/V + c / Kt/V) + 0.168, by schedule and the interval before the session (Depner TA, Daugirdas JT, JASN 1996;7:780-5). */
const NPCR_COEFFICIENTS = {
  thrice: { long: [36.3, 5.48, 53.5], short: [25.8, 1.15, 56.4] },
  twice: { long: [48.0, 5.14, 79.0], short: [33.0, 3.6, 83.2] },
} as const;

export interface NpcrInput {
  preBunMgDl: number;
  spKtV: number;
  sessionsPerWeek: number | null;
  /** Days since the previous session; null when unknown (thrice weekly then takes the mid-week interval KDOQI samples). */
  interdialyticDays: number | null;
}

/** nPCR (g/kg/day) from the pre-BUN (mg/dL) and spKt/V of the same BUN pair: thrice weekly after a 2- or 3-day interval, twice weekly after 3 or 4. */
export function nPcrDepnerDaugirdas({ preBunMgDl, spKtV, sessionsPerWeek, interdialyticDays }: NpcrInput): Weekly {
  if (sessionsPerWeek === null) return { value: null, reason: 'frequency-missing' };
  if (sessionsPerWeek !== 2 && sessionsPerWeek !== 3) return { value: null, reason: 'npcr-frequency-unsupported' };
  if (sessionsPerWeek === 2 && interdialyticDays === null) return { value: null, reason: 'interdialytic-interval-unknown' };
  const schedule = sessionsPerWeek === 3 ? NPCR_COEFFICIENTS.thrice : NPCR_COEFFICIENTS.twice;
  const longAfter = sessionsPerWeek === 3 ? 3 : 4;
  const [a, b, c] = interdialyticDays !== null && interdialyticDays >= longAfter ? schedule.long : schedule.short;
  return { value: preBunMgDl / (a + b * spKtV + c / spKtV) + 0.168 };
}
