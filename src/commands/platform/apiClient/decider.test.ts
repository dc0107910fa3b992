import { command, given, T0 } from '../deciderSpec.js';
import { apiClientDecider, secretAccepted, type ApiClientCommand } from './decider.js';
import type { ApiClientEvent } from './events.js';
import assert from 'node:assert/strict';

const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const cmd = (type: ApiClientCommand['type'], data: unknown, minutes = 0) =>
  command<ApiClientCommand>(type, data as never, { aggregateId: 'k1', at: at(minutes) });
const created: ApiClientEvent = {
  type: 'ApiClientCreated',
  data: { clientId: 'k1', companyId: 'c1', name: 'Lab', roles: ['nurse'], secretHash: 'h1' },
};
const rotated: ApiClientEvent = { type: 'ApiClientSecretRotated', data: { secretHash: 'h2', previousValidUntil: at(60) } };
const issue = (hash: string, minutes: number) =>
  cmd('IssueApiClientToken', { presentedHash: hash, tokenId: 't', expiresAt: at(minutes + 10) }, minutes);

describe('API client decider', () => {
  it('creates a client once, with its roles sorted and unique', () => {
    given(apiClientDecider)
      .when(cmd('CreateApiClient', { companyId: 'c1', name: 'Lab', roles: ['nurse', 'nurse'], secretHash: 'h1' }))
      .then(created);
    given(apiClientDecider, created)
      .when(cmd('CreateApiClient', { companyId: 'c1', name: 'x', roles: ['nurse'], secretHash: 'h' }))
      .thenError('api-client-exists');
  });

  it('issues a token for the current secret, and for the previous one only within its grace period', () => {
    given(apiClientDecider, created)
      .when(issue('h1', 0))
      .then({ type: 'ApiClientTokenIssued', data: { tokenId: 't', expiresAt: at(10) } });
    given(apiClientDecider, created).when(issue('nope', 0)).thenError('invalid-client');
    given(apiClientDecider).when(issue('h1', 0)).thenError('invalid-client');
    given(apiClientDecider, created, rotated)
      .when(issue('h2', 5))
      .then({ type: 'ApiClientTokenIssued', data: { tokenId: 't', expiresAt: at(15) } });
    given(apiClientDecider, created, rotated)
      .when(issue('h1', 59))
      .then({ type: 'ApiClientTokenIssued', data: { tokenId: 't', expiresAt: at(69) } });
    given(apiClientDecider, created, rotated).when(issue('h1', 60)).thenError('invalid-client');
  });

  it('rotates with a grace period (or none), and revokes for good', () => {
    given(apiClientDecider, created)
      .when(cmd('RotateApiClientSecret', { secretHash: 'h2', graceSeconds: 3600 }))
      .then({ type: 'ApiClientSecretRotated', data: { secretHash: 'h2', previousValidUntil: at(60) } });
    const now: ApiClientEvent = { type: 'ApiClientSecretRotated', data: { secretHash: 'h2', previousValidUntil: null } };
    given(apiClientDecider, created)
      .when(cmd('RotateApiClientSecret', { secretHash: 'h2', graceSeconds: 0 }))
      .then(now);
    given(apiClientDecider, created, now).when(issue('h1', 0)).thenError('invalid-client');
    const revoked: ApiClientEvent = { type: 'ApiClientRevoked', data: { at: at(1) } };
    given(apiClientDecider, created)
      .when(cmd('RevokeApiClient', {}, 1))
      .then(revoked);
    given(apiClientDecider, created, revoked)
      .when(cmd('RevokeApiClient', {}, 2))
      .thenNothing();
    given(apiClientDecider, created, revoked).when(issue('h1', 2)).thenError('invalid-client');
    given(apiClientDecider, created, revoked)
      .when(cmd('RotateApiClientSecret', { secretHash: 'h3', graceSeconds: 0 }))
      .thenError('api-client-revoked');
    assert.equal(secretAccepted(given(apiClientDecider, created, revoked).state, 'h1', at(0)), false);
  });
});
