// The few answers sign-in gives on failure: deliberately generic, so they tell an attacker nothing.
import { HttpError } from '../../problems.js';

export const invalidCredentials = (): HttpError =>
  new HttpError(401, 'invalid-credentials', 'Unauthorized', 'The e-mail or password is not correct');

export const invalidChallenge = (): HttpError =>
  new HttpError(401, 'invalid-challenge', 'Unauthorized', 'The sign-in challenge is unknown, used, expired or exhausted; sign in again');

export const invalidCode = (): HttpError =>
  new HttpError(401, 'invalid-code', 'Unauthorized', 'The code is not valid');

export const invalidRefreshToken = (): HttpError =>
  new HttpError(401, 'invalid-refresh-token', 'Unauthorized', 'The refresh token is not valid; sign in again');
