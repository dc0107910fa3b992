// Invitations: every invitation is a pending membership with a one-time token. A new address gets an account whose
// activation token is that token (only the company whose invitation created an account ever holds one); an address
// that already has an account is only offered the membership, which its holder accepts signed in with the token.
// Nothing of a pending membership works before it is accepted, and the inviting company learns the same either way.
import type { RateLimitLog } from '../../rateLimits.js';
import { handleCommand, loadAggregate } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { LIMITS } from '../../limits.js';
import { tooManyRequests } from '../../problems.js';
import { userDecider, type UserState } from './user/decider.js';
import { emailGuardDecider, emailGuardId, normalizeEmail } from './emailGuard/decider.js';
import { companyDecider, decideCompany } from './company/decider.js';
import { randomToken, sha256Hex } from '../../auth/tokens.js';
import { authRuntime } from '../../auth/authRuntime.js';
import {
  awaitPlatformReadModels,
  platformContext,
  type PlatformCaller,
  type PlatformServices,
  type ReadYourWrites,
} from './platformWrites.js';
import type { PlatformModel } from './platformFacts.js';
import { newId } from '../eventIds.js';

/** What an invitation write waits for: every platform model a member's next request reads. */
export const PLATFORM_MODELS: readonly PlatformModel[] = ['users', 'companies', 'memberships', 'sessions'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** What a write that lost a creation race answers: the other request created the record. */
const RACE_LOST = ['email-taken', 'already-exists', 'user-exists'];

export interface Activation {
  /** `<userId>.<256-bit random>`: shown once; only its SHA-256 is stored. */
  token: string;
  expiresAt: string;
}

export function newActivation(services: Pick<PlatformServices, 'now'>, userId: string): Activation & { hash: string } {
  const token = `${userId}.${randomToken()}`;
  const expiresAt = new Date(services.now().getTime() + LIMITS.activation.ttlSeconds * 1000).toISOString();
  return { token, expiresAt, hash: sha256Hex(token) };
}

const userStream = (userId: string): string => streamName(PLATFORM_TENANT, userDecider.category, userId);
const companyStream = (companyId: string): string => streamName(PLATFORM_TENANT, companyDecider.category, companyId);

export interface Invitation {
  userId: string;
  /** The platform's answer only: a company's answer never tells whether the address had an account. */
  accountCreated: boolean;
  /** The invitation's one-time token: it activates the account this invitation created, or accepts the membership. */
  activation: Activation;
  /** What the token does, for the e-mail to the address: set a password, or sign in and accept. */
  opens: 'account' | 'membership';
  position: bigint | null;
}

/** 429 once the company or the inviting person has sent their hour's invitations (they send the platform's e-mail). */
export async function throttleInvitation(
  services: PlatformServices,
  companyId: string,
  inviter: string,
  log?: RateLimitLog,
): Promise<void> {
  const runtime = await authRuntime(services);
  const now = services.now().getTime();
  const wait = Math.max(runtime.invitesPerCompany.waitFor(companyId, now, log), runtime.invitesPerInviter.waitFor(inviter, now, log));
  if (wait > 0) throw tooManyRequests(wait, 'Too many invitations from this company or person; retry later');
  runtime.invitesPerCompany.hit(companyId, now, log);
  runtime.invitesPerInviter.hit(inviter, now, log);
}

/** The account the guard of this e-mail names, reserving it for a new id when the e-mail is new. */
async function accountIdFor(services: PlatformServices, email: string, caller: PlatformCaller): Promise<string> {
  const guardId = emailGuardId(email);
  const guardStream = streamName(PLATFORM_TENANT, emailGuardDecider.category, guardId);
  const known = (await loadAggregate(services.events, emailGuardDecider, guardStream)).state.userId;
  if (known !== null) return known;
  try {
    const reserved = newId();
    await handleCommand(
      services.events,
      emailGuardDecider,
      { type: 'ReserveEmail', aggregateId: guardId, data: { email, userId: reserved } },
      platformContext(services, caller),
      { expectNew: true },
    );
    return reserved;
  } catch (err) {
    // A concurrent invitation of the same e-mail won the guard: this one invites that account.
    if (!(err instanceof DomainError && RACE_LOST.includes(err.code))) throw err;
    return (await loadAggregate(services.events, emailGuardDecider, guardStream)).state.userId!;
  }
}

/** Writes the invited account when it does not exist yet (the guard may name one never written); false if it existed. */
async function createAccount(
  services: PlatformServices,
  input: { userId: string; email: string; name: string; companyId: string; fresh: Activation & { hash: string } },
  caller: PlatformCaller,
): Promise<boolean> {
  const { userId, email, name, companyId, fresh } = input;
  try {
    await handleCommand(
      services.events,
      userDecider,
      {
        type: 'InviteUser',
        aggregateId: userId,
        data: { email, name: name.trim() || email, activationHash: fresh.hash, activationExpiresAt: fresh.expiresAt, companyId },
      },
      platformContext(services, caller),
      { expectNew: true },
    );
    return true;
  } catch (err) {
    // A concurrent invitation wrote the account first: this one is offered a membership of it.
    if (!(err instanceof DomainError && RACE_LOST.includes(err.code))) throw err;
    return false;
  }
}

/** The creating company's own invitation of an account nobody activated yet: its activation token follows the invitation's. */
const createdHereAndWaiting = (account: UserState, companyId: string): boolean =>
  account.exists && account.active && !account.passwordHash && account.invitedBy === companyId;

/**
 * Invites a person into a company with roles: a pending membership, and a new account when the e-mail has none. Every
 * fact is folded from a stream (strong): the company's roles, the e-mail's guard, the account; only the wait reads models.
 */
export async function inviteUser(
  services: PlatformServices<ReadYourWrites>,
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
  const company = await loadAggregate(services.events, companyDecider, companyStream(input.companyId));
  const probe = { type: 'GrantMembership', aggregateId: input.companyId, data: { userId: '\u0000probe', roles: input.roles } } as const;
  decideCompany({ ...probe, at: services.now().toISOString(), actor: caller.actor, tenantId: PLATFORM_TENANT }, company.state);

  const userId = await accountIdFor(services, email, caller);
  const fresh = newActivation(services, userId);
  const existing = (await loadAggregate(services.events, userDecider, userStream(userId))).state;
  const accountCreated = !existing.exists && (await createAccount(services, { ...input, userId, email, fresh }, caller));
  const account = accountCreated ? null : (await loadAggregate(services.events, userDecider, userStream(userId))).state;
  const offered = await offer(services, { companyId: input.companyId, userId, roles: input.roles, name: input.name, email, fresh }, caller);
  // Only the creating company re-invites with a token that activates: an interrupted invitation, or one it withdrew.
  const opensAccount = accountCreated || (account !== null && createdHereAndWaiting(account, input.companyId));
  if (!accountCreated && opensAccount) await issueActivation(services, userId, input.companyId, fresh, caller);
  await awaitPlatformReadModels(services, offered, PLATFORM_MODELS);
  return {
    userId,
    accountCreated,
    activation: { token: fresh.token, expiresAt: fresh.expiresAt },
    opens: opensAccount ? 'account' : 'membership',
    position: offered,
  };
}

async function offer(
  services: PlatformServices,
  input: { companyId: string; userId: string; roles: string[]; name: string; email: string; fresh: Activation & { hash: string } },
  caller: PlatformCaller,
): Promise<bigint | null> {
  const { companyId, userId, roles, email, fresh } = input;
  const name = input.name.trim() || email;
  const result = await handleCommand(
    services.events,
    companyDecider,
    {
      type: 'OfferMembership',
      aggregateId: companyId,
      data: { userId, roles, name, email, tokenHash: fresh.hash, expiresAt: fresh.expiresAt, replace: false },
    },
    platformContext(services, caller),
  );
  return result.position;
}

async function issueActivation(
  services: PlatformServices,
  userId: string,
  companyId: string | null,
  fresh: Activation & { hash: string },
  caller: PlatformCaller,
): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    userDecider,
    { type: 'IssueActivation', aggregateId: userId, data: { activationHash: fresh.hash, activationExpiresAt: fresh.expiresAt, companyId } },
    platformContext(services, caller),
  );
  return result.position;
}

/**
 * A new token for a pending membership (the previous one stops working). It also activates the account only when this
 * company's invitation created it and nobody activated it yet; for anyone else it only accepts the membership.
 */
export async function reissueInvitation(
  services: PlatformServices<ReadYourWrites>,
  input: { companyId: string; userId: string },
  caller: PlatformCaller,
): Promise<Activation & { opens: Invitation['opens']; position: bigint | null }> {
  const { companyId, userId } = input;
  const company = (await loadAggregate(services.events, companyDecider, companyStream(companyId))).state;
  const pending = company.offers[userId];
  if (!pending) throw new DomainError('not-found', 'no pending invitation of this user', 404);
  const account = (await loadAggregate(services.events, userDecider, userStream(userId))).state;
  const fresh = newActivation(services, userId);
  const result = await handleCommand(
    services.events,
    companyDecider,
    {
      type: 'OfferMembership',
      aggregateId: companyId,
      data: {
        userId,
        roles: pending.roles,
        name: pending.name,
        email: pending.email,
        tokenHash: fresh.hash,
        expiresAt: fresh.expiresAt,
        replace: true,
      },
    },
    platformContext(services, caller),
  );
  const opensAccount = createdHereAndWaiting(account, companyId);
  if (opensAccount) await issueActivation(services, userId, companyId, fresh, caller);
  await awaitPlatformReadModels(services, result.position, PLATFORM_MODELS);
  return { token: fresh.token, expiresAt: fresh.expiresAt, opens: opensAccount ? 'account' : 'membership', position: result.position };
}

/** The signed-in holder accepts a pending membership with its one-time token: from now on it works like any other. */
export async function acceptInvitation(
  services: PlatformServices<ReadYourWrites>,
  input: { userId: string; companyId: string; token: string },
  caller: PlatformCaller,
): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    companyDecider,
    { type: 'AcceptMembershipOffer', aggregateId: input.companyId, data: { userId: input.userId, presentedHash: sha256Hex(input.token) } },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, PLATFORM_MODELS);
  return result.position;
}

/** The signed-in holder declines a pending membership: it ends, and the company sees it ended. */
export async function declineInvitation(
  services: PlatformServices<ReadYourWrites>,
  input: { userId: string; companyId: string },
  caller: PlatformCaller,
): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    companyDecider,
    { type: 'DeclineMembershipOffer', aggregateId: input.companyId, data: { userId: input.userId } },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, PLATFORM_MODELS);
  return result.position;
}

/**
 * Activating an account with its token is the person accepting the invitation that created it (the same token). A
 * failure here leaves the membership pending: the person, signed in, accepts it with the same token.
 */
export async function acceptCreatingInvitation(
  services: PlatformServices<ReadYourWrites>,
  input: { userId: string; companyId: string | null; presentedHash: string },
  caller: PlatformCaller,
): Promise<void> {
  if (!input.companyId) return;
  try {
    const result = await handleCommand(
      services.events,
      companyDecider,
      { type: 'AcceptMembershipOffer', aggregateId: input.companyId, data: { userId: input.userId, presentedHash: input.presentedHash } },
      platformContext(services, caller),
    );
    await awaitPlatformReadModels(services, result.position, PLATFORM_MODELS);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    services.logger.info('the invitation that created an account was not accepted at its activation', {
      userId: input.userId,
      code: err.code,
    });
  }
}
