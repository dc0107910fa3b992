// Given session events / when a back-entered session starts or ends / then (issue 21 item 1): which stated starts are
// history, which machine reasons still hold for them, and that such a session ends only at a stated instant.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { endsBeforeHolder, historyMachineReasons, isBackEntry } from './backEntry.js';
import { sessionDecider } from './sessionDecider.js';
import { active, cmd, dryWeight, equipment, plus, prescription, ready, reading, safety, T0 } from './sessionTestEvents.js';

const given = scenario(sessionDecider);
const NOW = plus(600);

describe('back-entry of a past session', () => {
  it('is history when of a past date with a stated start, or stated to begin before the machine holder took it', () => {
    const holder = { sessionId: 'other', startedAt: plus(300) };
    assert.equal(isBackEntry(T0, true, null, 's1'), true);
    assert.equal(isBackEntry(undefined, true, holder, 's1'), false);
    assert.equal(isBackEntry(T0, false, holder, 's1'), true);
    assert.equal(isBackEntry(plus(310), false, holder, 's1'), false);
    assert.equal(isBackEntry(T0, false, { ...holder, sessionId: 's1' }, 's1'), false);
    assert.equal(isBackEntry(T0, false, null, 's1'), false);
  });

  it("ends before the machine's current patient began, or when nobody else holds the machine", () => {
    const holder = { sessionId: 'other', startedAt: plus(300) };
    assert.equal(endsBeforeHolder(plus(240), holder, 's1'), true);
    assert.equal(endsBeforeHolder(plus(301), holder, 's1'), false);
    assert.equal(endsBeforeHolder(plus(301), null, 's1'), true);
    assert.equal(endsBeforeHolder(plus(301), { ...holder, sessionId: 's1' }, 's1'), true);
  });

  it('is refused by isolation, calibration and maintenance, never by what the machine does now', () => {
    const reasons = ['not-available', 'awaiting-disinfection', 'isolation-machine', 'maintenance-overdue'];
    assert.deepEqual(historyMachineReasons(reasons, 'in-use'), ['isolation-machine', 'maintenance-overdue']);
    assert.deepEqual(historyMachineReasons(['not-available'], 'out-of-service'), ['not-available']);
  });

  it('given a back-entered start, when ended without a stated instant, then 422 on endedAt; stated, it ends then; it changes no machine; of a past date it states its start', () => {
    const start = { ...equipment, prescription, dryWeight, patient: active, warnings: [], startedAt: T0, backEntry: true as const };
    const started = {
      type: 'SessionStarted' as const,
      data: { ...equipment, startedAt: T0, prescription, dryWeight, warnings: [], backEntry: true as const },
    };
    given(...ready)
      .when(cmd('StartSession', start, NOW))
      .then(started);
    // A session of a past date states when it began: never now.
    const late = { ...ready[0]!, data: { ...ready[0]!.data, lateEntryReason: 'Downtime' } } as (typeof ready)[number];
    const { startedAt: _s, backEntry: _b, ...unstated } = start;
    given(late, ...ready.slice(1))
      .when(cmd('StartSession', unstated, NOW))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e as never), ['startedAt']));
    given(...ready, started, reading(60))
      .when(cmd('EndSession', {}, NOW))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e as never), ['endedAt']));
    given(...ready, started, reading(60))
      .when(cmd('EndSession', { endedAt: plus(240) }, NOW))
      .then({ type: 'SessionEnded', data: { endedAt: plus(240), effectiveMinutes: 240 } });
    const change = { machineId: 'm2', reason: 'Blood leak', safetyChecks: safety };
    given(...ready, started)
      .when(cmd('ChangeMachine', change, NOW))
      .thenError('back-entry-machine-change');
  });
});
