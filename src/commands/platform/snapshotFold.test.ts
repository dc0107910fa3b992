// The aggregates loaded from snapshots fold the same from a stored (JSON) snapshot and the events after it as from the
// whole stream, wherever the snapshot was taken: their state holds nothing JSON loses (no undefined, Date, Map).
import assert from 'node:assert/strict';
import type { CommandEnvelope, DecidedEvent, Decider } from '../decider.js';
import { command, T0 } from './deciderSpec.js';
import { userDecider, type UserCommand } from './user/decider.js';
import { apiClientDecider, type ApiClientCommand } from './apiClient/decider.js';
import { unknownLoginDecider, type UnknownLoginCommand } from './unknownLogin/decider.js';

const at = (seconds: number): string => new Date(Date.parse(T0) + seconds * 1000).toISOString();

/** The events the commands decide, one after another (a refused command adds nothing). */
function historyOf<C extends CommandEnvelope, E extends DecidedEvent, S>(decider: Decider<C, E, S>, commands: C[]): E[] {
  const events: E[] = [];
  let state = decider.initialState;
  for (const cmd of commands) {
    let decided: E[] = [];
    try {
      decided = decider.decide(cmd, state);
    } catch {
      // refused: nothing recorded
    }
    for (const e of decided) state = decider.evolve(state, e);
    events.push(...decided);
  }
  return events;
}

function assertSnapshotSafe<C extends CommandEnvelope, E extends DecidedEvent, S>(decider: Decider<C, E, S>, events: E[]): void {
  assert.ok(decider.snapshot, `${decider.category} is loaded from snapshots`);
  const fold = (from: S, list: E[]): S => list.reduce((s, e) => decider.evolve(s, e), from);
  const whole = fold(decider.initialState, events);
  for (let cut = 0; cut <= events.length; cut++) {
    const stored = JSON.parse(JSON.stringify(fold(decider.initialState, events.slice(0, cut)))) as S;
    assert.deepEqual(fold(stored, events.slice(cut)), whole, `snapshot after ${cut} of ${events.length} events`);
  }
}

describe('aggregates loaded from snapshots', () => {
  it('a user: sign-in attempts, challenges, codes and trusted devices fold the same from any snapshot', () => {
    const policy = { failuresBeforeDelay: 2, maxFailuresPerHour: 100, longestDelaySeconds: 60 };
    const code = { userFailuresPerWindow: 3, windowSeconds: 900 };
    const c = (type: UserCommand['type'], data: unknown, seconds: number) => command<UserCommand>(type, data as never, { at: at(seconds) });
    const events = historyOf(userDecider, [
      c('RegisterUser', { email: 'ana@clinic.example', name: 'Ana', passwordHash: 'h', platformAdmin: false }, 0),
      c('StartTotpEnrollment', { encryptedSecret: 'enc' }, 1),
      ...[2, 3, 30, 90].flatMap((s) => [
        c('ReserveLoginAttempt', { policy, deviceTokenHash: null, maxOpenChallenges: 3 }, s),
        c('RecordLoginFailure', { reason: 'wrong-password', deviceId: null }, s),
      ]),
      c('ReserveLoginAttempt', { policy, deviceTokenHash: null, maxOpenChallenges: 3 }, 200),
      c('RecordLoginSuccess', { challengeId: 'ch1', expiresAt: at(500), deviceId: null, maxOpenChallenges: 3 }, 200),
      c('ReserveTotpAttempt', { challengeId: 'ch1', policy: code, deviceId: null }, 201),
      c('RecordTotpCodeFailure', { challengeId: 'ch1' }, 201),
      c('ReserveTotpAttempt', { challengeId: 'ch1', policy: code, deviceId: null }, 202),
      c('AcceptTotpCode', { challengeId: 'ch1', timeStep: 7 }, 202),
      c('TrustDevice', { deviceId: 'd1', tokenHash: 't1', expiresAt: at(9000), replaces: null, maxDevices: 2 }, 203),
      c('ReserveLoginAttempt', { policy, deviceTokenHash: 't1', maxOpenChallenges: 3 }, 300),
      c('RecordLoginSuccess', { challengeId: 'ch2', expiresAt: at(600), deviceId: 'd1', maxOpenChallenges: 3 }, 300),
      c('ReserveTotpAttempt', { challengeId: 'ch2', policy: code, deviceId: 'd1' }, 301),
      c('AcceptTotpCode', { challengeId: 'ch2', timeStep: 9 }, 301),
      c('TrustDevice', { deviceId: 'd2', tokenHash: 't2', expiresAt: at(9000), replaces: 'd1', maxDevices: 2 }, 302),
      c('TrustDevice', { deviceId: 'd3', tokenHash: 't3', expiresAt: at(9000), replaces: null, maxDevices: 2 }, 303),
      c('TrustDevice', { deviceId: 'd4', tokenHash: 't4', expiresAt: at(9000), replaces: null, maxDevices: 2 }, 304),
      c('AcceptStepUpPassword', {}, 305),
      c('ResetTwoFactor', {}, 400),
      c('DeactivateUser', {}, 500),
    ]);
    assert.ok(events.length >= 25, `${events.length} events`);
    assertSnapshotSafe(userDecider, events);
  });

  it('an invited user: the creating company, new tokens and the activation fold the same from any snapshot (issue 20 item 1)', () => {
    const c = (type: UserCommand['type'], data: unknown, seconds: number) => command<UserCommand>(type, data as never, { at: at(seconds) });
    const invite = { email: 'eva@clinic.example', name: 'Eva', activationHash: 'a1', activationExpiresAt: at(9000), companyId: 'co-a' };
    const events = historyOf(userDecider, [
      c('InviteUser', invite, 0),
      c('IssueActivation', { activationHash: 'a2', activationExpiresAt: at(9000), companyId: 'co-b' }, 1),
      c('IssueActivation', { activationHash: 'a3', activationExpiresAt: at(9000), companyId: 'co-a' }, 2),
      c('ActivateUser', { presentedHash: 'a3', passwordHash: 'h' }, 3),
      c('StartTotpEnrollment', { encryptedSecret: 'enc' }, 4),
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['UserInvited', 'ActivationIssued', 'UserActivated', 'TotpEnrollmentStarted'],
      'only the creating company issues a new token',
    );
    assertSnapshotSafe(userDecider, events);
    const invited = events.slice(0, 2).reduce((st, e) => userDecider.evolve(st, e), userDecider.initialState);
    assert.deepEqual([invited.invitedBy, invited.activation?.hash], ['co-a', 'a3']);
  });

  it('an API client: token issues, rotations and revocation fold the same from any snapshot', () => {
    const c = (type: ApiClientCommand['type'], data: unknown, seconds: number) =>
      command<ApiClientCommand>(type, data as never, { at: at(seconds) });
    const events = historyOf(apiClientDecider, [
      c('CreateApiClient', { companyId: 'co', name: 'Lab', roles: ['b', 'a'], secretHash: 's1' }, 0),
      c('IssueApiClientToken', { presentedHash: 's1', tokenId: 'k1', expiresAt: at(600) }, 1),
      c('RotateApiClientSecret', { secretHash: 's2', graceSeconds: 60 }, 2),
      c('IssueApiClientToken', { presentedHash: 's1', tokenId: 'k2', expiresAt: at(600) }, 3),
      c('ChangeApiClientRoles', { roles: ['a'] }, 4),
      c('RotateApiClientSecret', { secretHash: 's3', graceSeconds: 0 }, 5),
      c('RevokeApiClient', {}, 6),
    ]);
    assertSnapshotSafe(apiClientDecider, events);
  });

  it('an unknown address: failed sign-ins fold the same from any snapshot', () => {
    const policy = { failuresBeforeDelay: 1, maxFailuresPerHour: 100, longestDelaySeconds: 60 };
    const events = historyOf(
      unknownLoginDecider,
      [0, 1, 5, 100].map((s) =>
        command<UnknownLoginCommand>('RecordUnknownAccountLoginFailure', { email: 'x@y.example', policy }, { at: at(s) }),
      ),
    );
    assertSnapshotSafe(unknownLoginDecider, events);
  });
});
