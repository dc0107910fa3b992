import assert from 'node:assert/strict';
import { CompanyGate } from './companyGate.js';
import { ProblemError } from '../problems.js';

/** A job that finishes when told to. */
function held(): { promise: Promise<string>; finish(): void } {
  let finish!: () => void;
  const promise = new Promise<string>((resolve) => (finish = () => resolve('done')));
  return { promise, finish };
}

const limits = { perCompany: 2, queuedPerCompany: 1, queuedTotal: 2, retryAfterSeconds: 3 };

describe('CompanyGate', () => {
  it('lets a company have perCompany jobs at once, queues queuedPerCompany more, and refuses the next with 429', async () => {
    const gate = new CompanyGate(limits);
    const jobs = [held(), held(), held()];
    let started = 0;
    const runs = jobs.map((job) => gate.run('a', () => (started++, job.promise)));
    await Promise.resolve();
    assert.equal(started, 2);
    await assert.rejects(
      gate.run('a', () => Promise.resolve('never')),
      (err: ProblemError) => {
        assert.deepEqual([err.status, err.code, err.headers['Retry-After']], [429, 'too-many-requests', '3']);
        return true;
      },
    );
    // Another company is not held by the first one's queue.
    assert.equal(await gate.run('b', () => Promise.resolve('b ran')), 'b ran');
    jobs[0]!.finish();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(started, 3);
    jobs[1]!.finish();
    jobs[2]!.finish();
    assert.deepEqual(await Promise.all(runs), ['done', 'done', 'done']);
    assert.deepEqual(gate.stats(), { companies: 0, waiting: 0, peakPerCompany: 2 });
  });

  it('hands a finished place to the waiting job, never to a newcomer, and frees it when a job fails', async () => {
    const gate = new CompanyGate({ ...limits, queuedPerCompany: 5, queuedTotal: 5 });
    const first = held();
    const second = held();
    const a = gate.run('a', () => first.promise);
    const b = gate.run('a', () => Promise.reject(new Error('render failed')));
    const waiting = gate.run('a', () => second.promise);
    await assert.rejects(b, /render failed/);
    const newcomer = gate.run('a', () => Promise.resolve('late'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gate.stats().peakPerCompany, 2);
    first.finish();
    second.finish();
    assert.deepEqual(await Promise.all([a, waiting, newcomer]), ['done', 'done', 'late']);
  });

  it('answers 503 when queuedTotal jobs wait across companies', async () => {
    const gate = new CompanyGate({ perCompany: 1, queuedPerCompany: 1, queuedTotal: 2, retryAfterSeconds: 1 });
    const job = held();
    const runs = ['a', 'a', 'b', 'b', 'c'].map((company) => gate.run(company, () => job.promise));
    await assert.rejects(
      gate.run('c', () => job.promise),
      (err: ProblemError) => err.status === 503 && err.code === 'render-busy',
    );
    job.finish();
    await Promise.all(runs);
  });
});
