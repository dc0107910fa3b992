// What the target of an administration write holds now, judged against the caller (privilege/decider.ts): roles and
// memberships from the company's own stream, an API client's roles from its stream (the clients holding a role: their list).
import { loadAggregate } from '../handleCommand.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { companyDecider, type CompanyState } from './company/decider.js';
import { apiClientDecider } from './apiClient/decider.js';
import { decidePrivilege } from './privilege/decider.js';
import { isBuiltInRole, permissionsOf } from '../../permissions/builtInRoles.js';
import type { PlatformFacts } from './platformFacts.js';
import type { PlatformServices } from './platformWrites.js';

/**
 * What a privilege check judges: the company's roles, members and offers and an API client's roles, folded from their
 * streams (strong); the permission catalog (configuration); the API clients holding a role (eventual, platformApiClients).
 */
export type PrivilegeFacts = Pick<PlatformFacts, 'permissionCatalog' | 'apiClientRolesHolding'>;
type Services = PlatformServices<PrivilegeFacts>;

/** Who acts: the company they act in and the permissions they hold there on this request. */
export interface PrivilegedCaller {
  companyId: string;
  permissions: ReadonlySet<string>;
}

async function companyNow(services: PlatformServices, companyId: string): Promise<CompanyState> {
  return (await loadAggregate(services.events, companyDecider, streamName(PLATFORM_TENANT, companyDecider.category, companyId))).state;
}

const granted = (services: Services, company: CompanyState, roles: readonly string[]): string[] =>
  permissionsOf(company.roles, roles, services.platformFacts.permissionCatalog());

/** Rotating, re-issuing, resetting, changing or revoking a member: the caller holds all the member holds in the company. */
export async function mustOutrankMember(services: Services, caller: PrivilegedCaller, userId: string): Promise<void> {
  const company = await companyNow(services, caller.companyId);
  // A pending membership counts with the roles it offers: a new token for it is a way into them.
  const permissions = granted(services, company, company.members[userId] ?? company.offers[userId]?.roles ?? []);
  decidePrivilege(caller.permissions, { type: 'ActOn', target: 'member', permissions });
}

/** The same for an API client of the company: its roles as its own stream holds them now. */
export async function mustOutrankApiClient(services: Services, caller: PrivilegedCaller, clientId: string): Promise<void> {
  const [company, client] = await Promise.all([
    companyNow(services, caller.companyId),
    loadAggregate(services.events, apiClientDecider, streamName(PLATFORM_TENANT, apiClientDecider.category, clientId)),
  ]);
  const roles = client.state.companyId === caller.companyId && !client.state.revoked ? client.state.roles : [];
  decidePrivilege(caller.permissions, { type: 'ActOn', target: 'api-client', permissions: granted(services, company, roles) });
}

/** Changing a role changes everyone holding it: the caller holds what the role grants now and all its holders hold. */
export async function mustOutrankRole(services: Services, caller: PrivilegedCaller, code: string): Promise<void> {
  // A built-in role never changes (the company decider refuses it): there is nothing to judge.
  if (isBuiltInRole(code)) return;
  const company = await companyNow(services, caller.companyId);
  const held = [...Object.values(company.members), ...Object.values(company.offers).map((offer) => offer.roles)];
  const holders: string[][] = [[code], ...held.filter((roles) => roles.includes(code))];
  holders.push(...(await services.platformFacts.apiClientRolesHolding(caller.companyId, code)));
  const permissions = holders.flatMap((roles) => granted(services, company, roles));
  decidePrivilege(caller.permissions, { type: 'ActOn', target: 'role', permissions });
}
