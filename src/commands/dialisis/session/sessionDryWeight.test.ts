// One dry weight (issue 21 item 4): given a ready session / when it starts with the patient's dry weight in force on its
// date / then the session records that value (and its effective date) and its prescription snapshot carries no other.
import assert from 'node:assert/strict';
import { scenario } from '../../givenWhenThen.js';
import { dryWeightInForce } from '../../pacientes/patientState.js';
import { sessionDecider } from './sessionDecider.js';
import { active, cmd, equipment, prescription, ready, T0 } from './sessionTestEvents.js';

const given = scenario(sessionDecider);

describe('session: one dry weight', () => {
  it('picks the dry weight in force on a day: the latest effective on or before it, of one day the last recorded', () => {
    const dryWeights = [
      { dryWeightKg: 62.5, effectiveDate: '2024-11-04' },
      { dryWeightKg: 61.5, effectiveDate: '2025-04-01' },
      { dryWeightKg: 61, effectiveDate: '2025-02-01' },
      { dryWeightKg: 61.2, effectiveDate: '2025-02-01' },
    ];
    assert.equal(dryWeightInForce({ dryWeights }, '2024-11-03'), null);
    assert.equal(dryWeightInForce({ dryWeights }, '2025-01-31')?.dryWeightKg, 62.5);
    assert.equal(dryWeightInForce({ dryWeights }, '2025-03-03')?.dryWeightKg, 61.2);
    assert.equal(dryWeightInForce({ dryWeights }, '2025-04-01')?.dryWeightKg, 61.5);
  });

  it("given a ready session, when it starts, then it records the patient's dry weight in force, not the prescription's", () => {
    const inForce = { dryWeightKg: 68.5, effectiveDate: '2025-03-02' };
    const start = cmd('StartSession', { ...equipment, prescription, dryWeight: inForce, patient: active, warnings: [] });
    given(...ready)
      .when(start)
      .then({
        type: 'SessionStarted',
        data: { ...equipment, startedAt: T0, prescription: { ...prescription, dryWeightKg: 68.5 }, dryWeight: inForce, warnings: [] },
      });
  });

  it('given a patient without a dry weight in force on the date, when the session starts, then it is refused naming it', () => {
    const start = cmd('StartSession', { ...equipment, prescription, dryWeight: null, patient: active, warnings: [] });
    given(...ready)
      .when(start)
      .thenError('no-dry-weight-in-force', (e) => assert.deepEqual(e.details?.reasons, ['no-dry-weight-in-force']));
  });
});
