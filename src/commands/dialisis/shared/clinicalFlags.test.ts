// Each soft flag at its threshold (not flagged) and just past it (flagged), from domain.md 2.10 and 2.12.
import assert from 'node:assert/strict';
import { DEFAULT_POLICY } from '../../empresas/shared/policySettings.js';
import { DEFAULT_CLINICAL_POLICY, clinicalPolicyOf } from './clinicalPolicy.js';
import { clinicalFlags, type ClinicalFlagInput } from './clinicalFlags.js';
import { derivedValues, type DerivedValues } from './derivedValues.js';

const derived: DerivedValues = {
  netPreWeightKg: 73,
  netPostWeightKg: 70,
  idwgKg: 2.5,
  idwgPercentOfDryWeight: 3.6,
  interdialyticHours: 44,
  ufGoalL: 3.3,
  achievedUfL: 3,
  machineUfL: 3.1,
  ufDifferenceL: -0.1,
  ufDifferencePercent: -3.2,
  ufRateMlKgH: 10.7,
  urrPercent: 68,
  spKtV: 1.31,
  eKtV: 1.15,
  longInterval: false,
  stdKtV: 2.2,
  nPcrGKgDay: 1.1,
  notComputed: {},
};
const calm: ClinicalFlagInput = {
  prescription: { durationMinutes: 240, dryWeightKg: 70 },
  pre: { bloodPressure: { systolic: 140, diastolic: 80 }, pulse: 80, temperatureC: 36.5 },
  post: { bloodPressure: { systolic: 130, diastolic: 75 }, pulse: 78, temperatureC: 36.6 },
  readings: [
    { bloodPressure: { systolic: 135, diastolic: 80 }, pulse: 82, qbMlMin: 350 },
    { bloodPressure: { systolic: 125, diastolic: 75 }, pulse: 85, qbMlMin: 350 },
  ],
  effectiveMinutes: 240,
  derived,
};
const withDerived = (values: Partial<DerivedValues>): ClinicalFlagInput => ({ ...calm, derived: { ...derived, ...values } });
const codes = (input: ClinicalFlagInput, policy = DEFAULT_CLINICAL_POLICY) => clinicalFlags(input, policy).map((f) => f.code);
const reading = (index: number, values: Partial<ClinicalFlagInput['readings'][number]>): ClinicalFlagInput => ({
  ...calm,
  readings: calm.readings.map((r, i) => (i === index ? { ...r, ...values } : r)),
});

describe('clinical flags', () => {
  it('maps the company adequacy policy to the clinical thresholds (13 mL/kg/h, 1.2, 1.4, 65 % by default)', () => {
    const plausibility = { kineticsMinimumMinutes: 120, idwgWindowDays: 4 };
    const std = { stdKtVMinimum: 2.1, stdKtVTarget: 2.3 };
    const thresholds = { ufRateMaxMlKgH: 13, ktvMinimum: 1.2, ktvTarget: 1.4, urrMinimumPercent: 65, ...plausibility, ...std };
    assert.deepEqual(clinicalPolicyOf(DEFAULT_POLICY), thresholds);
    const stricter = { ...DEFAULT_POLICY, adequacy: { ...DEFAULT_POLICY.adequacy, ufRateThresholdMlKgH: 10 } };
    assert.equal(clinicalPolicyOf(stricter).ufRateMaxMlKgH, 10);
  });

  it('judges stdKt/V against the KDOQI 2015 minimum 2.1 when not thrice weekly, and spKt/V only when thrice weekly', () => {
    const twice = { ...calm, prescription: { ...calm.prescription!, frequencyPerWeek: 2 } };
    const low = { ...twice, derived: { ...derived, spKtV: 1.1, stdKtV: 2.05 } };
    assert.deepEqual(clinicalFlags(low, DEFAULT_CLINICAL_POLICY), [
      { code: 'stdktv-below-minimum', field: 'stdKtV', value: 2.05, threshold: 2.1 },
    ]);
    assert.deepEqual(codes({ ...twice, derived: { ...derived, stdKtV: 2.1 } }), []);
    const thrice = {
      ...calm,
      prescription: { ...calm.prescription!, frequencyPerWeek: 3 },
      derived: { ...derived, spKtV: 1.1, stdKtV: 1.9 },
    };
    assert.deepEqual(codes(thrice), ['ktv-below-minimum']);
  });

  it('flags nothing in a calm session', () => {
    assert.deepEqual(clinicalFlags(calm, DEFAULT_CLINICAL_POLICY), []);
  });

  it('flags a UF rate above the policy maximum, not at it', () => {
    assert.deepEqual(codes(withDerived({ ufRateMlKgH: 13 })), []);
    assert.deepEqual(clinicalFlags(withDerived({ ufRateMlKgH: 13.1 }), DEFAULT_CLINICAL_POLICY), [
      { code: 'uf-rate-above-maximum', field: 'ufRateMlKgH', value: 13.1, threshold: 13 },
    ]);
    assert.deepEqual(codes(calm, { ...DEFAULT_CLINICAL_POLICY, ufRateMaxMlKgH: 10 }), [
      'uf-rate-above-maximum',
      'expected-uf-rate-above-maximum',
    ]);
  });

  it('flags a pre-weight above dry weight + 5 % and a post-weight below dry weight - 1 kg', () => {
    // Dry weight 70 kg: 73.5 kg is +5 % exactly, 69 kg is -1 kg exactly.
    assert.deepEqual(codes(withDerived({ netPreWeightKg: 73.5, netPostWeightKg: 69 })), ['target-weight-missed']);
    assert.deepEqual(clinicalFlags(withDerived({ netPreWeightKg: 73.6, netPostWeightKg: 68.9 }), DEFAULT_CLINICAL_POLICY), [
      { code: 'pre-weight-above-dry-weight', field: 'netPreWeightKg', value: 73.6, threshold: 73.5 },
      { code: 'post-weight-below-dry-weight', field: 'netPostWeightKg', value: 68.9, threshold: 69 },
      { code: 'target-weight-missed', field: 'netPostWeightKg', value: -1.1, threshold: 0.5 },
    ]);
  });

  it('flags a post-weight that misses the target (dry) weight by more than 0.5 kg either way', () => {
    assert.deepEqual(codes(withDerived({ netPostWeightKg: 70.5 })), []);
    assert.deepEqual(codes(withDerived({ netPostWeightKg: 69.5 })), []);
    assert.deepEqual(clinicalFlags(withDerived({ netPostWeightKg: 70.6 }), DEFAULT_CLINICAL_POLICY), [
      { code: 'target-weight-missed', field: 'netPostWeightKg', value: 0.6, threshold: 0.5 },
    ]);
    assert.deepEqual(codes(withDerived({ netPostWeightKg: 69.4 })), ['target-weight-missed']);
  });

  it('flags the prescribed minutes an interruption cost', () => {
    assert.deepEqual(clinicalFlags({ ...calm, lostMinutes: 0 }, DEFAULT_CLINICAL_POLICY), []);
    assert.deepEqual(clinicalFlags({ ...calm, lostMinutes: 165 }, DEFAULT_CLINICAL_POLICY), [
      { code: 'treatment-time-lost', field: 'interruption/lostMinutes', value: 165, threshold: 0 },
    ]);
  });

  it('warns before the needle when the UF goal over the prescribed time exceeds the UF rate limit, with the minutes it needs', () => {
    // 3.64 L over 4 h on 70 kg is 13.0 mL/kg/h: at the limit, no warning.
    assert.deepEqual(codes(withDerived({ ufGoalL: 3.64, netPostWeightKg: null })), []);
    // 4.2 L over 4 h on 70 kg: 15 mL/kg/h; under 13 it needs 4200 / (13 x 70) x 60 = 276.9 -> 277 minutes.
    assert.deepEqual(clinicalFlags(withDerived({ ufGoalL: 4.2, netPostWeightKg: null }), DEFAULT_CLINICAL_POLICY), [
      { code: 'expected-uf-rate-above-maximum', field: 'ufGoalL', value: 15, threshold: 13, minimumMinutes: 277 },
    ]);
    const stricter = clinicalFlags(withDerived({ ufGoalL: 3.3 }), { ...DEFAULT_CLINICAL_POLICY, ufRateMaxMlKgH: 10 });
    assert.deepEqual(
      stricter.filter((f) => f.code === 'expected-uf-rate-above-maximum').map((f) => [f.value, f.minimumMinutes]),
      [[11.8, 283]],
    );
    assert.deepEqual(codes(withDerived({ ufGoalL: -0.5, netPostWeightKg: null })), []);
  });

  it('flags a scale and machine UF that disagree by more than 0.5 L, either way', () => {
    assert.deepEqual(codes(withDerived({ ufDifferenceL: 0.5 })), []);
    assert.deepEqual(codes(withDerived({ ufDifferenceL: -0.5 })), []);
    assert.deepEqual(clinicalFlags(withDerived({ ufDifferenceL: -0.6 }), DEFAULT_CLINICAL_POLICY), [
      { code: 'uf-discrepancy', field: 'ufDifferenceL', value: -0.6, threshold: 0.5 },
    ]);
    assert.deepEqual(codes(withDerived({ ufDifferenceL: 0.6 })), ['uf-discrepancy']);
  });

  it('flags a systolic below 90 mmHg anywhere, and a fall of 20 mmHg or more from the pre-dialysis value', () => {
    const pre = (systolic: number): ClinicalFlagInput => ({ ...calm, pre: { ...calm.pre!, bloodPressure: { systolic, diastolic: 60 } } });
    assert.deepEqual(codes(pre(90)), []);
    assert.deepEqual(clinicalFlags(pre(89), DEFAULT_CLINICAL_POLICY), [
      { code: 'systolic-low', field: 'pre/bloodPressure/systolic', value: 89, threshold: 90 },
    ]);
    // Pre 140: the lowest reading 121 is a fall of 19, 120 a fall of 20.
    assert.deepEqual(codes(reading(1, { bloodPressure: { systolic: 121, diastolic: 70 } })), []);
    assert.deepEqual(clinicalFlags(reading(1, { bloodPressure: { systolic: 120, diastolic: 70 } }), DEFAULT_CLINICAL_POLICY), [
      { code: 'systolic-fall', field: 'readings/1/bloodPressure/systolic', value: 20, threshold: 20 },
    ]);
    assert.deepEqual(codes(reading(0, { bloodPressure: { systolic: 89, diastolic: 50 } })), ['systolic-low', 'systolic-fall']);
    const post = { ...calm, post: { ...calm.post!, bloodPressure: { systolic: 88, diastolic: 50 } } };
    assert.deepEqual(clinicalFlags(post, DEFAULT_CLINICAL_POLICY)[0]?.field, 'post/bloodPressure/systolic');
  });

  it('flags a pulse below 50 or above 120, before, during and after', () => {
    assert.deepEqual(codes(reading(0, { pulse: 50 })), []);
    assert.deepEqual(codes(reading(0, { pulse: 120 })), []);
    assert.deepEqual(clinicalFlags(reading(1, { pulse: 49 }), DEFAULT_CLINICAL_POLICY), [
      { code: 'pulse-low', field: 'readings/1/pulse', value: 49, threshold: 50 },
    ]);
    assert.deepEqual(clinicalFlags(reading(0, { pulse: 121 }), DEFAULT_CLINICAL_POLICY), [
      { code: 'pulse-high', field: 'readings/0/pulse', value: 121, threshold: 120 },
    ]);
    assert.deepEqual(codes({ ...calm, pre: { ...calm.pre!, pulse: 45 }, post: { ...calm.post!, pulse: 125 } }), [
      'pulse-low',
      'pulse-high',
    ]);
  });

  it('flags a temperature of 37.8 degrees C or more', () => {
    assert.deepEqual(codes({ ...calm, pre: { ...calm.pre!, temperatureC: 37.7 } }), []);
    assert.deepEqual(clinicalFlags({ ...calm, post: { ...calm.post!, temperatureC: 37.8 } }, DEFAULT_CLINICAL_POLICY), [
      { code: 'fever', field: 'post/temperatureC', value: 37.8, threshold: 37.8 },
    ]);
  });

  it('flags an effective duration more than 15 minutes short of the prescription, and a Qb below 250 mL/min', () => {
    assert.deepEqual(codes({ ...calm, effectiveMinutes: 225 }), []);
    assert.deepEqual(clinicalFlags({ ...calm, effectiveMinutes: 224 }, DEFAULT_CLINICAL_POLICY), [
      { code: 'duration-short', field: 'effectiveMinutes', value: 224, threshold: 225 },
    ]);
    assert.deepEqual(codes(reading(1, { qbMlMin: 250 })), []);
    assert.deepEqual(clinicalFlags(reading(1, { qbMlMin: 249 }), DEFAULT_CLINICAL_POLICY), [
      { code: 'qb-low', field: 'readings/1/qbMlMin', value: 249, threshold: 250 },
    ]);
  });

  it('flags spKt/V below the policy minimum and URR below 65 %', () => {
    assert.deepEqual(codes(withDerived({ spKtV: 1.2, urrPercent: 65 })), []);
    assert.deepEqual(clinicalFlags(withDerived({ spKtV: 1.19, urrPercent: 64.9 }), DEFAULT_CLINICAL_POLICY), [
      { code: 'ktv-below-minimum', field: 'spKtV', value: 1.19, threshold: 1.2 },
      { code: 'urr-below-minimum', field: 'urrPercent', value: 64.9, threshold: 65 },
    ]);
  });

  it('never flags what was not measured', () => {
    const empty = derivedValues({
      prescription: null,
      pre: null,
      post: null,
      previousNetPostWeightKg: null,
      effectiveMinutes: null,
      accessKind: null,
    });
    assert.deepEqual(
      clinicalFlags(
        { prescription: null, pre: null, post: null, readings: [{}], effectiveMinutes: null, derived: empty },
        DEFAULT_CLINICAL_POLICY,
      ),
      [],
    );
  });

  it('judges the derived values of a recorded session (URR 45 / 70 = 64.3 %)', () => {
    const values = derivedValues({
      prescription: { durationMinutes: 240, dryWeightKg: 70 },
      pre: { scaleWeightKg: 73, preBunMgDl: 70 },
      post: { scaleWeightKg: 70, machineUfMl: 3000, postBunMgDl: 25 },
      previousNetPostWeightKg: 70.5,
      effectiveMinutes: 240,
      accessKind: 'fistula',
    });
    assert.deepEqual(codes({ ...calm, derived: values }), ['urr-below-minimum']);
  });
});
