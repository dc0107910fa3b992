// Issue 28 item 1: kill -9 inside every multi-record operation. The real service, SIGKILLed at random moments while
// session starts and ends, transfers, serialized issues, registrations (racing ones too) and invitations are in flight,
// restarted on the same directory; after reconciliation every invariant holds, over at least 200 interrupted operations.
import assert from 'node:assert/strict';
import { runCrashHarness } from './crashHarness/harness.js';

describe('Crash harness: SIGKILL inside operations that span streams', function () {
  this.timeout(15 * 60_000);

  it('keeps every invariant over at least 200 interrupted operations', async () => {
    const lines: string[] = [];
    const report = await runCrashHarness({ rounds: 12, log: (l) => lines.push(l) });
    const violations = report.rounds.flatMap((r) => r.violations.map((v) => `round ${r.round}: ${v}`));
    assert.deepEqual(violations, [], `invariant violations (seed ${report.seed}):\n${lines.join('\n')}`);
    assert.ok(report.interrupted >= 200, `only ${report.interrupted} operations were interrupted in ${report.rounds.length} rounds`);
  });
});
