// updatedSince as stamps compare it: any offset is the same instant in UTC, a fraction finer than the stamps' milliseconds
// rounds up (a stamp before it is never taken as at or after it), and entries kept in memory compare the same way.
import assert from 'node:assert/strict';
import { changedSince, occurredSince, stampOf } from './changedSince.js';
import { ProblemError } from '../problems.js';

describe('updatedSince as the stamps compare it', () => {
  it('spells an instant with any offset as the stamps do (UTC, milliseconds)', () => {
    assert.equal(stampOf('2026-11-26T11:00:00+01:00'), '2026-11-26T10:00:00.000Z');
    assert.equal(stampOf('2026-11-26T10:00:00.5Z'), '2026-11-26T10:00:00.500Z');
    assert.deepEqual(changedSince('2026-11-26T10:00:00Z'), { _changedAt: { $gte: '2026-11-26T10:00:00.000Z' } });
    assert.deepEqual(changedSince(undefined), {});
  });

  it('rounds a finer fraction up, so a stamp just before the instant stays out', () => {
    assert.equal(stampOf('2026-11-26T10:00:00.1231Z'), '2026-11-26T10:00:00.124Z');
    assert.equal(stampOf('2026-11-26T10:00:00.1230000Z'), '2026-11-26T10:00:00.123Z');
    const since = occurredSince('2026-11-26T10:00:00.1231Z');
    assert.equal(since('2026-11-26T10:00:00.123Z'), false);
    assert.equal(since('2026-11-26T10:00:00.124Z'), true);
    assert.equal(since(undefined), false);
    assert.equal(occurredSince(undefined)(undefined), true);
  });

  it('answers a leap second, which passes the date-time format, with a 422 naming the parameter', () => {
    assert.throws(
      () => stampOf('2026-12-31T23:59:60Z'),
      (e: unknown) => e instanceof ProblemError && e.status === 422 && e.errors?.[0]?.pointer === '/query/updatedSince',
    );
  });
});
