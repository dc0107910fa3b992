// Usuarios: a company invites people (a new account with a one-time activation token, or a membership for an
// existing account), changes their roles, revokes memberships, resets second factors; the platform deactivates
// accounts; a person activates an invitation and changes their own password. Every write goes through handleCommand.
import type { AppServices } from '../../services.js';
import { handleCommand, loadAggregate } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { LIMITS } from '../../limits.js';
import { tooManyRequests } from '../../problems.js';
import { activationUsable, userDecider, type UserState } from './user/decider.js';
import { emailGuardDecider, emailGuardId, normalizeEmail } from './emailGuard/decider.js';
import { companyDecider, decideCompany } from './company/decider.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { checkNewPassword } from '../../auth/passwordPolicy.js';
import { randomToken, sha256Hex } from '../../auth/tokens.js';
import { authRuntime } from '../../auth/authRuntime.js';
import { COMPANIES, MEMBERSHIPS, SESSIONS, USERS, type MembershipDoc } from '../../projections/platform/platformReadModels.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { awaitPlatformReadModels, platformContext, type PlatformCaller } from './platformWrites.js';
import { revokeSessionsOf } from './sessionRevocationWrites.js';
import { newId } from '../eventIds.js';
import { throttledAs429 } from './signInProblems.js';
import { LOGIN_POLICY } from './signInWrites.js';
import { checkStepUpCode } from './stepUpWrites.js';

const PLATFORM_MODELS = [USERS.projection, COMPANIES.projection, MEMBERSHIPS.projection, SESSIONS.projection];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** What a write that lost a creation race answers: the other request created the record. */
const RACE_LOST = ['email-taken', 'already-exists', 'user-exists'];

export interface Activation {
  /** `<userId>.<256-bit random>`: shown once; only its SHA-256 is stored. */
  token: string;
  expiresAt: string;
}

function newActivation(services: AppServices, userId: string): Activation & { hash: string } {
  const token = `${userId}.${randomToken()}`;
  const expiresAt = new Date(services.now().getTime() + LIMITS.activation.ttlSeconds * 1000).toISOString();
  return { token, expiresAt, hash: sha256Hex(token) };
}

const userStream = (userId: string): string => streamName(PLATFORM_TENANT, userDecider.category, userId);

function invalidPassword(reason: string, detail: string): DomainError {
  return new DomainError('weak-password', detail, 422, { reason, errors: [{ field: 'password', message: detail }] });
}

async function checkedPasswordHash(password: string, who: { email: string; name: string }, field = 'password'): Promise<string> {
  const check = checkNewPassword(password, who);
  if (!check.ok) {
    const error = invalidPassword(check.reason, check.detail);
    throw field === 'password'
      ? error
      : new DomainError(error.code, error.message, 422, { reason: check.reason, errors: [{ field, message: check.detail }] });
  }
  return hashPassword(password);
}

export interface Invitation {
  userId: string;
  /** False when the e-mail already had an account: it got a membership, not a second account. */
  accountCreated: boolean;
  activation: Activation | null;
  position: bigint | null;
}

/** Invites a person into a company with roles: a new account (with an activation token) or a membership of an existing one. */
export async function inviteUser(
  services: AppServices,
  input: { companyId: string; email: string; name: string; roles: string[] },
  caller: PlatformCaller,
): Promise<Invitation> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email)) {
    throw new DomainError('validation-failed', 'the e-mail address is not valid', 422, {
      errors: [{ field: 'email', message: 'is not an e-mail address' }],
    });
  }
  // The roles are checked before any account is created: a refused membership leaves no orphan account behind.
  const company = await loadAggregate(
    services.events,
    companyDecider,
    streamName(PLATFORM_TENANT, companyDecider.category, input.companyId),
  );
  const probe = { type: 'GrantMembership', aggregateId: input.companyId, data: { userId: '\u0000probe', roles: input.roles } } as const;
  decideCompany({ ...probe, at: services.now().toISOString(), actor: caller.actor, tenantId: PLATFORM_TENANT }, company.state);

  const guardId = emailGuardId(email);
  const guardStream = streamName(PLATFORM_TENANT, emailGuardDecider.category, guardId);
  let userId = (await loadAggregate(services.events, emailGuardDecider, guardStream)).state.userId;
  if (userId === null) {
    try {
      const reserved = newId();
      await handleCommand(
        services.events,
        emailGuardDecider,
        { type: 'ReserveEmail', aggregateId: guardId, data: { email, userId: reserved } },
        platformContext(services, caller),
        { expectNew: true },
      );
      userId = reserved;
    } catch (err) {
      // A concurrent invitation of the same e-mail won the guard: this one becomes a membership of that account.
      if (!(err instanceof DomainError && RACE_LOST.includes(err.code))) throw err;
      userId = (await loadAggregate(services.events, emailGuardDecider, guardStream)).state.userId!;
    }
  }
  let activation: Activation | null = null;
  let accountCreated = false;
  // The guard may name an account never written (an interrupted invitation): this invitation writes it.
  const account = (await loadAggregate(services.events, userDecider, userStream(userId))).state;
  if (account.exists && !account.active) throw new DomainError('user-inactive', 'the account with this e-mail is deactivated', 409);
  if (!account.exists) {
    const fresh = newActivation(services, userId);
    try {
      await handleCommand(
        services.events,
        userDecider,
        {
          type: 'InviteUser',
          aggregateId: userId,
          data: { email, name: input.name.trim() || email, activationHash: fresh.hash, activationExpiresAt: fresh.expiresAt },
        },
        platformContext(services, caller),
        { expectNew: true },
      );
      activation = { token: fresh.token, expiresAt: fresh.expiresAt };
      accountCreated = true;
    } catch (err) {
      // A concurrent invitation wrote the account first: this one is a membership of it.
      if (!(err instanceof DomainError && RACE_LOST.includes(err.code))) throw err;
    }
  }
  // An account nobody activated and no company holds (an invitation interrupted before its membership) gets a fresh token.
  if (!accountCreated && account.exists && !account.passwordHash && !(await heldByAnyCompany(services, userId))) {
    const { position: _reissued, ...fresh } = await reissueActivation(services, userId, caller);
    activation = fresh;
  }
  const granted = await handleCommand(
    services.events,
    companyDecider,
    { type: 'GrantMembership', aggregateId: input.companyId, data: { userId, roles: input.roles } },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, granted.position, PLATFORM_MODELS);
  return { userId, accountCreated, activation, position: granted.position };
}

async function heldByAnyCompany(services: AppServices, userId: string): Promise<boolean> {
  const memberships = services.projections.collection<MembershipDoc>(MEMBERSHIPS.projection, MEMBERSHIPS.collection);
  return (await memberships.count(PLATFORM_DOCS, { userId, active: true })) > 0;
}

/** A new activation token for an invited member who has not chosen a password yet (the previous token stops working). */
export async function reissueActivation(
  services: AppServices,
  userId: string,
  caller: PlatformCaller,
): Promise<Activation & { position: bigint | null }> {
  const fresh = newActivation(services, userId);
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'IssueActivation', aggregateId: userId, data: { activationHash: fresh.hash, activationExpiresAt: fresh.expiresAt } },
    platformContext(services, caller),
  );
  return { token: fresh.token, expiresAt: fresh.expiresAt, position: result.position };
}

const ACTIVATION_TOKEN = /^([0-9a-f-]{36})\.[A-Za-z0-9_-]{43}$/;

/** The invited person sets a password with the activation token; the first sign-in then enrolls the authenticator. */
export async function activateAccount(
  services: AppServices,
  input: { token: string; password: string },
  caller: Omit<PlatformCaller, 'actor'>,
): Promise<{ userId: string; email: string; position: bigint | null }> {
  const runtime = await authRuntime(services);
  const wait = runtime.loginPerIp.hit(`activate:${caller.ip ?? 'unknown'}`, services.now().getTime());
  if (wait > 0) throw tooManyRequests(wait, 'Too many activation attempts from this address; retry later');
  const userId = ACTIVATION_TOKEN.exec(input.token)?.[1];
  const invalid = new DomainError('activation-invalid', 'the activation token is not valid (unknown, used, replaced or expired)', 400);
  if (!userId) throw invalid;
  const { state } = await loadAggregate(services.events, userDecider, userStream(userId));
  const presentedHash = sha256Hex(input.token);
  // The token is judged before the password: nothing about the account (nor an argon2 hash) for a wrong token.
  if (!activationUsable(state, presentedHash, services.now().toISOString())) throw invalid;
  const passwordHash = await checkedPasswordHash(input.password, state);
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'ActivateUser', aggregateId: userId, data: { presentedHash, passwordHash } },
    platformContext(services, { ...caller, actor: userId }),
  );
  await awaitPlatformReadModels(services, result.position, [USERS.projection]);
  return { userId, email: state.email, position: result.position };
}

const wrongField = (field: string, message: string): DomainError =>
  new DomainError('validation-failed', `${field}: ${message}`, 422, { errors: [{ field, message }] });

/** The current password at a step-up counts like a login attempt: the same growing delays, cleared when right. */
async function checkCurrentPassword(services: AppServices, userId: string, password: string, caller: PlatformCaller): Promise<UserState> {
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
  services: AppServices,
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
  services: AppServices,
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
  services: AppServices,
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
export async function resetSecondFactor(services: AppServices, userId: string, caller: PlatformCaller): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'ResetTwoFactor', aggregateId: userId, data: {} },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, [USERS.projection]);
  await revokeSessionsOf(services, { userId }, 'two-factor-reset', caller);
  return result.position;
}

/** Platform: the account can no longer sign in, and every session of it ends now. */
export async function deactivateAccount(services: AppServices, userId: string, caller: PlatformCaller): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'DeactivateUser', aggregateId: userId, data: {} },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, [USERS.projection]);
  await revokeSessionsOf(services, { userId }, 'user-deactivated', caller);
  return result.position;
}
