import assert from 'node:assert/strict';
import { command, given, T0 } from '../deciderSpec.js';
import { userDecider, type UserCommand } from './decider.js';
import type { UserEvent } from './events.js';
import { codeRetryAfterSeconds, loginDelayAfter, loginRetryAfterSeconds } from './signInThrottle.js';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'agg-1', email: 'ana@clinic.example', name: 'Ana', passwordHash: '$argon2id$x', platformAdmin: false },
};
const pending: UserEvent = { type: 'TotpEnrollmentStarted', data: { encryptedSecret: 'enc-1' } };
const confirmed: UserEvent = { type: 'TotpEnrollmentConfirmed', data: { encryptedSecret: 'enc-1', timeStep: 100 } };
const cmd = (type: UserCommand['type'], data: unknown, at = T0) => command<UserCommand>(type, data as never, { at });

describe('user decider', () => {
  it('registers a user, with an out-of-band provisioned second factor when given', () => {
    given(userDecider)
      .when(cmd('RegisterUser', { email: 'ana@clinic.example', name: 'Ana', passwordHash: '$argon2id$x', platformAdmin: false }))
      .then(registered);
    given(userDecider)
      .when(
        cmd('RegisterUser', {
          email: 'ana@clinic.example',
          name: 'Ana',
          passwordHash: '$argon2id$x',
          platformAdmin: false,
          provisionedTotpSecret: 'enc-9',
        }),
      )
      .then(registered, { type: 'TotpEnrollmentConfirmed', data: { encryptedSecret: 'enc-9', timeStep: null } });
  });

  it('refuses to register the same user twice', () => {
    given(userDecider, registered).when(cmd('RegisterUser', registered.data)).thenError('user-exists');
  });

  it('starts enrollment once and keeps the pending secret on later logins', () => {
    given(userDecider, registered)
      .when(cmd('StartTotpEnrollment', { encryptedSecret: 'enc-1' }))
      .then(pending);
    given(userDecider, registered, pending)
      .when(cmd('StartTotpEnrollment', { encryptedSecret: 'enc-2' }))
      .thenNothing();
    given(userDecider, registered, pending, confirmed)
      .when(cmd('StartTotpEnrollment', { encryptedSecret: 'enc-2' }))
      .thenError('totp-already-enrolled');
  });

  it('confirms a pending enrollment with the first accepted code', () => {
    given(userDecider, registered, pending)
      .when(cmd('AcceptTotpCode', { challengeId: 'c1', timeStep: 100 }))
      .then(confirmed, { type: 'TotpCodeAccepted', data: { challengeId: 'c1', timeStep: 100 } });
  });

  it('accepts a later time step and refuses the same or an older one as a replay', () => {
    const accepted: UserEvent = { type: 'TotpCodeAccepted', data: { challengeId: 'c1', timeStep: 101 } };
    given(userDecider, registered, pending, confirmed)
      .when(cmd('AcceptTotpCode', { challengeId: 'c1', timeStep: 101 }))
      .then(accepted);
    given(userDecider, registered, pending, confirmed, accepted)
      .when(cmd('AcceptTotpCode', { challengeId: 'c2', timeStep: 101 }))
      .then({ type: 'TotpReplayRefused', data: { challengeId: 'c2', timeStep: 101 } });
    given(userDecider, registered, pending, confirmed, accepted)
      .when(cmd('AcceptTotpCode', { challengeId: 'c2', timeStep: 100 }))
      .then({ type: 'TotpReplayRefused', data: { challengeId: 'c2', timeStep: 100 } });
  });

  it('resets a confirmed second factor (lost phone); the next sign-in enrolls again', () => {
    given(userDecider, registered, pending, confirmed).when(cmd('ResetTwoFactor', {})).then({ type: 'TwoFactorReset', data: {} });
    given(userDecider, registered, pending).when(cmd('ResetTwoFactor', {})).then({ type: 'TwoFactorReset', data: {} });
  });

  it('keeps the replay floor across a 2FA reset', () => {
    const reset: UserEvent = { type: 'TwoFactorReset', data: {} };
    const state = given(userDecider, registered, pending, confirmed, reset).state;
    assert.equal(state.totp.status, 'none');
    assert.equal(state.totp.lastTimeStep, 100);
    given(userDecider, registered, pending, confirmed, reset, { type: 'TotpEnrollmentStarted', data: { encryptedSecret: 'enc-2' } })
      .when(cmd('AcceptTotpCode', { challengeId: 'c3', timeStep: 100 }))
      .then({ type: 'TotpReplayRefused', data: { challengeId: 'c3', timeStep: 100 } });
  });

  it('refuses codes for a user without a second factor or a deactivated user', () => {
    given(userDecider, registered)
      .when(cmd('AcceptTotpCode', { challengeId: 'c', timeStep: 1 }))
      .thenError('totp-not-enrolled');
    given(userDecider, registered, pending, confirmed, { type: 'UserDeactivated', data: {} })
      .when(cmd('AcceptTotpCode', { challengeId: 'c', timeStep: 200 }))
      .thenError('user-inactive');
  });

  it('counts a password attempt when it is reserved, records the failure, and resets on success', () => {
    const policy = { failuresBeforeDelay: 5, maxFailuresPerHour: 100, longestDelaySeconds: 60 };
    const f1: UserEvent = { type: 'LoginFailed', data: { reason: 'wrong-password', consecutiveFailures: 1, at: T0 } };
    const later = '2025-01-01T08:00:05.000Z';
    given(userDecider, registered, f1)
      .when(cmd('ReserveLoginAttempt', { policy, deviceTokenHash: null, maxOpenChallenges: 5 }, later))
      .then({ type: 'LoginAttemptReserved', data: { consecutiveFailures: 2, at: later } });
    given(userDecider, registered, f1, { type: 'LoginAttemptReserved', data: { consecutiveFailures: 2, at: later } })
      .when(cmd('RecordLoginFailure', { reason: 'wrong-password', deviceId: null }, later))
      .then({ type: 'LoginFailed', data: { reason: 'wrong-password', consecutiveFailures: 2, at: later } });
    const state = given(userDecider, registered, f1, { type: 'LoginSucceeded', data: { challengeId: 'c' } }).state;
    assert.equal(state.untrusted.consecutiveFailures, 0);
  });

  it('refuses a password attempt while the throttle delay runs, without checking it', () => {
    const policy = { failuresBeforeDelay: 2, maxFailuresPerHour: 100, longestDelaySeconds: 60 };
    const reserved = (n: number): UserEvent => ({ type: 'LoginAttemptReserved', data: { consecutiveFailures: n, at: T0 } });
    given(userDecider, registered, reserved(1), reserved(2))
      .when(cmd('ReserveLoginAttempt', { policy, deviceTokenHash: null, maxOpenChallenges: 5 }))
      .thenError('sign-in-throttled');
  });

  it('counts code attempts when reserved: the window fills with them, an accepted one leaves it', () => {
    const policy = { userFailuresPerWindow: 2, windowSeconds: 900 };
    const reserved = (challengeId: string): UserEvent => ({ type: 'TotpAttemptReserved', data: { challengeId, at: T0 } });
    given(userDecider, registered, pending, confirmed)
      .when(cmd('ReserveTotpAttempt', { challengeId: 'c', policy, deviceId: null }))
      .then(reserved('c'));
    given(userDecider, registered, pending, confirmed, reserved('a'), reserved('b'))
      .when(cmd('ReserveTotpAttempt', { challengeId: 'c', policy, deviceId: null }))
      .thenError('sign-in-throttled');
    given(userDecider, registered, pending, confirmed, reserved('a'), reserved('b'), {
      type: 'TotpCodeAccepted',
      data: { challengeId: 'b', timeStep: 300 },
    })
      .when(cmd('ReserveTotpAttempt', { challengeId: 'c', policy, deviceId: null }))
      .then(reserved('c'));
  });

  it('records wrong codes as the outcome of their reservation, and resets/deactivates only once', () => {
    given(userDecider, registered, pending, confirmed)
      .when(cmd('RecordTotpCodeFailure', { challengeId: 'c' }))
      .then({ type: 'TotpCodeRejected', data: { challengeId: 'c', at: T0, reserved: true } });
    given(userDecider, registered).when(cmd('ResetTwoFactor', {})).thenNothing();
    given(userDecider, registered, { type: 'UserDeactivated', data: {} }).when(cmd('DeactivateUser', {})).thenNothing();
    given(userDecider)
      .when(cmd('RecordLoginSuccess', { challengeId: 'c', expiresAt: T0, deviceId: null, maxOpenChallenges: 5 }))
      .thenError('not-found');
  });
});

describe('sign-in throttle rules', () => {
  const login = { failuresBeforeDelay: 5, maxFailuresPerHour: 100, longestDelaySeconds: 60 };

  it('lets the first failures through, then delays grow and stay capped', () => {
    assert.deepEqual(
      [4, 5, 6, 7, 12, 50].map((n) => loginDelayAfter(n, login)),
      [0, 2, 4, 8, 60, 60],
    );
  });

  it('never allows more than the hourly bound of failures', () => {
    let at = 0;
    let failures = 0;
    while (at < 3600) {
      failures++;
      at += Math.max(0.001, loginDelayAfter(failures, login));
    }
    assert.ok(failures <= login.maxFailuresPerHour, `${failures} failures in an hour`);
  });

  it('answers the remaining wait of an account', () => {
    assert.equal(loginRetryAfterSeconds({ consecutiveFailures: 6, lastFailureAt: T0 }, '2025-01-01T08:00:01.000Z', login), 3);
    assert.equal(loginRetryAfterSeconds({ consecutiveFailures: 6, lastFailureAt: T0 }, '2025-01-01T08:00:04.000Z', login), 0);
    assert.equal(loginRetryAfterSeconds({ consecutiveFailures: 3, lastFailureAt: T0 }, T0, login), 0);
  });

  it('holds codes after 10 wrong ones in 15 minutes until the oldest ages out', () => {
    const policy = { userFailuresPerWindow: 10, windowSeconds: 900 };
    const times = Array.from({ length: 10 }, (_, i) => new Date(Date.parse(T0) + i * 1000).toISOString());
    assert.equal(codeRetryAfterSeconds(times.slice(0, 9), '2025-01-01T08:00:10.000Z', policy), 0);
    assert.equal(codeRetryAfterSeconds(times, '2025-01-01T08:00:10.000Z', policy), 890);
    assert.equal(codeRetryAfterSeconds(times, '2025-01-01T08:15:00.000Z', policy), 0);
  });
});

describe('user decider: invitations and passwords', () => {
  const later = (hours: number) => new Date(Date.parse('2025-01-01T08:00:00.000Z') + hours * 3_600_000).toISOString();
  const invite = command<UserCommand>('InviteUser', {
    email: 'ana@clinic.example',
    name: 'Ana',
    activationHash: 'a1',
    activationExpiresAt: later(72),
    companyId: 'c1',
  });
  const invited: UserEvent = {
    type: 'UserInvited',
    data: {
      userId: 'agg-1',
      email: 'ana@clinic.example',
      name: 'Ana',
      activationHash: 'a1',
      activationExpiresAt: later(72),
      companyId: 'c1',
    },
  };
  const activate = (hash: string, hours: number) =>
    command<UserCommand>('ActivateUser', { presentedHash: hash, passwordHash: '$argon2id$p' }, { at: later(hours) });

  it('invites an account without a password, activated once with its token before it expires', () => {
    given(userDecider).when(invite).then(invited);
    given(userDecider, invited)
      .when(activate('a1', 71))
      .then({ type: 'UserActivated', data: { passwordHash: '$argon2id$p' } });
    given(userDecider, invited).when(activate('a1', 72)).thenError('activation-invalid');
    given(userDecider, invited).when(activate('other', 1)).thenError('activation-invalid');
    given(userDecider, invited, { type: 'UserActivated', data: { passwordHash: '$argon2id$p' } })
      .when(activate('a1', 1))
      .thenError('activation-invalid');
    given(userDecider, invited, { type: 'UserDeactivated', data: {} }).when(activate('a1', 1)).thenError('activation-invalid');
  });

  it('a new activation token replaces the previous one; none once a password is chosen', () => {
    const reissued: UserEvent = { type: 'ActivationIssued', data: { activationHash: 'a2', activationExpiresAt: later(80) } };
    const issue = (companyId: string | null) => command<UserCommand>('IssueActivation', { ...reissued.data, companyId });
    given(userDecider, invited).when(issue('c1')).then(reissued);
    given(userDecider, invited).when(issue(null)).then(reissued);
    given(userDecider, invited, reissued).when(activate('a1', 1)).thenError('activation-invalid');
    given(userDecider, invited, reissued)
      .when(activate('a2', 1))
      .then({ type: 'UserActivated', data: { passwordHash: '$argon2id$p' } });
    given(userDecider, registered).when(issue('c1')).thenError('user-already-activated');
  });

  it('issues an activation token only to the company whose invitation created the account', () => {
    const reissue = command<UserCommand>('IssueActivation', { activationHash: 'a2', activationExpiresAt: later(80), companyId: 'c2' });
    given(userDecider, invited).when(reissue).thenError('not-account-creator');
  });

  it('changes the password of an active account only', () => {
    given(userDecider, registered)
      .when(command<UserCommand>('ChangePassword', { passwordHash: '$argon2id$n' }))
      .then({ type: 'PasswordChanged', data: { passwordHash: '$argon2id$n' } });
    given(userDecider, registered, { type: 'UserDeactivated', data: {} })
      .when(command<UserCommand>('ChangePassword', { passwordHash: '$argon2id$n' }))
      .thenError('user-inactive');
  });
});
