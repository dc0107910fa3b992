// The few answers sign-in gives on failure: deliberately generic, so they tell an attacker nothing.
import { ProblemError } from '../../problems.js';

export const invalidCredentials = (): ProblemError =>
  new ProblemError(401, 'invalid-credentials', 'Unauthorized', 'The e-mail or password is not correct');

export const invalidChallenge = (): ProblemError =>
  new ProblemError(401, 'invalid-challenge', 'Unauthorized', 'The sign-in challenge is unknown, used, expired or exhausted; sign in again');

export const invalidCode = (): ProblemError => new ProblemError(401, 'invalid-code', 'Unauthorized', 'The code is not valid');

export const invalidRefreshToken = (): ProblemError =>
  new ProblemError(401, 'invalid-refresh-token', 'Unauthorized', 'The refresh token is not valid; sign in again');
