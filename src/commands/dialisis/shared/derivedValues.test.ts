// The derived values of one session, with each input a nurse records, and why a value is missing when it is.
import assert from 'node:assert/strict';
import { derivedValues, type SessionClinicalInput } from './derivedValues.js';

const roundTo2 = (v: number): number => Math.round(v * 100) / 100;

// Net pre 75.0 - 1.5 - 0.5 = 73.0 kg; net post 72.0 - 1.5 - 0.5 = 70.0 kg; dry weight 70 kg; 240 effective minutes.
const session: SessionClinicalInput = {
  prescription: { durationMinutes: 240, dryWeightKg: 70, frequencyPerWeek: 3 },
  pre: { scaleWeightKg: 75, wheelchairKg: 1.5, clothesKg: 0.5, fluidsToGiveL: 0.3, preBunMgDl: 70 },
  post: { scaleWeightKg: 72, wheelchairKg: 1.5, clothesKg: 0.5, machineUfMl: 3100, postBunMgDl: 25 },
  previousNetPostWeightKg: 70.5,
  effectiveMinutes: 240,
  accessKind: 'fistula',
  // Monday's end to Wednesday's start: the short interval.
  interdialyticHours: 44,
};

describe('derived values of a session', () => {
  it('computes weights, fluid balance, UF rate and urea kinetics of a complete session', () => {
    assert.deepEqual(derivedValues(session), {
      netPreWeightKg: 73,
      netPostWeightKg: 70,
      // IDWG = 73.0 - 70.5 = 2.5 kg, 2.5 / 70 = 3.57 % of the dry weight.
      idwgKg: 2.5,
      idwgPercentOfDryWeight: 3.6,
      interdialyticHours: 44,
      // UF goal = 73.0 - 70 + 0.3 = 3.3 L.
      ufGoalL: 3.3,
      achievedUfL: 3,
      machineUfL: 3.1,
      // 3.0 - 3.1 = -0.1 L, -0.1 / 3.1 = -3.2 %.
      ufDifferenceL: -0.1,
      ufDifferencePercent: -3.2,
      // UF rate example: 3,000 mL / 70 kg / 4 h = 10.71 mL/kg/h (renalcarematters.com UFR guide: normalise to post weight).
      ufRateMlKgH: 10.7,
      // URR = 45 / 70 = 64.29 %.
      urrPercent: 64.3,
      // spKt/V = -ln(0.357143 - 0.032) + 2.75 x 3.0 / 70 = 1.123491 + 0.117857 = 1.241348;
      // eKt/V = 1.241348 - 0.6 x 1.241348 / 4 + 0.03 = 1.085146.
      spKtV: 1.24,
      eKtV: 1.09,
      longInterval: false,
      // stdKt/V (FHN / Leypoldt), thrice weekly: 1 - e^-1.085146 = 0.662147; / 1.085146 = 0.610192; 10080 x 0.662147 / 240
      // = 27.810191; / (0.610192 + 10080 / 720 - 1 = 13.610192) = 2.043336.
      stdKtV: 2.04,
      // nPCR mid-week (interval unknown): 70 / (25.8 + 1.15 x 1.241348 + 56.4 / 1.241348 = 72.662037) + 0.168 = 1.131364.
      nPcrGKgDay: 1.13,
      notComputed: {},
    });
  });

  it('nPCR tells the long interval apart as the longInterval flag does: 51 h mid-week (two shifts apart) is short, 68 h long', () => {
    const sp = -Math.log(25 / 70 - 0.008 * 4) + ((4 - 3.5 * (25 / 70)) * 3) / 70;
    const npcr = ([a, b, c]: number[]): number => roundTo2(70 / (a! + b! * sp + c! / sp) + 0.168);
    const midWeek = derivedValues({ ...session, interdialyticHours: 51 });
    assert.deepEqual([midWeek.longInterval, midWeek.nPcrGKgDay], [false, npcr([25.8, 1.15, 56.4])]);
    const weekend = derivedValues({ ...session, interdialyticHours: 68 });
    assert.deepEqual([weekend.longInterval, weekend.nPcrGKgDay], [true, npcr([36.3, 5.48, 53.5])]);
    // Twice weekly: Monday to Thursday (68 h) is its short interval, Thursday to Monday (92 h) its long one.
    const twice = { ...session, prescription: { ...session.prescription!, frequencyPerWeek: 2 } };
    assert.equal(
      derivedValues({ ...twice, interdialyticHours: 68 }).nPcrGKgDay,
      derivedValues({ ...twice, interdialyticDays: 3 }).nPcrGKgDay,
    );
    assert.equal(
      derivedValues({ ...twice, interdialyticHours: 92 }).nPcrGKgDay,
      derivedValues({ ...twice, interdialyticDays: 4 }).nPcrGKgDay,
    );
  });

  it('twice weekly: stdKt/V with the residual urea clearance recorded on the prescription, nPCR after the 3-day interval', () => {
    const kru = { mlMin: 3, measuredOn: '2025-03-01' };
    const twice = { ...session, prescription: { ...session.prescription!, frequencyPerWeek: 2, residualUreaClearance: kru } };
    const values = derivedValues({ ...twice, interdialyticDays: 3 });
    // Dialysis alone: 27.810191 / (0.610192 + 10080 / 480 - 1 = 20.610192) = 1.349342; residual 3 x 10080 / (0.55 x 70 x 1000)
    // = 0.785455; total 2.134796: above the KDOQI 2015 minimum 2.1, below the target 2.3.
    // nPCR: 70 / (33 + 3.6 x 1.241348 + 83.2 / 1.241348 = 104.492777) + 0.168 = 0.837903.
    assert.deepEqual([values.stdKtV, values.nPcrGKgDay], [2.13, 0.84]);
    assert.equal(derivedValues({ ...session, prescription: { ...twice.prescription, residualUreaClearance: null } }).stdKtV, 1.35);
    const unknownInterval = derivedValues({ ...twice, interdialyticHours: null });
    assert.deepEqual([unknownInterval.nPcrGKgDay, unknownInterval.notComputed.nPcrGKgDay], [null, 'interdialytic-interval-unknown']);
    const noFrequency = derivedValues({ ...session, prescription: { durationMinutes: 240, dryWeightKg: 70 } });
    assert.deepEqual([noFrequency.stdKtV, noFrequency.notComputed.stdKtV], [null, 'frequency-missing']);
  });

  it('counts the intake during the session in the achieved UF and its rate', () => {
    const values = derivedValues({ ...session, post: { ...session.post!, intakeL: 0.2 } });
    // Achieved = 73.0 - 70.0 + 0.2 = 3.2 L, now what the machine counted (3.1) + 0.1; 3,200 / 70 / 4 = 11.43 mL/kg/h.
    assert.deepEqual([values.achievedUfL, values.ufDifferenceL, values.ufDifferencePercent, values.ufRateMlKgH], [3.2, 0.1, 3.2, 11.4]);
    // Kt/V's UF stays the weight lost (3.0 L), as Daugirdas defines it.
    assert.equal(values.spKtV, 1.24);
  });

  it('nets weights without tare when no wheelchair or clothes were weighed, and uses the catheter rate equation', () => {
    const values = derivedValues({
      ...session,
      pre: { scaleWeightKg: 73, preBunMgDl: 70 },
      post: { scaleWeightKg: 70, machineUfMl: 3000, postBunMgDl: 25 },
      accessKind: 'catheter',
    });
    // eKt/V (catheter) = 1.241348 - 0.47 x 1.241348 / 4 + 0.02 = 1.115490.
    assert.deepEqual([values.netPreWeightKg, values.netPostWeightKg, values.ufGoalL, values.eKtV], [73, 70, 3, 1.12]);
  });

  it('says why each value is missing: no post block yet, no previous session, no time, no access', () => {
    const values = derivedValues({
      ...session,
      post: null,
      previousNetPostWeightKg: null,
      effectiveMinutes: null,
      interdialyticHours: null,
    });
    assert.deepEqual(
      [values.netPreWeightKg, values.ufGoalL, values.idwgKg, values.achievedUfL, values.ufRateMlKgH, values.spKtV],
      [73, 3.3, null, null, null, null],
    );
    assert.deepEqual(values.notComputed, {
      netPostWeightKg: 'post-missing',
      idwgKg: 'previous-post-weight-missing',
      idwgPercentOfDryWeight: 'previous-post-weight-missing',
      interdialyticHours: 'previous-post-weight-missing',
      achievedUfL: 'post-missing',
      machineUfL: 'post-missing',
      ufDifferenceL: 'post-missing',
      ufDifferencePercent: 'post-missing',
      ufRateMlKgH: 'post-missing',
      urrPercent: 'post-missing',
      spKtV: 'post-missing',
      eKtV: 'post-missing',
      stdKtV: 'post-missing',
      nPcrGKgDay: 'post-missing',
    });
    const untimed = derivedValues({ ...session, effectiveMinutes: null, accessKind: null });
    assert.deepEqual(untimed.notComputed, {
      ufRateMlKgH: 'treatment-time-missing',
      spKtV: 'treatment-time-missing',
      eKtV: 'treatment-time-missing',
      stdKtV: 'treatment-time-missing',
      nPcrGKgDay: 'treatment-time-missing',
    });
    assert.equal(untimed.urrPercent, 64.3);
    assert.deepEqual(derivedValues({ ...session, accessKind: null }).notComputed, { eKtV: 'access-unknown', stdKtV: 'access-unknown' });
    assert.deepEqual(derivedValues({ ...session, prescription: null }).notComputed, {
      idwgPercentOfDryWeight: 'prescription-missing',
      ufGoalL: 'prescription-missing',
      stdKtV: 'frequency-missing',
      nPcrGKgDay: 'frequency-missing',
    });
  });

  it('keeps the guards of the BUN pair and of a machine that counted nothing', () => {
    const noPostBun = derivedValues({ ...session, post: { ...session.post!, postBunMgDl: undefined } });
    assert.deepEqual(noPostBun.notComputed, {
      urrPercent: 'bun-missing',
      spKtV: 'bun-missing',
      eKtV: 'bun-missing',
      stdKtV: 'bun-missing',
      nPcrGKgDay: 'bun-missing',
    });
    const noReduction = derivedValues({ ...session, post: { ...session.post!, postBunMgDl: 70 } });
    assert.equal(noReduction.notComputed.spKtV, 'post-bun-not-below-pre');
    const tooLow = derivedValues({ ...session, pre: { ...session.pre!, preBunMgDl: 1000 }, post: { ...session.post!, postBunMgDl: 25 } });
    // R = 0.025 < 0.008 x 4: URR is still a number (97.5 %), Kt/V is not.
    assert.deepEqual([tooLow.urrPercent, tooLow.spKtV, tooLow.notComputed.spKtV], [97.5, null, 'bun-ratio-below-time-term']);
    const machineZero = derivedValues({ ...session, post: { ...session.post!, machineUfMl: 0 } });
    assert.deepEqual([machineZero.ufDifferenceL, machineZero.notComputed], [3, { ufDifferencePercent: 'machine-uf-zero' }]);
  });

  describe('plausibility (issue 21 items 1, 2 and 6)', () => {
    const policy = { kineticsMinimumMinutes: 120, idwgWindowDays: 4 };

    it("given the machine's effective minutes, when derived, then they are the treatment time", () => {
      const values = derivedValues({ ...session, post: { ...session.post!, machineEffectiveMinutes: 225 } });
      // t = 3.75 h: spKt/V = -ln(0.357143 - 0.03) + 2.75 x 3.0 / 70 = 1.117595 + 0.117857 = 1.235452.
      const sp = -Math.log(25 / 70 - 0.008 * 3.75) + ((4 - 3.5 * (25 / 70)) * 3) / 70;
      assert.deepEqual([values.spKtV, values.eKtV, values.ufRateMlKgH], [roundTo2(sp), roundTo2(sp - (0.6 * sp) / 3.75 + 0.03), 11.4]);
    });

    it("given the machine's effective minutes, when derived, then stdKt/V takes them too, as the eKt/V it comes from", () => {
      const values = derivedValues({ ...session, post: { ...session.post!, machineEffectiveMinutes: 180 } });
      // FHN/Leypoldt at t = 180 min, thrice weekly, from the eKt/V of the same 3 h (not the 240 min of the clock).
      const sp = -Math.log(25 / 70 - 0.008 * 3) + ((4 - 3.5 * (25 / 70)) * 3) / 70;
      const e = sp - (0.6 * sp) / 3 + 0.03;
      const removed = 1 - Math.exp(-e);
      assert.equal(values.stdKtV, roundTo2((10080 * removed) / 180 / (removed / e + 10080 / (3 * 180) - 1)));
    });

    it('given 1 effective minute, when derived, then URR, Kt/V and UF rate are withheld as short-session', () => {
      const values = derivedValues({ ...session, effectiveMinutes: 1, plausibility: policy });
      assert.deepEqual([values.urrPercent, values.spKtV, values.eKtV, values.ufRateMlKgH], [null, null, null, null]);
      assert.deepEqual(values.notComputed, {
        urrPercent: 'short-session',
        spKtV: 'short-session',
        eKtV: 'short-session',
        ufRateMlKgH: 'short-session',
        // stdKt/V and nPCR come from the Kt/V: withheld with it (issue 21 item 5).
        stdKtV: 'short-session',
        nPcrGKgDay: 'short-session',
      });
      // At the minimum it is computed.
      assert.equal(derivedValues({ ...session, effectiveMinutes: 120, plausibility: policy }).notComputed.spKtV, undefined);
    });

    it('given an interrupted session, when derived, then URR and Kt/V are withheld and the UF rate kept', () => {
      const values = derivedValues({ ...session, effectiveMinutes: 180, interrupted: true, plausibility: policy });
      const withheld = { urrPercent: 'interrupted', spKtV: 'interrupted', eKtV: 'interrupted' };
      assert.deepEqual(values.notComputed, { ...withheld, stdKtV: 'interrupted', nPcrGKgDay: 'interrupted' });
      // 3,000 mL / 70 kg / 3 h = 14.29 mL/kg/h.
      assert.equal(values.ufRateMlKgH, 14.3);
    });

    it('given the previous session beyond the window, when derived, then no IDWG, the interval shown and told long', () => {
      const late = derivedValues({ ...session, interdialyticHours: 4 * 24 + 1, plausibility: policy });
      assert.deepEqual(
        [late.idwgKg, late.notComputed.idwgKg, late.interdialyticHours, late.longInterval],
        [null, 'previous-session-too-long-ago', 97, true],
      );
      const weekend = derivedValues({ ...session, interdialyticHours: 68, plausibility: policy });
      assert.deepEqual([weekend.idwgKg, weekend.longInterval], [2.5, true]);
    });
  });
});
