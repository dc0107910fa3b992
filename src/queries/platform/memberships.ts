// Who belongs to which company with which permissions, and what a signed-in user sees of it: the platform
// read models that sign-in, company selection and every authenticated request consult.
import type { ReadServices } from '../../readServices.js';
import type { Principal } from '../../auth/principal.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { LIMITS } from '../../limits.js';
import { unauthorized } from '../../problems.js';
import {
  API_CLIENTS,
  COMPANIES,
  MEMBERSHIPS,
  SESSIONS,
  USERS,
  membershipId,
  type ApiClientDoc,
  type CompanyDoc,
  type MembershipDoc,
  type SessionDoc,
  type UserDoc,
} from '../../projections/platform/platformReadModels.js';
import { permissionCatalog } from './permissionCatalog.js';
import { permissionsOf } from '../../permissions/builtInRoles.js';

export const platformCollections = (services: Pick<ReadServices, 'projections'>) => ({
  users: services.projections.collection<UserDoc>(USERS.projection, USERS.collection),
  sessions: services.projections.collection<SessionDoc>(SESSIONS.projection, SESSIONS.collection),
  companies: services.projections.collection<CompanyDoc>(COMPANIES.projection, COMPANIES.collection),
  memberships: services.projections.collection<MembershipDoc>(MEMBERSHIPS.projection, MEMBERSHIPS.collection),
  apiClients: services.projections.collection<ApiClientDoc>(API_CLIENTS.projection, API_CLIENTS.collection),
});

/** The user's active membership in a company with its company, or null (not a member, or no such company). */
export async function membershipIn(
  services: Pick<ReadServices, 'projections'>,
  userId: string,
  companyId: string,
): Promise<{ company: CompanyDoc; membership: MembershipDoc } | null> {
  const models = platformCollections(services);
  const membership = await models.memberships.get(PLATFORM_DOCS, membershipId(companyId, userId));
  if (!membership?.active) return null;
  const company = await models.companies.get(PLATFORM_DOCS, companyId);
  return company ? { company, membership } : null;
}

export const permissionsIn = (company: CompanyDoc, membership: MembershipDoc): string[] =>
  permissionsOf(company.roles, membership.roles, permissionCatalog());

export async function listTenants(
  services: ReadServices,
  userId: string,
): Promise<{ items: { id: string; name: string; roles: string[] }[] }> {
  const models = platformCollections(services);
  const page = await models.memberships.find(PLATFORM_DOCS, { userId, active: true }, { limit: LIMITS.pagination.maxLimit });
  const items: { id: string; name: string; roles: string[] }[] = [];
  for (const m of page.items) {
    const company = await models.companies.get(PLATFORM_DOCS, m.companyId);
    if (company) items.push({ id: company.id, name: company.name, roles: [...m.roles].sort() });
  }
  items.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { items };
}

export async function describeMe(services: ReadServices, principal: Principal) {
  const models = platformCollections(services);
  const [user, session] = await Promise.all([
    models.users.get(PLATFORM_DOCS, principal.userId),
    models.sessions.get(PLATFORM_DOCS, principal.sessionId),
  ]);
  if (!user || !session) throw unauthorized('The session is not valid');
  const found = principal.tenantId ? await membershipIn(services, principal.userId, principal.tenantId) : null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    platformAdmin: user.platformAdmin,
    totpEnrolled: user.totpStatus === 'confirmed',
    session: { id: session.id, startedAt: session.startedAt, expiresAt: session.expiresAt },
    company: found
      ? {
          id: found.company.id,
          name: found.company.name,
          roles: [...found.membership.roles].sort(),
          permissions: permissionsIn(found.company, found.membership),
        }
      : null,
  };
}
