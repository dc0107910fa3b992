// The preventive maintenance plan and the may-start verdict, as the decider and the floor query both use them.
import assert from 'node:assert/strict';
import { DEFAULT_POLICY } from '../../empresas/shared/policySettings.js';
import { maintenanceDue, maintenancePolicyOf, planFor, startVerdict } from './startRules.js';

const basis = { hourMeter: 0, pmBaseDate: '2025-01-01', pmBaseHours: 0 };
const at = '2025-03-01T10:00:00.000Z';

describe('machine start rules', () => {
  it('takes the plan of the model when the policy has one, else the general plan', () => {
    const maintenance = {
      ...DEFAULT_POLICY.maintenance,
      modelOverrides: [{ model: '5008S', preventiveEveryHours: 500, preventiveEveryDays: null }],
    };
    assert.deepEqual(planFor(maintenance, ' 5008s '), { preventiveEveryHours: 500, preventiveEveryDays: null, calibrationEveryDays: 30 });
    assert.deepEqual(planFor(maintenance, '4008S'), { preventiveEveryHours: 1500, preventiveEveryDays: 180, calibrationEveryDays: 30 });
    const policy = maintenancePolicyOf({ revision: 7, settings: { ...DEFAULT_POLICY, maintenance } }, '5008S');
    assert.deepEqual(policy, {
      preventiveEveryHours: 500,
      preventiveEveryDays: null,
      calibrationEveryDays: 30,
      overdueMode: 'block',
      revision: 7,
      dedicatedMachineFor: ['HBV'],
    });
  });

  it('is due by hours or by days, whichever comes first', () => {
    const plan = { preventiveEveryHours: 100, preventiveEveryDays: 30 };
    assert.deepEqual(maintenanceDue({ ...basis, hourMeter: 60 }, plan, '2025-01-20T00:00:00Z'), {
      hoursLeft: 40,
      dueDate: '2025-01-31',
      overdue: false,
    });
    assert.equal(maintenanceDue({ ...basis, hourMeter: 100 }, plan, '2025-01-20T00:00:00Z').overdue, true);
    assert.equal(maintenanceDue(basis, plan, '2025-01-31T23:00:00Z').overdue, false);
    assert.equal(maintenanceDue(basis, plan, '2025-02-01T00:00:00Z').overdue, true);
    assert.deepEqual(
      maintenanceDue({ ...basis, hourMeter: 5000 }, { preventiveEveryHours: null, preventiveEveryDays: 30 }, at).hoursLeft,
      null,
    );
    // After a maintenance the plan counts from it.
    assert.equal(maintenanceDue({ hourMeter: 150, pmBaseDate: '2025-02-20', pmBaseHours: 120 }, plan, at).overdue, false);
  });

  it('gives every reason at once, and only warns about overdue maintenance under warn', () => {
    const machine = { ...basis, hourMeter: 2000, status: 'in-use' as const, isolation: 'HBV' as const };
    const block = {
      preventiveEveryHours: 1500,
      preventiveEveryDays: 180,
      overdueMode: 'block' as const,
      revision: 1,
      dedicatedMachineFor: ['HBV', 'HCV'],
    };
    const verdict = startVerdict(machine, { isolation: ['HCV'] }, block, at);
    assert.deepEqual(
      verdict.reasons.map((r) => r.code),
      ['not-available', 'maintenance-overdue', 'isolation-machine', 'isolation-patient'],
    );
    const warned = startVerdict(
      { ...machine, status: 'available', isolation: 'none' },
      { isolation: [] },
      { ...block, overdueMode: 'warn' },
      at,
    );
    assert.deepEqual([warned.allowed, warned.warnings.map((w) => w.code)], [true, ['maintenance-overdue']]);
  });
});
