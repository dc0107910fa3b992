import assert from 'node:assert/strict';
import { createLogger } from '../logger.js';
import type { ProblemError } from '../problems.js';
import { RENDER_JOBS } from './renderJobs.js';
import { WorkerPool } from './workerPool.js';

const script = new URL('./renderWorker.ts', import.meta.url);
const logger = createLogger('silent');
const sheet = { generatedAt: 'not a date' };

describe('WorkerPool', function () {
  this.timeout(60_000);

  it('answers a failed job as an error and keeps its worker; an unknown job likewise', async () => {
    const pool = new WorkerPool({ script, size: 1, jobTimeoutMs: 30_000, logger });
    try {
      await assert.rejects(pool.run(RENDER_JOBS.sessionSheet, sheet), /render job session-sheet failed/);
      await assert.rejects(pool.run('no-such-job', {}), /unknown job no-such-job/);
      assert.deepEqual(pool.stats(), { size: 1, workers: 1, busy: 0, queued: 0, completed: 2 });
    } finally {
      await pool.close();
    }
  });

  it('abandons a job over its time limit with a 503, replaces the worker, and refuses jobs once closed', async () => {
    const pool = new WorkerPool({ script, size: 1, jobTimeoutMs: 1, logger });
    await assert.rejects(pool.run(RENDER_JOBS.sessionSheet, sheet), (err: ProblemError) => {
      assert.deepEqual([err.status, err.code, err.headers['Retry-After']], [503, 'render-unavailable', '5']);
      return true;
    });
    assert.equal(pool.stats().workers, 0);
    await pool.close();
    await assert.rejects(pool.run(RENDER_JOBS.sessionSheet, sheet), (err: ProblemError) => err.status === 503);
  });
});
