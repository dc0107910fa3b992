// The few answers sign-in gives on failure: deliberately generic, so they tell an attacker nothing.
import { ProblemError, tooManyRequests } from '../../problems.js';
import { DomainError } from '../decider.js';
import { LIMITS } from '../../limits.js';
import { observeRateLimit, rateLimitFields, type RateLimitLog, type RateLimitObservation, type RateLimitPolicy } from '../../rateLimits.js';

/** The per-account throttles of the deciders, as the RateLimit headers of their 429 name them. */
export const ACCOUNT_POLICIES = {
  failedSignIns: { name: 'sign-in-account', quota: LIMITS.throttling.login.accountMaxFailuresPerHour, windowSeconds: 3600 },
  openChallenges: { name: 'open-challenges', quota: LIMITS.challenge.maxOpenPerUser },
  wrongCodes: {
    name: 'code-user',
    quota: LIMITS.throttling.verify2fa.userFailuresPerWindow,
    windowSeconds: LIMITS.throttling.verify2fa.windowSeconds,
  },
} satisfies Record<string, RateLimitPolicy>;

const policyOf = (message: string): RateLimitPolicy =>
  /challenges/.test(message)
    ? ACCOUNT_POLICIES.openChallenges
    : /codes/.test(message)
      ? ACCOUNT_POLICIES.wrongCodes
      : ACCOUNT_POLICIES.failedSignIns;

export const invalidCredentials = (): ProblemError =>
  new ProblemError(401, 'invalid-credentials', 'Unauthorized', 'The e-mail or password is not correct');

export const invalidChallenge = (): ProblemError =>
  new ProblemError(401, 'invalid-challenge', 'Unauthorized', 'The sign-in challenge is unknown, used, expired or exhausted; sign in again');

export const invalidCode = (): ProblemError => new ProblemError(401, 'invalid-code', 'Unauthorized', 'The code is not valid');

export const invalidRefreshToken = (): ProblemError =>
  new ProblemError(401, 'invalid-refresh-token', 'Unauthorized', 'The refresh token is not valid; sign in again');

/** A throttled attempt (the deciders' `sign-in-throttled`) answers 429 with the wait its decider computed. */
export async function throttledAs429<T>(attempt: Promise<T>, log: RateLimitLog | undefined): Promise<T> {
  try {
    return await attempt;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'sign-in-throttled') {
      const own: RateLimitLog = log ?? new Map<string, RateLimitObservation>();
      observeRateLimit(own, policyOf(err.message), 0, Number(err.details?.retryAfterSeconds ?? 1));
      const problem = tooManyRequests(
        Number(err.details?.retryAfterSeconds ?? 1),
        `${err.message[0]!.toUpperCase()}${err.message.slice(1)}`,
      );
      // Without the request's log (a write reached from a command context), the 429 carries its own fields.
      if (!log) Object.assign(problem.headers, rateLimitFields([...own.values()]));
      throw problem;
    }
    throw err;
  }
}
