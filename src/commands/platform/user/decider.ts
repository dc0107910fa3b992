// The platform user: account, TOTP second factor (with replay protection) and sign-in history.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import type { UserEvent } from './events.js';
import { codeRetryAfterSeconds, loginRetryAfterSeconds, type CodeThrottlePolicy, type LoginThrottlePolicy } from './signInThrottle.js';

export type TotpStatus = 'none' | 'pending' | 'confirmed';

export interface UserState {
  exists: boolean;
  userId: string;
  email: string;
  name: string;
  passwordHash: string;
  platformAdmin: boolean;
  active: boolean;
  totp: { status: TotpStatus; encryptedSecret: string | null; lastTimeStep: number | null };
  consecutiveFailures: number;
  lastFailureAt: string | null;
  /** The latest code attempts that were not accepted (bounded), for the per-user code throttle. */
  recentCodeAttempts: { at: string; challengeId: string }[];
}

const KEPT_CODE_ATTEMPTS = 32;

export const initialUserState: UserState = {
  exists: false,
  userId: '',
  email: '',
  name: '',
  passwordHash: '',
  platformAdmin: false,
  active: false,
  totp: { status: 'none', encryptedSecret: null, lastTimeStep: null },
  consecutiveFailures: 0,
  lastFailureAt: null,
  recentCodeAttempts: [],
};

export type UserCommand =
  | CommandEnvelope<
      'RegisterUser',
      { email: string; name: string; passwordHash: string; platformAdmin: boolean; provisionedTotpSecret?: string | null }
    >
  | CommandEnvelope<'StartTotpEnrollment', { encryptedSecret: string }>
  | CommandEnvelope<'RecordLoginSuccess', { challengeId: string }>
  | CommandEnvelope<'ReserveLoginAttempt', { policy: LoginThrottlePolicy }>
  | CommandEnvelope<'RecordLoginFailure', { reason: 'wrong-password' | 'inactive' }>
  | CommandEnvelope<'ReserveTotpAttempt', { challengeId: string; policy: CodeThrottlePolicy }>
  | CommandEnvelope<'AcceptTotpCode', { challengeId: string; timeStep: number }>
  | CommandEnvelope<'RecordTotpCodeFailure', { challengeId: string }>
  | CommandEnvelope<'ResetTwoFactor', Record<string, never>>
  | CommandEnvelope<'DeactivateUser', Record<string, never>>;

export function evolveUser(s: UserState, e: UserEvent): UserState {
  switch (e.type) {
    case 'UserRegistered':
      return { ...s, exists: true, active: true, ...e.data };
    case 'TotpEnrollmentStarted':
      return { ...s, totp: { status: 'pending', encryptedSecret: e.data.encryptedSecret, lastTimeStep: s.totp.lastTimeStep } };
    case 'TotpEnrollmentConfirmed':
      return {
        ...s,
        totp: { status: 'confirmed', encryptedSecret: e.data.encryptedSecret, lastTimeStep: e.data.timeStep ?? s.totp.lastTimeStep },
      };
    case 'LoginSucceeded':
      return { ...s, consecutiveFailures: 0, lastFailureAt: null };
    case 'LoginAttemptReserved':
    case 'LoginFailed':
      return { ...s, consecutiveFailures: e.data.consecutiveFailures, lastFailureAt: e.data.at };
    case 'TotpAttemptReserved':
      return { ...s, recentCodeAttempts: [...s.recentCodeAttempts, e.data].slice(-KEPT_CODE_ATTEMPTS) };
    case 'TotpCodeAccepted': {
      // The accepted attempt leaves the throttle window; the wrong ones before it stay.
      const last = s.recentCodeAttempts.findLastIndex((a) => a.challengeId === e.data.challengeId);
      const recentCodeAttempts = last < 0 ? s.recentCodeAttempts : s.recentCodeAttempts.filter((_, i) => i !== last);
      return { ...s, recentCodeAttempts, totp: { ...s.totp, lastTimeStep: Math.max(e.data.timeStep, s.totp.lastTimeStep ?? -1) } };
    }
    case 'TotpCodeRejected':
      if (e.data.reserved) return s;
      return {
        ...s,
        recentCodeAttempts: [...s.recentCodeAttempts, { at: e.data.at, challengeId: e.data.challengeId }].slice(-KEPT_CODE_ATTEMPTS),
      };
    case 'TotpReplayRefused':
      return s;
    case 'TwoFactorReset':
      // The replay floor survives a reset: a step once accepted stays spent.
      return { ...s, totp: { status: 'none', encryptedSecret: null, lastTimeStep: s.totp.lastTimeStep } };
    case 'UserDeactivated':
      return { ...s, active: false };
  }
}

function mustExist(s: UserState): void {
  if (!s.exists) throw notFound('user');
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
    case 'StartTotpEnrollment':
      mustExist(s);
      if (s.totp.status === 'confirmed') throw rule('totp-already-enrolled', 'the user already has a confirmed second factor');
      if (s.totp.status === 'pending') return []; // keep the secret the user may already have scanned
      return [{ type: 'TotpEnrollmentStarted', data: { encryptedSecret: cmd.data.encryptedSecret } }];
    case 'RecordLoginSuccess':
      mustExist(s);
      if (!s.active) throw new DomainError('user-inactive', 'the user is deactivated', 403);
      return [{ type: 'LoginSucceeded', data: { challengeId: cmd.data.challengeId } }];
    case 'ReserveLoginAttempt': {
      mustExist(s);
      const wait = loginRetryAfterSeconds(s, cmd.at, cmd.data.policy);
      if (wait > 0) throw rule('sign-in-throttled', 'too many failed sign-ins; retry later', { retryAfterSeconds: wait });
      return [{ type: 'LoginAttemptReserved', data: { consecutiveFailures: s.consecutiveFailures + 1, at: cmd.at } }];
    }
    case 'RecordLoginFailure':
      // Counted when the attempt was reserved: the failure records the outcome.
      mustExist(s);
      return [{ type: 'LoginFailed', data: { reason: cmd.data.reason, consecutiveFailures: s.consecutiveFailures, at: cmd.at } }];
    case 'ReserveTotpAttempt': {
      mustExist(s);
      const times = s.recentCodeAttempts.map((a) => a.at);
      const wait = codeRetryAfterSeconds(times, cmd.at, cmd.data.policy);
      if (wait > 0) throw rule('sign-in-throttled', 'too many wrong codes; retry later', { retryAfterSeconds: wait });
      return [{ type: 'TotpAttemptReserved', data: { challengeId: cmd.data.challengeId, at: cmd.at } }];
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
};
