// Given a running session / when its machine is changed / then the change with the minutes the old machine ran.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { sessionDecider } from './sessionDecider.js';
import type { SessionEvent } from './sessionEvents.js';
import { cmd, ended, plus, ready, safety, started } from './sessionTestEvents.js';

const given = scenario(sessionDecider);
const change = (machineId: string, minute: number, over: Record<string, unknown> = {}) =>
  cmd('ChangeMachine', { machineId, reason: 'Blood leak alarm', safetyChecks: safety, ...over }, plus(minute));
const changed = (from: string, to: string, minute: number, minutesOnPrevious: number): SessionEvent => ({
  type: 'MachineChanged',
  data: {
    machineId: to,
    reason: 'Blood leak alarm',
    safetyChecks: safety,
    fromMachineId: from,
    changedAt: plus(minute),
    minutesOnPrevious,
  },
});

describe('machine change mid-session', () => {
  it('moves a running session to another machine; the old one ran the minutes so far', () => {
    given(...ready, started)
      .when(change('m2', 70))
      .then(changed('m1', 'm2', 70, 70));
    // A second change counts only the minutes on the machine it leaves.
    given(...ready, started, changed('m1', 'm2', 70, 70))
      .when(change('m3', 100))
      .then(changed('m2', 'm3', 100, 30));
  });

  it('refuses the same machine, a change without a reason, failed safety checks, and a session not running', () => {
    given(...ready, started)
      .when(change('m1', 70, { reason: ' ' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['machineId', 'reason']));
    given(...ready, started)
      .when(change('m2', 70, { safetyChecks: { ...safety, airDetectorTested: false } }))
      .thenError('safety-checks-failed', (e) => assert.deepEqual(e.details?.failed, ['airDetectorTested']));
    given(...ready, started, ended())
      .when(change('m2', 250))
      .thenError('session-status');
    given(...ready)
      .when(change('m2', 0))
      .thenError('session-status');
  });
});
