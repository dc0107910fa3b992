// The few answers sign-in gives on failure: deliberately generic, so they tell an attacker nothing.
import { ProblemError, tooManyRequests } from '../../problems.js';
import { DomainError } from '../decider.js';

export const invalidCredentials = (): ProblemError =>
  new ProblemError(401, 'invalid-credentials', 'Unauthorized', 'The e-mail or password is not correct');

export const invalidChallenge = (): ProblemError =>
  new ProblemError(401, 'invalid-challenge', 'Unauthorized', 'The sign-in challenge is unknown, used, expired or exhausted; sign in again');

export const invalidCode = (): ProblemError => new ProblemError(401, 'invalid-code', 'Unauthorized', 'The code is not valid');

export const invalidRefreshToken = (): ProblemError =>
  new ProblemError(401, 'invalid-refresh-token', 'Unauthorized', 'The refresh token is not valid; sign in again');

/** A throttled attempt (the deciders' `sign-in-throttled`) answers 429 with the wait its decider computed. */
export async function throttledAs429<T>(attempt: Promise<T>): Promise<T> {
  try {
    return await attempt;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'sign-in-throttled') {
      throw tooManyRequests(Number(err.details?.retryAfterSeconds ?? 1), `${err.message[0]!.toUpperCase()}${err.message.slice(1)}`);
    }
    throw err;
  }
}
