// Empresas on the platform side: registering a company with its first administrator (an existing account, or a
// new one invited), correcting its profile, suspending and reactivating it, switching modules.
import type { AppServices } from '../../services.js';
import { handleCommand, loadAggregate, type CommandResult } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { streamName } from '../../stores/eventStore.js';
import { companyDecider, type CompanyCommand } from './company/decider.js';
import type { CompanyProfile } from './company/events.js';
import { ADMIN_ROLE } from './company/events.js';
import { checkedProfile } from './company/profileRules.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import { releaseClaim, withClaims, type UniqueGuard } from '../uniqueClaimWrites.js';
import { LIMITS } from '../../limits.js';
import {
  awaitPlatformReadModels,
  grantMembership,
  newCompanyId,
  platformContext,
  type PlatformCaller,
  type PlatformServices,
  type ReadYourWrites,
} from './platformWrites.js';
import type { PlatformFacts, PlatformModel } from './platformFacts.js';
import { inviteUser, type Activation } from './invitationWrites.js';
import { adoptDefaultPolicy } from '../empresas/policyWrites.js';

export type FirstAdmin = { userId: string } | { email: string; name: string };

export interface RegisteredCompany {
  companyId: string;
  admin: { userId: string; accountCreated: boolean; activation: Activation | null };
  /** What the admin's token does (for the e-mail): activate the new account, or accept the membership signed in. */
  opens: 'account' | 'membership' | null;
  position: bigint | null;
}

/** A legal entity registers once on the platform: its tax id (country + canonical number) is claimed for one company. */
const TAX_ID_GUARD: UniqueGuard = {
  decider: uniqueClaimDecider('companyTaxId', 'tax-id-taken', 'a company with this tax id is already registered'),
  duplicateCode: 'tax-id-taken',
  holderCategory: 'company',
  graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
  async heldKey(events, tenantId, holderId) {
    const { profile } = (await loadAggregate(events, companyDecider, streamName(tenantId, companyDecider.category, holderId))).state;
    return profile.country && profile.taxId ? `${profile.country}:${profile.taxId.number}` : null;
  },
};
const taxIdClaim = (companyId: string, profile: Pick<CompanyProfile, 'country' | 'taxId'>) => ({
  guard: TAX_ID_GUARD,
  claim: { holderId: companyId, key: `${profile.country}:${profile.taxId.number}` },
});

/** Appointing an admin: whether the named account is active (eventual, platformUsers); the company is folded (strong). */
export type AppointAdminFacts = Pick<PlatformFacts, 'accountActive'> & ReadYourWrites;

const COMPANY_MODELS: readonly PlatformModel[] = ['companies', 'memberships', 'users'];

const adminProblem = (message: string) =>
  new DomainError('validation-failed', `Invalid data: admin: ${message}`, 422, { errors: [{ field: 'admin', message }] });

/** Makes an account (existing, or invited now) an admin of the company: at registration, or to recover a company without one. */
export async function appointAdmin(
  services: PlatformServices<AppointAdminFacts>,
  companyId: string,
  who: FirstAdmin,
  caller: PlatformCaller,
): Promise<Omit<RegisteredCompany, 'companyId'>> {
  if ('userId' in who) {
    if (!(await services.platformFacts.accountActive(who.userId))) throw adminProblem('no active user has this id');
    const { position } = await grantMembership(services, { companyId, userId: who.userId, roles: [ADMIN_ROLE] }, caller);
    await awaitPlatformReadModels(services, position, COMPANY_MODELS);
    return { admin: { userId: who.userId, accountCreated: false, activation: null }, opens: null, position };
  }
  const invited = await inviteUser(services, { companyId, email: who.email, name: who.name, roles: [ADMIN_ROLE] }, caller);
  const admin = { userId: invited.userId, accountCreated: invited.accountCreated, activation: invited.activation };
  return { admin, opens: invited.opens, position: invited.position };
}

/**
 * Registers a company (tax id unique on the platform, default policy adopted) with its first company admin. Takes the
 * whole AppServices only because adoptDefaultPolicy (empresas group) still does; it reads AppointAdminFacts.
 */
export async function registerCompanyWithAdmin(
  services: AppServices,
  input: { profile: CompanyProfile; modules?: string[]; admin: FirstAdmin },
  caller: PlatformCaller,
): Promise<RegisteredCompany> {
  // Everything that can be checked is checked before the first write: a refusal leaves nothing behind.
  const profile = checkedProfile(input.profile);
  if ('userId' in input.admin) {
    if (!(await services.platformFacts.accountActive(input.admin.userId))) throw adminProblem('no active user has this id');
  }
  const companyId = newCompanyId();
  const ctx = platformContext(services, caller);
  // The tax id is claimed first; a crash before the company exists leaves a claim another registration takes over.
  await withClaims(services.events, ctx, [taxIdClaim(companyId, profile)], () =>
    handleCommand(
      services.events,
      companyDecider,
      { type: 'RegisterCompany', aggregateId: companyId, data: { profile, ...(input.modules ? { modules: input.modules } : {}) } },
      ctx,
      { expectNew: true },
    ),
  );
  await adoptDefaultPolicy(services, companyId, caller);
  const { admin, opens, position } = await appointAdmin(services, companyId, input.admin, caller);
  await awaitPlatformReadModels(services, position, COMPANY_MODELS);
  return { companyId, admin, opens, position };
}

/** One command on a company's stream, then its read model; `ifMatch` applies it only to that revision. */
export async function companyCommand(
  services: PlatformServices<ReadYourWrites>,
  command: Omit<CompanyCommand, 'at' | 'actor' | 'tenantId'>,
  caller: PlatformCaller,
  ifMatch?: number | null,
): Promise<CommandResult<unknown>> {
  const result = await handleCommand(
    services.events,
    companyDecider,
    command,
    platformContext(services, caller),
    ifMatch === undefined || ifMatch === null ? {} : { ifMatch },
  );
  await awaitPlatformReadModels(services, result.position, ['companies']);
  return result;
}

/** A company admin's correction of the profile; a new tax id is reserved first (still unique on the platform). */
export async function correctCompanyProfile(
  services: PlatformServices<ReadYourWrites>,
  input: { companyId: string; changes: Partial<CompanyProfile>; current: Partial<CompanyProfile>; ifMatch: number },
  caller: PlatformCaller,
): Promise<CommandResult<unknown>> {
  const next = checkedProfile({ ...input.current, ...input.changes });
  const before = input.current;
  const correction = { type: 'CorrectCompanyProfile', aggregateId: input.companyId, data: { changes: input.changes } } as const;
  const taxChanged =
    next.taxId !== undefined &&
    next.country !== undefined &&
    JSON.stringify([next.country, next.taxId]) !== JSON.stringify([before.country, before.taxId]);
  if (!taxChanged) return companyCommand(services, correction, caller, input.ifMatch);
  const ctx = platformContext(services, caller);
  const claim = taxIdClaim(input.companyId, { country: next.country!, taxId: next.taxId! });
  const result = await withClaims(services.events, ctx, [claim], () => companyCommand(services, correction, caller, input.ifMatch)).catch(
    (err: unknown) => {
      // Which company holds that tax id is not this company's business.
      if (err instanceof DomainError && err.code === 'tax-id-taken') throw new DomainError(err.code, err.message, 409);
      throw err;
    },
  );
  // The old tax id is free once the company carries the new one.
  if (before.country && before.taxId) {
    await releaseClaim(
      services.events,
      ctx,
      TAX_ID_GUARD,
      taxIdClaim(input.companyId, { country: before.country, taxId: before.taxId }).claim,
    );
  }
  return result;
}
