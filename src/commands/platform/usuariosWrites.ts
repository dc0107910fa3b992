// Usuarios: a company changes its members' roles, revokes memberships, resets second factors; the platform deactivates
// accounts; a person activates an invitation (invitationWrites.ts) and changes their own password. Every write goes
// through handleCommand.
import { handleCommand, loadAggregate } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { tooManyRequests } from '../../problems.js';
import { activationUsable, userDecider, type UserState } from './user/decider.js';
import { companyDecider } from './company/decider.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { checkNewPassword } from '../../auth/passwordPolicy.js';
import { sha256Hex } from '../../auth/tokens.js';
import { authRuntime } from '../../auth/authRuntime.js';
import {
  awaitPlatformReadModels,
  platformContext,
  type PlatformCaller,
  type PlatformServices,
  type ReadYourWrites,
} from './platformWrites.js';
import { revokeSessionsOf, type SessionRevocationFacts } from './sessionRevocationWrites.js';
import { acceptCreatingInvitation, newActivation, PLATFORM_MODELS, type Activation } from './invitationWrites.js';
import { invitationOpenedBy, type InvitationTokenFacts } from './invitationTokenWrites.js';
import { throttledAs429 } from './signInProblems.js';
import { LOGIN_POLICY } from './signInWrites.js';
import { checkStepUpCode } from './stepUpWrites.js';

/** Activating: the invitation the token opens (InvitationTokenFacts); the account is folded from its stream (strong). */
export type ActivationFacts = InvitationTokenFacts & ReadYourWrites;

const userStream = (userId: string): string => streamName(PLATFORM_TENANT, userDecider.category, userId);

function invalidPassword(reason: string, detail: string): DomainError {
  return new DomainError('weak-password', detail, 422, { reason, errors: [{ field: 'password', message: detail }] });
}

/** 422 weak-password naming the field unless the policy accepts the password for this person. */
function mustBeStrong(password: string, who: { email: string; name: string }, field = 'password'): void {
  const check = checkNewPassword(password, who);
  if (!check.ok) {
    const error = invalidPassword(check.reason, check.detail);
    throw field === 'password'
      ? error
      : new DomainError(error.code, error.message, 422, { reason: check.reason, errors: [{ field, message: check.detail }] });
  }
}

async function checkedPasswordHash(password: string, who: { email: string; name: string }, field = 'password'): Promise<string> {
  mustBeStrong(password, who, field);
  return hashPassword(password);
}

/** A new activation token for an invited member who has not chosen a password yet (the previous token stops working). */
export async function reissueActivation(
  services: PlatformServices,
  userId: string,
  caller: PlatformCaller,
  companyId: string | null = null,
): Promise<Activation & { position: bigint | null }> {
  const fresh = newActivation(services, userId);
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'IssueActivation', aggregateId: userId, data: { activationHash: fresh.hash, activationExpiresAt: fresh.expiresAt, companyId } },
    platformContext(services, caller),
  );
  return { token: fresh.token, expiresAt: fresh.expiresAt, position: result.position };
}

const ACTIVATION_TOKEN = /^([0-9a-f-]{36})\.[A-Za-z0-9_-]{43}$/;

/** The invited person sets a password with the activation token; the first sign-in then enrolls the authenticator. */
export async function activateAccount(
  services: PlatformServices<ActivationFacts>,
  input: { token: string; password: string },
  caller: Omit<PlatformCaller, 'actor'>,
): Promise<{ userId: string; email: string; position: bigint | null }> {
  const runtime = await authRuntime(services);
  const wait = runtime.loginPerIp.hit(`activate:${caller.ip ?? 'unknown'}`, services.now().getTime(), caller.rateLimits);
  if (wait > 0) throw tooManyRequests(wait, 'Too many activation attempts from this address; retry later');
  const userId = ACTIVATION_TOKEN.exec(input.token)?.[1];
  const invalid = new DomainError('activation-invalid', 'the activation token is not valid (unknown, used, replaced or expired)', 400);
  if (!userId) throw invalid;
  const presentedHash = sha256Hex(input.token);
  const at = services.now().toISOString();
  // The token is judged before the password: nothing about the account (nor an argon2 hash) for a token that opens nothing.
  // A company's invitation token is judged against what that company entered before it is told apart, so a password the
  // policy refuses answers the same whether the token activates a new account or accepts an existing account's membership.
  const invitation = await invitationOpenedBy(services, userId, presentedHash, at);
  if (invitation) mustBeStrong(input.password, invitation);
  const { state } = await loadAggregate(services.events, userDecider, userStream(userId));
  if (!activationUsable(state, presentedHash, at)) throw invalid;
  const passwordHash = await checkedPasswordHash(input.password, invitation ?? state);
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'ActivateUser', aggregateId: userId, data: { presentedHash, passwordHash } },
    platformContext(services, { ...caller, actor: userId }),
  );
  await awaitPlatformReadModels(services, result.position, ['users']);
  await acceptCreatingInvitation(services, { userId, companyId: state.invitedBy, presentedHash }, { ...caller, actor: userId });
  return { userId, email: state.email, position: result.position };
}

const wrongField = (field: string, message: string): DomainError =>
  new DomainError('validation-failed', `${field}: ${message}`, 422, { errors: [{ field, message }] });

/** The current password at a step-up counts like a login attempt: the same growing delays, cleared when right. */
async function checkCurrentPassword(
  services: PlatformServices,
  userId: string,
  password: string,
  caller: PlatformCaller,
): Promise<UserState> {
  const ctx = platformContext(services, caller);
  const { state: user } = await throttledAs429(
    handleCommand(
      services.events,
      userDecider,
      // No challenge is issued at a step-up: the open-challenge cap does not apply.
      {
        type: 'ReserveLoginAttempt',
        aggregateId: userId,
        data: { policy: LOGIN_POLICY, deviceTokenHash: null, maxOpenChallenges: Number.MAX_SAFE_INTEGER },
      },
      ctx,
    ),
    caller.rateLimits,
  );
  if (!(await verifyPassword(user.passwordHash || null, password))) {
    await handleCommand(
      services.events,
      userDecider,
      { type: 'RecordLoginFailure', aggregateId: userId, data: { reason: 'wrong-password', deviceId: null } },
      ctx,
    );
    throw wrongField('currentPassword', 'is not your current password');
  }
  await handleCommand(services.events, userDecider, { type: 'AcceptStepUpPassword', aggregateId: userId, data: {} }, ctx);
  return user;
}

/** A person changes their own password: current password and a fresh TOTP code; their other sessions end. */
export async function changeOwnPassword(
  services: PlatformServices<SessionRevocationFacts>,
  input: { userId: string; sessionId: string; currentPassword: string; code: string; newPassword: string },
  caller: PlatformCaller,
): Promise<void> {
  const user = await checkCurrentPassword(services, input.userId, input.currentPassword, caller);
  await checkStepUpCode(services, user, input.code, caller);
  const passwordHash = await checkedPasswordHash(input.newPassword, user, 'newPassword');
  await handleCommand(
    services.events,
    userDecider,
    { type: 'ChangePassword', aggregateId: input.userId, data: { passwordHash } },
    platformContext(services, caller),
  );
  await revokeSessionsOf(services, { userId: input.userId, exceptSessionId: input.sessionId }, 'password-changed', caller);
}

/** A member's roles in the company; takes effect on their next request. */
export async function changeMemberRoles(
  services: PlatformServices<ReadYourWrites>,
  input: { companyId: string; userId: string; roles: string[] },
  caller: PlatformCaller,
): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    companyDecider,
    { type: 'ChangeMembership', aggregateId: input.companyId, data: { userId: input.userId, roles: input.roles } },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, PLATFORM_MODELS);
  return result.position;
}

/** Ends a membership and the sessions working inside that company. */
export async function revokeMember(
  services: PlatformServices<SessionRevocationFacts>,
  input: { companyId: string; userId: string },
  caller: PlatformCaller,
): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    companyDecider,
    { type: 'RevokeMembership', aggregateId: input.companyId, data: { userId: input.userId } },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, PLATFORM_MODELS);
  await revokeSessionsOf(services, input, 'membership-revoked', caller);
  return result.position;
}

/** The user must enroll a new authenticator at the next sign-in; their sessions end. */
export async function resetSecondFactor(
  services: PlatformServices<SessionRevocationFacts>,
  userId: string,
  caller: PlatformCaller,
): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'ResetTwoFactor', aggregateId: userId, data: {} },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, ['users']);
  await revokeSessionsOf(services, { userId }, 'two-factor-reset', caller);
  return result.position;
}

/** Platform: the account can no longer sign in, and every session of it ends now. */
export async function deactivateAccount(
  services: PlatformServices<SessionRevocationFacts>,
  userId: string,
  caller: PlatformCaller,
): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'DeactivateUser', aggregateId: userId, data: {} },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, ['users']);
  await revokeSessionsOf(services, { userId }, 'user-deactivated', caller);
  return result.position;
}
