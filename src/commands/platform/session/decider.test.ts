import assert from 'node:assert/strict';
import { command, given, T0 } from '../deciderSpec.js';
import { sessionDecider, sessionExpiry, type SessionCommand } from './decider.js';
import type { SessionEvent } from './events.js';

const minutes = (n: number) => new Date(Date.parse(T0) + n * 60_000).toISOString();
const cmd = (type: SessionCommand['type'], data: unknown, at = T0) =>
  command<SessionCommand>(type, data as never, { at, aggregateId: 's1' });
const startData = {
  userId: 'u1',
  email: 'ana@clinic.example',
  platformAdmin: false,
  challengeId: 'ch1',
  refreshTokenHash: 'h0',
  startedAt: T0,
  expiresAt: minutes(12 * 60),
  idleTimeoutSeconds: 30 * 60,
};
const started: SessionEvent = { type: 'SessionStarted', data: { sessionId: 's1', ...startData } };
const refreshed = (hash: string, at: string): SessionEvent => ({ type: 'SessionRefreshed', data: { refreshTokenHash: hash, at } });

describe('session decider', () => {
  it('starts once', () => {
    given(sessionDecider).when(cmd('StartSession', startData)).then(started);
    given(sessionDecider, started).when(cmd('StartSession', startData)).thenError('session-exists');
  });

  it('records the selected company', () => {
    given(sessionDecider, started)
      .when(cmd('SelectCompany', { companyId: 'c1' }, minutes(1)))
      .then({ type: 'CompanySelected', data: { companyId: 'c1' } });
  });

  it('rotates the refresh token', () => {
    given(sessionDecider, started)
      .when(cmd('RefreshSession', { presentedHash: 'h0', newHash: 'h1' }, minutes(10)))
      .then(refreshed('h1', minutes(10)));
    given(sessionDecider, started)
      .when(cmd('RefreshSession', { presentedHash: 'forged', newHash: 'h1' }))
      .thenError('refresh-token-invalid');
  });

  it('revokes the whole session when a rotated-out refresh token comes back', () => {
    given(sessionDecider, started, refreshed('h1', minutes(10)))
      .when(cmd('RefreshSession', { presentedHash: 'h0', newHash: 'h2' }, minutes(11)))
      .then({ type: 'SessionRevoked', data: { reason: 'refresh-token-reuse', at: minutes(11) } });
    const revoked: SessionEvent = { type: 'SessionRevoked', data: { reason: 'refresh-token-reuse', at: minutes(11) } };
    given(sessionDecider, started, refreshed('h1', minutes(10)), revoked)
      .when(cmd('RefreshSession', { presentedHash: 'h1', newHash: 'h2' }, minutes(12)))
      .thenError('session-ended');
  });

  it('expires after 30 idle minutes and after 12 hours whatever the activity', () => {
    given(sessionDecider, started)
      .when(cmd('RefreshSession', { presentedHash: 'h0', newHash: 'h1' }, minutes(31)))
      .then({ type: 'SessionExpired', data: { reason: 'idle', at: minutes(31) } });
    const busy: SessionEvent[] = [started];
    for (let m = 20; m < 12 * 60; m += 20) busy.push({ type: 'SessionActivityRecorded', data: { at: minutes(m) } });
    given(sessionDecider, ...busy)
      .when(cmd('SelectCompany', { companyId: 'c1' }, minutes(12 * 60)))
      .then({ type: 'SessionExpired', data: { reason: 'absolute', at: minutes(12 * 60) } });
    assert.equal(sessionExpiry(given(sessionDecider, started).state, minutes(30)), null);
  });

  it('records activity at most once per interval', () => {
    given(sessionDecider, started)
      .when(cmd('RecordSessionActivity', { minIntervalSeconds: 300 }, minutes(4)))
      .thenNothing();
    given(sessionDecider, started)
      .when(cmd('RecordSessionActivity', { minIntervalSeconds: 300 }, minutes(5)))
      .then({ type: 'SessionActivityRecorded', data: { at: minutes(5) } });
  });

  it('logs out once; an ended session takes no more commands', () => {
    const out: SessionEvent = { type: 'LoggedOut', data: { at: minutes(2) } };
    given(sessionDecider, started)
      .when(cmd('Logout', {}, minutes(2)))
      .then(out);
    given(sessionDecider, started, out)
      .when(cmd('Logout', {}, minutes(3)))
      .thenNothing();
    given(sessionDecider, started, out)
      .when(cmd('SelectCompany', { companyId: 'c1' }, minutes(3)))
      .thenError('session-ended');
    given(sessionDecider, started, out)
      .when(cmd('RecordSessionActivity', { minIntervalSeconds: 0 }, minutes(9)))
      .thenNothing();
    given(sessionDecider)
      .when(cmd('SelectCompany', { companyId: 'c1' }))
      .thenError('session-ended');
  });

  it('revokes and expires on request', () => {
    given(sessionDecider, started)
      .when(cmd('RevokeSession', {}, minutes(1)))
      .then({ type: 'SessionRevoked', data: { reason: 'revoked', at: minutes(1) } });
    given(sessionDecider, started)
      .when(cmd('ExpireSession', {}, minutes(1)))
      .thenNothing();
    given(sessionDecider, started)
      .when(cmd('ExpireSession', {}, minutes(45)))
      .then({ type: 'SessionExpired', data: { reason: 'idle', at: minutes(45) } });
  });
});
