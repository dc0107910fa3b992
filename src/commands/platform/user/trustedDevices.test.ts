// Trusted devices (OWASP device cookies) and the open-challenge cap, given/when/then on the user decider.
import assert from 'node:assert/strict';
import { command, given, T0 } from '../deciderSpec.js';
import { userDecider, type UserCommand } from './decider.js';
import type { UserEvent } from './events.js';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'agg-1', email: 'ana@clinic.example', name: 'Ana', passwordHash: '$argon2id$x', platformAdmin: false },
};
const confirmed: UserEvent = { type: 'TotpEnrollmentConfirmed', data: { encryptedSecret: 'enc-1', timeStep: 100 } };
const cmd = (type: UserCommand['type'], data: unknown, at = T0) => command<UserCommand>(type, data as never, { at });
const plus = (seconds: number): string => new Date(Date.parse(T0) + seconds * 1000).toISOString();

const IN_30_DAYS = plus(30 * 86_400);
const trusted = (deviceId: string, at = T0, expiresAt = IN_30_DAYS): UserEvent => ({
  type: 'DeviceTrusted',
  data: { deviceId, tokenHash: `hash-${deviceId}`, at, expiresAt },
});
const login = { failuresBeforeDelay: 2, maxFailuresPerHour: 100, longestDelaySeconds: 60 };
const codes = { userFailuresPerWindow: 2, windowSeconds: 900 };
const reserveLogin = (deviceTokenHash: string | null, at = T0, maxOpenChallenges = 5) =>
  cmd('ReserveLoginAttempt', { policy: login, deviceTokenHash, maxOpenChallenges }, at);
const untrustedFailure = (n: number): UserEvent => ({ type: 'LoginAttemptReserved', data: { consecutiveFailures: n, at: T0 } });
const challengeOpened = (challengeId: string, deviceId?: string): UserEvent => ({
  type: 'LoginSucceeded',
  data: { challengeId, expiresAt: plus(300), at: T0, ...(deviceId ? { deviceId } : {}) },
});

describe('user decider: trusted devices', () => {
  it('counts a password attempt with a trusted device token on that device, apart from the failures without it', () => {
    const history = [registered, confirmed, trusted('d1'), untrustedFailure(1), untrustedFailure(2)];
    given(userDecider, ...history)
      .when(reserveLogin('hash-d1'))
      .then({ type: 'LoginAttemptReserved', data: { consecutiveFailures: 1, at: T0, deviceId: 'd1' } });
    given(userDecider, ...history)
      .when(reserveLogin(null))
      .thenError('sign-in-throttled');
    given(userDecider, ...history)
      .when(reserveLogin('hash-of-a-made-up-token'))
      .thenError('sign-in-throttled');
    given(userDecider, ...history)
      .when(reserveLogin('hash-d1', IN_30_DAYS))
      .then({ type: 'LoginAttemptReserved', data: { consecutiveFailures: 3, at: IN_30_DAYS } }); // expired: untrusted, and past the delay
  });

  it('holds a trusted device on its own failures, and records them there', () => {
    const onDevice = (n: number): UserEvent => ({ type: 'LoginAttemptReserved', data: { consecutiveFailures: n, at: T0, deviceId: 'd1' } });
    const history = [registered, confirmed, trusted('d1'), onDevice(1), onDevice(2)];
    given(userDecider, ...history)
      .when(reserveLogin('hash-d1'))
      .thenError('sign-in-throttled');
    given(userDecider, ...history)
      .when(reserveLogin(null))
      .then({ type: 'LoginAttemptReserved', data: { consecutiveFailures: 1, at: T0 } });
    given(userDecider, ...history)
      .when(cmd('RecordLoginFailure', { reason: 'wrong-password', deviceId: 'd1' }))
      .then({ type: 'LoginFailed', data: { reason: 'wrong-password', consecutiveFailures: 2, at: T0, deviceId: 'd1' } });
  });

  it('counts the codes of a challenge from a trusted device on that device', () => {
    const wrongCode = (challengeId: string): UserEvent => ({ type: 'TotpAttemptReserved', data: { challengeId, at: T0 } });
    const history = [registered, confirmed, trusted('d1'), wrongCode('a'), wrongCode('b')];
    given(userDecider, ...history)
      .when(cmd('ReserveTotpAttempt', { challengeId: 'c', policy: codes, deviceId: 'd1' }))
      .then({ type: 'TotpAttemptReserved', data: { challengeId: 'c', at: T0, deviceId: 'd1' } });
    given(userDecider, ...history)
      .when(cmd('ReserveTotpAttempt', { challengeId: 'c', policy: codes, deviceId: null }))
      .thenError('sign-in-throttled');
    given(userDecider, ...history)
      .when(cmd('ReserveTotpAttempt', { challengeId: 'c', policy: codes, deviceId: 'retired-device' }))
      .thenError('sign-in-throttled');
  });

  it('trusts a device, replacing the one presented, retiring expired ones and the oldest past the bound', () => {
    given(userDecider, registered, confirmed, trusted('d1'))
      .when(cmd('TrustDevice', { deviceId: 'd2', tokenHash: 'hash-d2', expiresAt: IN_30_DAYS, replaces: 'd1', maxDevices: 2 }))
      .then({ type: 'DeviceTrusted', data: { deviceId: 'd2', tokenHash: 'hash-d2', at: T0, expiresAt: IN_30_DAYS, replaces: 'd1' } });
    const later = plus(60);
    given(userDecider, registered, confirmed, trusted('old', T0, plus(10)), trusted('d1'), trusted('d2'))
      .when(cmd('TrustDevice', { deviceId: 'd3', tokenHash: 'hash-d3', expiresAt: IN_30_DAYS, replaces: 'unknown', maxDevices: 2 }, later))
      .then(
        { type: 'DeviceRetired', data: { deviceId: 'old', reason: 'expired' } },
        { type: 'DeviceRetired', data: { deviceId: 'd1', reason: 'limit' } },
        { type: 'DeviceTrusted', data: { deviceId: 'd3', tokenHash: 'hash-d3', at: later, expiresAt: IN_30_DAYS } },
      );
    const state = given(userDecider, registered, confirmed, trusted('d1'), {
      type: 'DeviceTrusted',
      data: { deviceId: 'd2', tokenHash: 'hash-d2', at: T0, expiresAt: IN_30_DAYS, replaces: 'd1' },
    }).state;
    assert.deepEqual(
      state.devices.map((d) => d.deviceId),
      ['d2'],
    );
  });

  it('forgets every trusted device when the second factor is reset', () => {
    const state = given(userDecider, registered, confirmed, trusted('d1'), { type: 'TwoFactorReset', data: {} }).state;
    assert.deepEqual(state.devices, []);
  });
});

describe('user decider: open challenges', () => {
  const open = [registered, confirmed, trusted('d1'), challengeOpened('c1'), challengeOpened('c2')];
  const success = (deviceId: string | null, at = T0) =>
    cmd('RecordLoginSuccess', { challengeId: 'c3', expiresAt: plus(600), deviceId, maxOpenChallenges: 2 }, at);

  it('refuses another attempt, before its password is checked, while the most challenges a client may hold are open', () => {
    given(userDecider, ...open)
      .when(reserveLogin(null, T0, 2))
      .thenError('sign-in-throttled');
    given(userDecider, ...open)
      .when(reserveLogin('hash-d1', T0, 2))
      .then({ type: 'LoginAttemptReserved', data: { consecutiveFailures: 1, at: T0, deviceId: 'd1' } });
  });

  it('withholds the challenge of a right password that lost the race for the last slot, without counting a failure', () => {
    given(userDecider, ...open)
      .when(success(null))
      .then({ type: 'ChallengeWithheld', data: { at: T0, retryAfterSeconds: 300 } });
    const state = given(userDecider, ...open, untrustedFailure(1), {
      type: 'ChallengeWithheld',
      data: { at: T0, retryAfterSeconds: 300 },
    }).state;
    assert.equal(state.untrusted.consecutiveFailures, 0);
    given(userDecider, ...open)
      .when(success('d1'))
      .then({ type: 'LoginSucceeded', data: { challengeId: 'c3', expiresAt: plus(600), at: T0, deviceId: 'd1' } });
  });

  it('no longer counts a challenge once it is used or expired', () => {
    given(userDecider, ...open, { type: 'TotpCodeAccepted', data: { challengeId: 'c1', timeStep: 101 } })
      .when(success(null))
      .then({ type: 'LoginSucceeded', data: { challengeId: 'c3', expiresAt: plus(600), at: T0 } });
    given(userDecider, ...open)
      .when(success(null, plus(300)))
      .then({ type: 'LoginSucceeded', data: { challengeId: 'c3', expiresAt: plus(600), at: plus(300) } });
  });
});
