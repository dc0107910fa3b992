// Platform writes used outside sign-in: registering users and companies and granting memberships
// (bootstrap, test harness, and later the Usuarios/Empresas routes). Every write goes through handleCommand.
import type { RateLimitLog } from '../../rateLimits.js';
import { randomUUID } from 'node:crypto';
import type { AppServices } from '../../services.js';
import { LIMITS } from '../../limits.js';
import { readModelBehind } from '../../problems.js';
import { handleCommand, loadAggregate, type CommandContext } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { userDecider } from './user/decider.js';
import { emailGuardDecider, emailGuardId, normalizeEmail } from './emailGuard/decider.js';
import { companyDecider } from './company/decider.js';
import { authRuntime } from '../../auth/authRuntime.js';
import { hashPassword } from '../../auth/passwords.js';
import { checkNewPassword } from '../../auth/passwordPolicy.js';
import { isAcceptableTotpSecret, normalizeTotpSecret } from '../../auth/totp.js';
import type { PlatformFacts, PlatformModel } from './platformFacts.js';

export interface PlatformCaller {
  actor: string;
  correlationId?: string;
  /** The request's W3C trace, named in the events' metadata. */
  trace?: CommandContext['trace'];
  sessionId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** Makes the write idempotent: a retry with the same key does not write again. */
  idempotencyKey?: string | null;
  /** Why: recorded in the metadata of every event of the write. */
  reason?: string | null;
  /** The request's RateLimit log its throttles report into; never recorded. */
  rateLimits?: RateLimitLog;
}

export const SYSTEM_CALLER: PlatformCaller = { actor: 'system' };

/**
 * What a platform orchestration is handed: the services without the read models, and the loader of the facts `F` it
 * names (a part of PlatformFacts, wired at the composition root). Any AppServices is one.
 */
export type PlatformServices<F = unknown> = Omit<AppServices, 'reads' | 'projections' | 'platformFacts'> & { platformFacts: F };

/** The one fact every write that answers after its read models needs: the wait for them. */
export type ReadYourWrites = Pick<PlatformFacts, 'caughtUp'>;

export function platformContext(
  services: Pick<AppServices, 'now'>,
  caller: PlatformCaller,
  idempotencyKey?: string | null,
): CommandContext {
  return {
    tenantId: PLATFORM_TENANT,
    actor: caller.actor,
    sessionId: caller.sessionId ?? null,
    correlationId: caller.correlationId ?? randomUUID(),
    ...(caller.trace ? { trace: caller.trace } : {}),
    idempotencyKey: idempotencyKey ?? null,
    ip: caller.ip ?? null,
    userAgent: caller.userAgent ?? null,
    reason: caller.reason ?? null,
    at: services.now().toISOString(),
  };
}

/** Company ids are tenant ids: letters and digits only (no '-' or '.'), see TENANT_ID_PATTERN. */
export function newCompanyId(): string {
  return randomUUID().replace(/-/g, '');
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUser {
  email: string;
  name: string;
  password: string;
  platformAdmin?: boolean;
  /** Base32 TOTP secret provisioned out of band (bootstrap); without it the first sign-in enrolls. */
  totpSecret?: string | null;
  userId?: string;
}

const keyed = (caller: PlatformCaller, step: string): string | null => (caller.idempotencyKey ? `${caller.idempotencyKey}:${step}` : null);

/** Reserves the e-mail (guard stream, no_stream) and registers the user. */
export async function registerUser(
  services: PlatformServices,
  user: NewUser,
  caller: PlatformCaller,
): Promise<{ userId: string; position: bigint | null }> {
  const email = normalizeEmail(user.email);
  if (!EMAIL.test(email)) throw new DomainError('invalid-email', 'the e-mail address is not valid', 422);
  const policy = checkNewPassword(user.password, user);
  if (!policy.ok) throw new DomainError('weak-password', policy.detail, 422, { reason: policy.reason });
  if (user.totpSecret && !isAcceptableTotpSecret(user.totpSecret))
    throw new DomainError('invalid-totp-secret', 'a TOTP secret is Base32 of at least 16 bytes', 422);

  const guardId = emailGuardId(email);
  const guardStream = streamName(PLATFORM_TENANT, emailGuardDecider.category, guardId);
  let userId = user.userId ?? randomUUID();
  const guard = await loadAggregate(services.events, emailGuardDecider, guardStream);
  if (guard.state.userId === null) {
    await handleCommand(
      services.events,
      emailGuardDecider,
      { type: 'ReserveEmail', aggregateId: guardId, data: { email, userId } },
      platformContext(services, caller, keyed(caller, 'email')),
      { expectNew: true },
    );
  } else {
    // The e-mail was reserved: fine only when it was reserved for this very registration (an interrupted retry).
    const existing = await loadAggregate(
      services.events,
      userDecider,
      streamName(PLATFORM_TENANT, userDecider.category, guard.state.userId),
    );
    if (existing.revision >= 0 || (user.userId && user.userId !== guard.state.userId))
      throw new DomainError('email-taken', 'a user with this e-mail already exists', 409);
    userId = guard.state.userId;
  }

  const runtime = await authRuntime(services);
  const provisionedTotpSecret = user.totpSecret ? runtime.totpSecrets.seal(normalizeTotpSecret(user.totpSecret)) : null;
  const result = await handleCommand(
    services.events,
    userDecider,
    {
      type: 'RegisterUser',
      aggregateId: userId,
      data: {
        email,
        name: user.name.trim() || email,
        passwordHash: await hashPassword(user.password),
        platformAdmin: user.platformAdmin ?? false,
        provisionedTotpSecret,
      },
    },
    platformContext(services, caller, keyed(caller, 'user')),
    { expectNew: true },
  );
  return { userId, position: result.position };
}

export async function registerCompany(
  services: PlatformServices,
  company: { name: string; legalName?: string | null; taxId?: string | null; companyId?: string },
  caller: PlatformCaller,
): Promise<{ companyId: string; position: bigint | null }> {
  const companyId = company.companyId ?? newCompanyId();
  const result = await handleCommand(
    services.events,
    companyDecider,
    {
      type: 'RegisterCompany',
      aggregateId: companyId,
      data: { name: company.name, legalName: company.legalName ?? null, taxId: company.taxId ?? null },
    },
    platformContext(services, caller, keyed(caller, 'company')),
    { expectNew: true },
  );
  return { companyId, position: result.position };
}

export async function grantMembership(
  services: PlatformServices,
  membership: { companyId: string; userId: string; roles: string[] },
  caller: PlatformCaller,
): Promise<{ position: bigint | null }> {
  const { companyId, userId, roles } = membership;
  const result = await handleCommand(
    services.events,
    companyDecider,
    { type: 'GrantMembership', aggregateId: companyId, data: { userId, roles } },
    platformContext(services, caller, keyed(caller, `membership:${userId}`)),
  );
  return { position: result.position };
}

/**
 * Waits until the named platform read models applied a write (the ones the next request reads, e.g. sessions
 * after sign-in): a failed unrelated projection must not end the wait early. 503 when the bounded wait runs out.
 */
export async function awaitPlatformReadModels(
  services: { platformFacts: ReadYourWrites },
  position: bigint | null,
  models: readonly PlatformModel[],
): Promise<void> {
  if (position === null) return;
  if (!(await services.platformFacts.caughtUp(position, models, { timeoutMs: LIMITS.readYourWrites.maxWaitMs }))) throw readModelBehind();
}
