// Periodic tasks run once at start, then again after each run; a failed run is logged and the next one still comes.
import assert from 'node:assert/strict';
import { startPeriodicTasks } from '../../src/processes/periodicTasks.js';
import { dialisisGroup } from '../../src/http/routes/dialisis/index.js';
import { SESSION_CLAIMS_RECONCILIATION } from '../../src/commands/dialisis/session/equipmentClaimsReconciliation.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('periodic tasks', () => {
  it('run at start and then periodically, survive a failing run, and stop', async () => {
    let runs = 0;
    const errors: string[] = [];
    const logger = { ...silent, error: (msg: string) => errors.push(msg) };
    const task = {
      name: 'count',
      everyMs: 10,
      run: async () => {
        runs++;
        if (runs === 2) throw new Error('boom');
      },
    };
    const runner = startPeriodicTasks({ logger, services: () => ({}) }, [task]);
    await pause(5);
    assert.equal(runs, 1);
    await pause(60);
    await runner.stop();
    const after = runs;
    assert.ok(after >= 3, `ran ${after} times`);
    assert.deepEqual(errors.slice(0, 1), ['periodic task failed']);
    await pause(30);
    assert.equal(runs, after);
  });

  it('the Dialisis group runs the reconciliation of orphaned session claims', () => {
    assert.ok(dialisisGroup.periodicTasks?.some((task) => task.name === SESSION_CLAIMS_RECONCILIATION));
  });
});
