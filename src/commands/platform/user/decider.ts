// The platform user: account, TOTP second factor (with replay protection), trusted devices and sign-in history.
import { timingSafeEqual } from 'node:crypto';
import type { CommandEnvelope, Decider } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import type { TotpStatus, UserEvent } from './events.js';
import {
  codeRetryAfterSeconds,
  loginRetryAfterSeconds,
  openChallengeRetryAfterSeconds,
  type CodeThrottlePolicy,
  type LoginThrottlePolicy,
} from './signInThrottle.js';
import {
  addCodeAttempt,
  addOpenChallenge,
  bucketOf,
  closeChallenge,
  emptyBucket,
  knownDeviceId,
  trustedDeviceOf,
  withBucket,
  withEveryBucket,
  type SignInBucket,
  type SignInBuckets,
} from './signInBuckets.js';

export interface UserState extends SignInBuckets {
  exists: boolean;
  userId: string;
  email: string;
  name: string;
  passwordHash: string;
  platformAdmin: boolean;
  active: boolean;
  /** Pending activation of an invited account (null once activated, or for accounts registered with a password). */
  activation: { hash: string; expiresAt: string } | null;
  /** The company whose invitation created the account (null: registered, or invited before this was recorded). */
  invitedBy: string | null;
  totp: { status: TotpStatus; encryptedSecret: string | null; lastTimeStep: number | null };
}

export const initialUserState: UserState = {
  exists: false,
  userId: '',
  email: '',
  name: '',
  passwordHash: '',
  platformAdmin: false,
  active: false,
  activation: null,
  invitedBy: null,
  totp: { status: 'none', encryptedSecret: null, lastTimeStep: null },
  untrusted: emptyBucket,
  devices: [],
};

export type UserCommand =
  | CommandEnvelope<
      'RegisterUser',
      { email: string; name: string; passwordHash: string; platformAdmin: boolean; provisionedTotpSecret?: string | null }
    >
  | CommandEnvelope<'InviteUser', { email: string; name: string; activationHash: string; activationExpiresAt: string; companyId: string }>
  /** `companyId`: the company asking; only the one whose invitation created the account (null: the platform). */
  | CommandEnvelope<'IssueActivation', { activationHash: string; activationExpiresAt: string; companyId: string | null }>
  | CommandEnvelope<'ActivateUser', { presentedHash: string; passwordHash: string }>
  | CommandEnvelope<'ChangePassword', { passwordHash: string }>
  | CommandEnvelope<'AcceptStepUpPassword', Record<string, never>>
  | CommandEnvelope<'StartTotpEnrollment', { encryptedSecret: string }>
  | CommandEnvelope<'ReserveLoginAttempt', { policy: LoginThrottlePolicy; deviceTokenHash: string | null; maxOpenChallenges: number }>
  | CommandEnvelope<'RecordLoginFailure', { reason: 'wrong-password' | 'inactive'; deviceId: string | null }>
  | CommandEnvelope<'RecordLoginSuccess', { challengeId: string; expiresAt: string; deviceId: string | null; maxOpenChallenges: number }>
  | CommandEnvelope<'ReserveTotpAttempt', { challengeId: string; policy: CodeThrottlePolicy; deviceId: string | null }>
  | CommandEnvelope<'AcceptTotpCode', { challengeId: string; timeStep: number }>
  | CommandEnvelope<'RecordTotpCodeFailure', { challengeId: string }>
  | CommandEnvelope<'TrustDevice', { deviceId: string; tokenHash: string; expiresAt: string; replaces: string | null; maxDevices: number }>
  | CommandEnvelope<'ResetTwoFactor', Record<string, never>>
  | CommandEnvelope<'DeactivateUser', Record<string, never>>;

export function evolveUser(s: UserState, e: UserEvent): UserState {
  switch (e.type) {
    case 'UserRegistered':
      return { ...s, exists: true, active: true, ...e.data };
    case 'UserInvited': {
      const { activationHash, activationExpiresAt, companyId, ...account } = e.data;
      return {
        ...s,
        ...account,
        invitedBy: companyId ?? null,
        exists: true,
        active: true,
        passwordHash: '',
        platformAdmin: false,
        activation: { hash: activationHash, expiresAt: activationExpiresAt },
      };
    }
    case 'ActivationIssued':
      return { ...s, activation: { hash: e.data.activationHash, expiresAt: e.data.activationExpiresAt } };
    case 'UserActivated':
      return { ...s, passwordHash: e.data.passwordHash, activation: null };
    case 'PasswordChanged':
      return { ...s, passwordHash: e.data.passwordHash };
    case 'StepUpPasswordAccepted':
      return withBucket(s, null, (b) => ({ ...b, consecutiveFailures: 0, lastFailureAt: null }));
    case 'TotpEnrollmentStarted':
      return { ...s, totp: { status: 'pending', encryptedSecret: e.data.encryptedSecret, lastTimeStep: s.totp.lastTimeStep } };
    case 'TotpEnrollmentConfirmed':
      return {
        ...s,
        totp: { status: 'confirmed', encryptedSecret: e.data.encryptedSecret, lastTimeStep: e.data.timeStep ?? s.totp.lastTimeStep },
      };
    case 'LoginSucceeded': {
      const { challengeId, expiresAt, at, deviceId } = e.data;
      return withBucket(s, deviceId, (b) => {
        const reset = { ...b, consecutiveFailures: 0, lastFailureAt: null };
        return expiresAt && at ? addOpenChallenge(reset, { challengeId, expiresAt }, at) : reset;
      });
    }
    case 'ChallengeWithheld':
      // The password was right: its attempt is not a failure.
      return withBucket(s, e.data.deviceId, (b) => ({ ...b, consecutiveFailures: 0, lastFailureAt: null }));
    case 'LoginAttemptReserved':
    case 'LoginFailed':
      return withBucket(s, e.data.deviceId, (b) => ({ ...b, consecutiveFailures: e.data.consecutiveFailures, lastFailureAt: e.data.at }));
    case 'TotpAttemptReserved':
      return withBucket(s, e.data.deviceId, (b) => addCodeAttempt(b, { challengeId: e.data.challengeId, at: e.data.at }));
    case 'TotpCodeAccepted':
      return {
        ...withEveryBucket(s, (b) => closeChallenge(b, e.data.challengeId)),
        totp: { ...s.totp, lastTimeStep: Math.max(e.data.timeStep, s.totp.lastTimeStep ?? -1) },
      };
    case 'TotpCodeRejected':
      if (e.data.reserved) return s;
      return withBucket(s, null, (b) => addCodeAttempt(b, { at: e.data.at, challengeId: e.data.challengeId }));
    case 'TotpReplayRefused':
      return s;
    case 'DeviceTrusted': {
      const { deviceId, tokenHash, at, expiresAt, replaces } = e.data;
      const kept = s.devices.filter((d) => d.deviceId !== replaces);
      return { ...s, devices: [...kept, { deviceId, tokenHash, trustedAt: at, expiresAt, throttle: emptyBucket }] };
    }
    case 'DeviceRetired':
      return { ...s, devices: s.devices.filter((d) => d.deviceId !== e.data.deviceId) };
    case 'TwoFactorReset':
      // The replay floor survives a reset: a step once accepted stays spent. Devices trusted under the old factor do not.
      return { ...s, devices: [], totp: { status: 'none', encryptedSecret: null, lastTimeStep: s.totp.lastTimeStep } };
    case 'UserDeactivated':
      return { ...s, active: false };
  }
}

function mustExist(s: UserState): void {
  if (!s.exists) throw notFound('user');
}

const throttled = (message: string, retryAfterSeconds: number): DomainError => rule('sign-in-throttled', message, { retryAfterSeconds });
const openUntil = (bucket: SignInBucket): string[] => bucket.openChallenges.map((c) => c.expiresAt);
/** Event data names the trusted device an attempt was counted on; untrusted attempts carry none. */
const device = (deviceId: string | null): { deviceId?: string } => (deviceId ? { deviceId } : {});

/** Whether an activation token (its SHA-256) opens this invited account at `at`: pending, not replaced, not expired. */
export function activationUsable(s: UserState, presentedHash: string, at: string): boolean {
  if (!s.exists || !s.active || s.activation === null) return false;
  const expected = Buffer.from(s.activation.hash, 'utf8');
  const presented = Buffer.from(presentedHash, 'utf8');
  const same = expected.length === presented.length && timingSafeEqual(expected, presented);
  return same && Date.parse(at) < Date.parse(s.activation.expiresAt);
}

export function decideUser(cmd: UserCommand, s: UserState): UserEvent[] {
  switch (cmd.type) {
    case 'RegisterUser': {
      if (s.exists) throw rule('user-exists', 'this user is already registered');
      const { provisionedTotpSecret, ...account } = cmd.data;
      const registered: UserEvent = { type: 'UserRegistered', data: { userId: cmd.aggregateId, ...account } };
      if (!provisionedTotpSecret) return [registered];
      return [registered, { type: 'TotpEnrollmentConfirmed', data: { encryptedSecret: provisionedTotpSecret, timeStep: null } }];
    }
    case 'InviteUser': {
      if (s.exists) throw rule('user-exists', 'this user is already registered');
      return [{ type: 'UserInvited', data: { userId: cmd.aggregateId, ...cmd.data } }];
    }
    case 'IssueActivation': {
      mustExist(s);
      if (s.passwordHash) throw rule('user-already-activated', 'the user has already chosen a password');
      if (!s.active) throw new DomainError('user-inactive', 'the user is deactivated', 403);
      const { companyId, ...activation } = cmd.data;
      // An activation token opens the account to whoever holds it: never to a company whose invitation did not create it.
      if (companyId !== null && s.invitedBy !== null && s.invitedBy !== companyId)
        throw new DomainError('not-account-creator', 'only the company whose invitation created the account issues its activation', 403);
      return [{ type: 'ActivationIssued', data: activation }];
    }
    case 'ActivateUser': {
      const usable = activationUsable(s, cmd.data.presentedHash, cmd.at);
      // One answer for unknown, spent, replaced and expired tokens: the caller learns nothing about the account.
      if (!usable)
        throw new DomainError('activation-invalid', 'the activation token is not valid (unknown, used, replaced or expired)', 400);
      return [{ type: 'UserActivated', data: { passwordHash: cmd.data.passwordHash } }];
    }
    case 'ChangePassword':
      mustExist(s);
      if (!s.active) throw new DomainError('user-inactive', 'the user is deactivated', 403);
      return [{ type: 'PasswordChanged', data: { passwordHash: cmd.data.passwordHash } }];
    case 'AcceptStepUpPassword':
      mustExist(s);
      return [{ type: 'StepUpPasswordAccepted', data: { at: cmd.at } }];
    case 'StartTotpEnrollment':
      mustExist(s);
      if (s.totp.status === 'confirmed') throw rule('totp-already-enrolled', 'the user already has a confirmed second factor');
      if (s.totp.status === 'pending') return []; // keep the secret the user may already have scanned
      return [{ type: 'TotpEnrollmentStarted', data: { encryptedSecret: cmd.data.encryptedSecret } }];
    case 'ReserveLoginAttempt': {
      mustExist(s);
      const deviceId = trustedDeviceOf(s, cmd.data.deviceTokenHash, cmd.at)?.deviceId ?? null;
      const bucket = bucketOf(s, deviceId);
      const wait = loginRetryAfterSeconds(bucket, cmd.at, cmd.data.policy);
      if (wait > 0) throw throttled('too many failed sign-ins; retry later', wait);
      const openWait = openChallengeRetryAfterSeconds(openUntil(bucket), cmd.at, cmd.data.maxOpenChallenges);
      if (openWait > 0) throw throttled('too many sign-in challenges are open; use one or retry later', openWait);
      return [
        { type: 'LoginAttemptReserved', data: { consecutiveFailures: bucket.consecutiveFailures + 1, at: cmd.at, ...device(deviceId) } },
      ];
    }
    case 'RecordLoginFailure': {
      // Counted when the attempt was reserved: the failure records the outcome.
      mustExist(s);
      const deviceId = knownDeviceId(s, cmd.data.deviceId);
      const { consecutiveFailures } = bucketOf(s, deviceId);
      return [{ type: 'LoginFailed', data: { reason: cmd.data.reason, consecutiveFailures, at: cmd.at, ...device(deviceId) } }];
    }
    case 'RecordLoginSuccess': {
      mustExist(s);
      if (!s.active) throw new DomainError('user-inactive', 'the user is deactivated', 403);
      const { challengeId, expiresAt, maxOpenChallenges } = cmd.data;
      const deviceId = knownDeviceId(s, cmd.data.deviceId);
      // Concurrent right passwords all passed their reservation: the cap holds here, where a challenge is counted.
      const wait = openChallengeRetryAfterSeconds(openUntil(bucketOf(s, deviceId)), cmd.at, maxOpenChallenges);
      if (wait > 0) return [{ type: 'ChallengeWithheld', data: { at: cmd.at, retryAfterSeconds: wait, ...device(deviceId) } }];
      return [{ type: 'LoginSucceeded', data: { challengeId, expiresAt, at: cmd.at, ...device(deviceId) } }];
    }
    case 'ReserveTotpAttempt': {
      mustExist(s);
      const deviceId = knownDeviceId(s, cmd.data.deviceId);
      const times = bucketOf(s, deviceId).recentCodeAttempts.map((a) => a.at);
      const wait = codeRetryAfterSeconds(times, cmd.at, cmd.data.policy);
      if (wait > 0) throw throttled('too many wrong codes; retry later', wait);
      return [{ type: 'TotpAttemptReserved', data: { challengeId: cmd.data.challengeId, at: cmd.at, ...device(deviceId) } }];
    }
    case 'AcceptTotpCode': {
      mustExist(s);
      if (!s.active) throw new DomainError('user-inactive', 'the user is deactivated', 403);
      if (s.totp.status === 'none' || !s.totp.encryptedSecret) throw rule('totp-not-enrolled', 'the user has no second factor');
      const { challengeId, timeStep } = cmd.data;
      if (s.totp.lastTimeStep !== null && timeStep <= s.totp.lastTimeStep) {
        return [{ type: 'TotpReplayRefused', data: { challengeId, timeStep } }];
      }
      const accepted: UserEvent = { type: 'TotpCodeAccepted', data: { challengeId, timeStep } };
      if (s.totp.status === 'confirmed') return [accepted];
      return [{ type: 'TotpEnrollmentConfirmed', data: { encryptedSecret: s.totp.encryptedSecret, timeStep } }, accepted];
    }
    case 'RecordTotpCodeFailure':
      mustExist(s);
      return [{ type: 'TotpCodeRejected', data: { challengeId: cmd.data.challengeId, at: cmd.at, reserved: true } }];
    case 'TrustDevice': {
      mustExist(s);
      const { deviceId, tokenHash, expiresAt, replaces, maxDevices } = cmd.data;
      const replaced = knownDeviceId(s, replaces);
      const others = s.devices.filter((d) => d.deviceId !== replaced);
      const expired = others.filter((d) => Date.parse(d.expiresAt) <= Date.parse(cmd.at));
      const live = others.filter((d) => !expired.includes(d));
      const overLimit = live.slice(0, Math.max(0, live.length + 1 - maxDevices)); // oldest first
      return [
        ...expired.map((d): UserEvent => ({ type: 'DeviceRetired', data: { deviceId: d.deviceId, reason: 'expired' } })),
        ...overLimit.map((d): UserEvent => ({ type: 'DeviceRetired', data: { deviceId: d.deviceId, reason: 'limit' } })),
        { type: 'DeviceTrusted', data: { deviceId, tokenHash, at: cmd.at, expiresAt, ...(replaced ? { replaces: replaced } : {}) } },
      ];
    }
    case 'ResetTwoFactor':
      mustExist(s);
      return s.totp.status === 'none' ? [] : [{ type: 'TwoFactorReset', data: {} }];
    case 'DeactivateUser':
      mustExist(s);
      return s.active ? [{ type: 'UserDeactivated', data: {} }] : [];
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  category: 'user',
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
  // Sign-in attempts grow the stream with every guess: loaded from a snapshot. Bump when signInBuckets' fold changes.
  snapshot: { version: 1 },
};
