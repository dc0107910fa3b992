// Empresas on the platform side: registering a company with its first administrator (an existing account, or a
// new one invited), correcting its profile, suspending and reactivating it, switching modules.
import type { AppServices } from '../../services.js';
import { handleCommand, type CommandResult } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { companyDecider, type CompanyCommand } from './company/decider.js';
import { ADMIN_ROLE } from './company/events.js';
import { checkedProfile } from './company/profileRules.js';
import type { CompanyProfile } from './company/profile.js';
import { companyTaxIdDecider, companyTaxIdGuardId } from './companyTaxId/decider.js';
import { COMPANIES, MEMBERSHIPS, USERS, type UserDoc } from '../../projections/platform/platformReadModels.js';
import { awaitPlatformReadModels, grantMembership, newCompanyId, platformContext, type PlatformCaller } from './platformWrites.js';
import { inviteUser, type Activation } from './usuariosWrites.js';
import { adoptDefaultPolicy } from '../empresas/policyWrites.js';

export type FirstAdmin = { userId: string } | { email: string; name: string };

export interface RegisteredCompany {
  companyId: string;
  admin: { userId: string; accountCreated: boolean; activation: Activation | null };
  position: bigint | null;
}

const adminProblem = (message: string) =>
  new DomainError('validation-failed', `Invalid data: admin: ${message}`, 422, { errors: [{ field: 'admin', message }] });

/** Registers a company (tax id unique on the platform, default policy adopted) with its first company admin. */
export async function registerCompanyWithAdmin(
  services: AppServices,
  input: { profile: CompanyProfile; modules?: string[]; admin: FirstAdmin },
  caller: PlatformCaller,
): Promise<RegisteredCompany> {
  // Everything that can be checked is checked before the first write: a refusal leaves nothing behind.
  const profile = checkedProfile(input.profile);
  if ('userId' in input.admin) {
    const user = await services.projections.collection<UserDoc>(USERS.projection, USERS.collection).get(PLATFORM_DOCS, input.admin.userId);
    if (!user?.active) throw adminProblem('no active user has this id');
  }
  const companyId = newCompanyId();
  const ctx = platformContext(services, caller);
  await handleCommand(
    services.events,
    companyTaxIdDecider,
    {
      type: 'ReserveCompanyTaxId',
      aggregateId: companyTaxIdGuardId(profile.country, profile.taxId.number),
      data: { country: profile.country, number: profile.taxId.number, companyId },
    },
    ctx,
  );
  await handleCommand(
    services.events,
    companyDecider,
    { type: 'RegisterCompany', aggregateId: companyId, data: { profile, ...(input.modules ? { modules: input.modules } : {}) } },
    ctx,
    { expectNew: true },
  );
  await adoptDefaultPolicy(services, companyId, caller);
  let admin: RegisteredCompany['admin'];
  let position: bigint | null;
  if ('userId' in input.admin) {
    position = (await grantMembership(services, { companyId, userId: input.admin.userId, roles: [ADMIN_ROLE] }, caller)).position;
    admin = { userId: input.admin.userId, accountCreated: false, activation: null };
  } else {
    const invited = await inviteUser(
      services,
      { companyId, email: input.admin.email, name: input.admin.name, roles: [ADMIN_ROLE] },
      caller,
    );
    position = invited.position;
    admin = { userId: invited.userId, accountCreated: invited.accountCreated, activation: invited.activation };
  }
  await awaitPlatformReadModels(services, position, [COMPANIES.projection, MEMBERSHIPS.projection, USERS.projection]);
  return { companyId, admin, position };
}

/** One command on a company's stream, then its read model; `ifMatch` applies it only to that revision. */
export async function companyCommand(
  services: AppServices,
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
  await awaitPlatformReadModels(services, result.position, [COMPANIES.projection]);
  return result;
}

/** A company admin's correction of the profile; a new tax id is reserved first (still unique on the platform). */
export async function correctCompanyProfile(
  services: AppServices,
  input: { companyId: string; changes: Partial<CompanyProfile>; current: Partial<CompanyProfile>; ifMatch: number },
  caller: PlatformCaller,
): Promise<CommandResult<unknown>> {
  const next = checkedProfile({ ...input.current, ...input.changes });
  const taxChanged =
    next.taxId &&
    next.country &&
    JSON.stringify([next.country, next.taxId]) !== JSON.stringify([input.current.country, input.current.taxId]);
  if (taxChanged) {
    await handleCommand(
      services.events,
      companyTaxIdDecider,
      {
        type: 'ReserveCompanyTaxId',
        aggregateId: companyTaxIdGuardId(next.country!, next.taxId!.number),
        data: { country: next.country!, number: next.taxId!.number, companyId: input.companyId },
      },
      platformContext(services, caller),
    );
  }
  return companyCommand(
    services,
    { type: 'CorrectCompanyProfile', aggregateId: input.companyId, data: { changes: input.changes } },
    caller,
    input.ifMatch,
  );
}
