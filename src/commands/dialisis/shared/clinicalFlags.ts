// The soft column of domain.md 2.12 and the UF-rate flag of 2.10: values worth a look, never a refusal. Flags are
// data the session view and the adequacy reports show; a command never fails for one.
import type { PostDialysis, PreDialysis, PrescriptionSnapshot, Reading } from '../session/sessionEvents.js';
import type { ClinicalPolicy } from './clinicalPolicy.js';
import type { DerivedValues } from './derivedValues.js';
import { roundTo } from './rounding.js';

/** Fixed clinical thresholds of domain.md 2.12 (general practice, [G]/[P] there); the company-set ones come in the policy. */
export const FLAG_THRESHOLDS = {
  preWeightAboveDryPercent: 5,
  postWeightBelowDryKg: 1,
  systolicLowMmHg: 90,
  /** Intradialytic hypotension: a systolic fall from the pre-dialysis value of this much or more (domain.md 2.8). */
  systolicFallMmHg: 20,
  pulseLowBpm: 50,
  pulseHighBpm: 120,
  feverC: 37.8,
  /** Effective minutes may fall this far short of the prescribed duration before it is flagged. */
  durationShortfallMinutes: 15,
  qbLowMlMin: 250,
  /** Scale and machine may disagree by this much: two weighings at 0.1-0.2 kg each plus unrecorded rinse-back or intake. */
  ufDiscrepancyL: 0.5,
  /** The net post-weight may miss the target (dry) weight by this much either way: one scale reading and a meal. */
  targetWeightToleranceKg: 0.5,
} as const;

export const CLINICAL_FLAG_CODES = [
  'uf-rate-above-maximum',
  'expected-uf-rate-above-maximum',
  'target-weight-missed',
  'treatment-time-lost',
  'pre-weight-above-dry-weight',
  'post-weight-below-dry-weight',
  'systolic-low',
  'systolic-fall',
  'pulse-low',
  'pulse-high',
  'fever',
  'duration-short',
  'qb-low',
  'ktv-below-minimum',
  'stdktv-below-minimum',
  'urr-below-minimum',
  'uf-discrepancy',
] as const;
export type ClinicalFlagCode = (typeof CLINICAL_FLAG_CODES)[number];

export interface ClinicalFlag {
  code: ClinicalFlagCode;
  /** Where the value is: a derived value's name, or a JSON pointer into the session ('readings/2/pulse'). */
  field: string;
  value: number;
  threshold: number;
  /** Expected UF rate only: the treatment minutes that would keep the UF goal under the threshold. */
  minimumMinutes?: number;
}

type Vitals = Pick<PreDialysis | PostDialysis, 'bloodPressure' | 'pulse' | 'temperatureC'>;

export interface ClinicalFlagInput {
  prescription: Pick<PrescriptionSnapshot, 'durationMinutes' | 'dryWeightKg' | 'frequencyPerWeek'> | null;
  pre: Vitals | null;
  post: Vitals | null;
  /** Intradialytic readings in the order recorded; the flag's field names a reading by its index here. */
  readings: readonly Pick<Reading, 'bloodPressure' | 'pulse' | 'qbMlMin'>[];
  effectiveMinutes: number | null;
  /** This session's derived values (derivedValues), judged at the precision they are shown. */
  derived: DerivedValues;
  /** Prescribed minutes an interruption cost (absent: not interrupted). */
  lostMinutes?: number | null;
}

const T = FLAG_THRESHOLDS;

/** Every flag of one session, in a stable order: fluid, vitals, treatment, adequacy. */
export function clinicalFlags(input: ClinicalFlagInput, policy: ClinicalPolicy): ClinicalFlag[] {
  const { derived, prescription } = input;
  const flags: ClinicalFlag[] = [];
  const flag = (when: boolean, code: ClinicalFlagCode, field: string, value: number | null | undefined, threshold: number) => {
    if (when && value !== null && value !== undefined) flags.push({ code, field, value, threshold });
  };
  const above = (code: ClinicalFlagCode, field: string, value: number | null | undefined, threshold: number) =>
    flag(value != null && value > threshold, code, field, value, threshold);
  const below = (code: ClinicalFlagCode, field: string, value: number | null | undefined, threshold: number) =>
    flag(value != null && value < threshold, code, field, value, threshold);

  above('uf-rate-above-maximum', 'ufRateMlKgH', derived.ufRateMlKgH, policy.ufRateMaxMlKgH);
  if (prescription) {
    const expected = expectedUfRate(derived.ufGoalL, prescription, policy.ufRateMaxMlKgH);
    if (expected) flags.push(expected);
    const dry = prescription.dryWeightKg;
    above(
      'pre-weight-above-dry-weight',
      'netPreWeightKg',
      derived.netPreWeightKg,
      roundTo(dry * (1 + T.preWeightAboveDryPercent / 100), 2),
    );
    below('post-weight-below-dry-weight', 'netPostWeightKg', derived.netPostWeightKg, roundTo(dry - T.postWeightBelowDryKg, 2));
    // The target missed either way (the value is post less target: positive, fluid left on the patient).
    const miss = derived.netPostWeightKg === null ? null : roundTo(derived.netPostWeightKg - dry, 1);
    flag(
      miss !== null && Math.abs(miss) > T.targetWeightToleranceKg,
      'target-weight-missed',
      'netPostWeightKg',
      miss,
      T.targetWeightToleranceKg,
    );
  }
  const ufDifference = derived.ufDifferenceL;
  flag(
    ufDifference !== null && Math.abs(ufDifference) > T.ufDiscrepancyL,
    'uf-discrepancy',
    'ufDifferenceL',
    ufDifference,
    T.ufDiscrepancyL,
  );

  flags.push(...vitalFlags(input));

  above('treatment-time-lost', 'interruption/lostMinutes', input.lostMinutes, 0);
  if (prescription)
    below('duration-short', 'effectiveMinutes', input.effectiveMinutes, prescription.durationMinutes - T.durationShortfallMinutes);
  const lowestQb = extreme(input.readings, (r) => r.qbMlMin, 'min');
  if (lowestQb) below('qb-low', `readings/${lowestQb.index}/qbMlMin`, lowestQb.value, T.qbLowMlMin);

  // spKt/V targets hold for thrice weekly; other schedules are judged by stdKt/V (KDOQI 2015, guideline 3).
  const perWeek = prescription?.frequencyPerWeek;
  if (perWeek === undefined || perWeek === 3) below('ktv-below-minimum', 'spKtV', derived.spKtV, policy.ktvMinimum);
  else below('stdktv-below-minimum', 'stdKtV', derived.stdKtV, policy.stdKtVMinimum);
  below('urr-below-minimum', 'urrPercent', derived.urrPercent, policy.urrMinimumPercent);
  return flags;
}

/**
 * Before the needle: the UF goal over the prescribed time, per kg of the target (dry) weight the patient should leave
 * at (domain.md 2.10, UF rate = mL / kg / h), above the threshold; with the minutes that would keep it under:
 * goal mL / (threshold x dry kg) x 60, rounded up.
 */
function expectedUfRate(
  ufGoalL: number | null,
  prescription: Pick<PrescriptionSnapshot, 'durationMinutes' | 'dryWeightKg'>,
  maxMlKgH: number,
): ClinicalFlag | null {
  const { durationMinutes, dryWeightKg } = prescription;
  if (ufGoalL === null || ufGoalL <= 0 || durationMinutes <= 0 || dryWeightKg <= 0) return null;
  const rate = (ufGoalL * 1000) / dryWeightKg / (durationMinutes / 60);
  if (roundTo(rate, 1) <= maxMlKgH) return null;
  const minimumMinutes = Math.ceil(((ufGoalL * 1000) / (maxMlKgH * dryWeightKg)) * 60);
  return { code: 'expected-uf-rate-above-maximum', field: 'ufGoalL', value: roundTo(rate, 1), threshold: maxMlKgH, minimumMinutes };
}

/** Blood pressure, pulse and temperature of the pre and post blocks, and the worst intradialytic reading of each kind. */
function vitalFlags({ pre, post, readings }: ClinicalFlagInput): ClinicalFlag[] {
  const flags: ClinicalFlag[] = [];
  const push = (when: boolean, code: ClinicalFlagCode, field: string, value: number, threshold: number) => {
    if (when) flags.push({ code, field, value, threshold });
  };
  const block = (name: 'pre' | 'post', vitals: Vitals | null) => {
    if (!vitals) return;
    const systolic = vitals.bloodPressure.systolic;
    push(systolic < T.systolicLowMmHg, 'systolic-low', `${name}/bloodPressure/systolic`, systolic, T.systolicLowMmHg);
    push(vitals.pulse < T.pulseLowBpm, 'pulse-low', `${name}/pulse`, vitals.pulse, T.pulseLowBpm);
    push(vitals.pulse > T.pulseHighBpm, 'pulse-high', `${name}/pulse`, vitals.pulse, T.pulseHighBpm);
    push(vitals.temperatureC >= T.feverC, 'fever', `${name}/temperatureC`, vitals.temperatureC, T.feverC);
  };
  block('pre', pre);

  const lowest = extreme(readings, (r) => r.bloodPressure?.systolic, 'min');
  if (lowest) {
    const field = `readings/${lowest.index}/bloodPressure/systolic`;
    push(lowest.value < T.systolicLowMmHg, 'systolic-low', field, lowest.value, T.systolicLowMmHg);
    // The fall is the pre-dialysis systolic less the lowest reading: the largest fall of the session.
    const fall = pre ? pre.bloodPressure.systolic - lowest.value : null;
    if (fall !== null) push(fall >= T.systolicFallMmHg, 'systolic-fall', field, fall, T.systolicFallMmHg);
  }
  const slowest = extreme(readings, (r) => r.pulse, 'min');
  if (slowest) push(slowest.value < T.pulseLowBpm, 'pulse-low', `readings/${slowest.index}/pulse`, slowest.value, T.pulseLowBpm);
  const fastest = extreme(readings, (r) => r.pulse, 'max');
  if (fastest) push(fastest.value > T.pulseHighBpm, 'pulse-high', `readings/${fastest.index}/pulse`, fastest.value, T.pulseHighBpm);

  block('post', post);
  return flags;
}

/** The reading with the lowest (or highest) value of a measure, first one on a tie; undefined when none has it. */
function extreme<R>(readings: readonly R[], measure: (r: R) => number | undefined, which: 'min' | 'max') {
  let best: { index: number; value: number } | undefined;
  readings.forEach((reading, index) => {
    const value = measure(reading);
    if (value === undefined) return;
    if (!best || (which === 'min' ? value < best.value : value > best.value)) best = { index, value };
  });
  return best;
}
