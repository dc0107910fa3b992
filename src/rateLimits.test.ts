// Throttles report into the log they are handed (the request's), not into ambient per-async-context state.
import assert from 'node:assert/strict';
import { SlidingWindowLimiter } from './auth/slidingWindowLimiter.js';
import { throttledAs429 } from './commands/platform/signInProblems.js';
import { DomainError } from './commands/decider.js';
import { ProblemError } from './problems.js';
import { observeRateLimit, type RateLimitLog } from './rateLimits.js';

describe('rate-limit observations passed explicitly', () => {
  it('given two requests with their own logs, when each meets the limiter, then each log holds only its own observation', () => {
    const limiter = new SlidingWindowLimiter(3, 60_000, 'sign-in-address');
    const first: RateLimitLog = new Map();
    const second: RateLimitLog = new Map();
    limiter.hit('a', 0, first);
    limiter.hit('a', 1_000, second);
    assert.equal(first.get('sign-in-address')?.remaining, 2);
    assert.equal(second.get('sign-in-address')?.remaining, 1);
  });

  it('given no log, when a throttle observes, then nothing is kept and nothing fails', () => {
    assert.doesNotThrow(() => observeRateLimit(undefined, { name: 'x', quota: 1 }, 0, 1));
    assert.equal(new SlidingWindowLimiter(1, 1_000, 'x').hit('k', 0), 0);
  });

  it('given a throttled account outside a request log, when answered, then the 429 carries its own RateLimit fields', async () => {
    const throttled = Promise.reject(new DomainError('sign-in-throttled', 'too many wrong codes', 409, { retryAfterSeconds: 42 }));
    const problem = await throttledAs429(throttled, undefined).catch((e: unknown) => e);
    assert.ok(problem instanceof ProblemError);
    assert.equal(problem.status, 429);
    assert.match(problem.headers['RateLimit-Policy']!, /^"code-user";q=\d+;w=\d+$/);
    assert.equal(problem.headers['RateLimit'], '"code-user";r=0;t=42');
  });
});
