// What a signed-in user does with a session: rotate its refresh token, end it, pick a company, and
// see which companies (and permissions) they have.
import type { AppServices } from '../../services.js';
import { handleCommand } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { LIMITS } from '../../limits.js';
import { notFoundProblem, unauthorized } from '../../problems.js';
import type { Principal } from '../../http/routeTypes.js';
import { sessionDecider } from './session/decider.js';
import { permissionsOf } from './company/decider.js';
import {
  COMPANIES,
  MEMBERSHIPS,
  SESSIONS,
  USERS,
  membershipId,
  type CompanyDoc,
  type MembershipDoc,
  type SessionDoc,
  type UserDoc,
} from '../../projections/platform/platformReadModels.js';
import { authRuntime } from '../../auth/authRuntime.js';
import { invalidRefreshToken } from './signInProblems.js';
import { permissionCatalog } from '../../queries/platform/permissionCatalog.js';
import { platformContext } from './platformWrites.js';
import type { Client, TokenPair } from './signInWrites.js';
import { newRefreshToken, sessionIdOfRefreshToken, sha256Hex, signAccessToken } from '../../auth/tokens.js';

export const readModels = (services: AppServices) => ({
  users: services.projections.collection<UserDoc>(USERS.projection, USERS.collection),
  sessions: services.projections.collection<SessionDoc>(SESSIONS.projection, SESSIONS.collection),
  companies: services.projections.collection<CompanyDoc>(COMPANIES.projection, COMPANIES.collection),
  memberships: services.projections.collection<MembershipDoc>(MEMBERSHIPS.projection, MEMBERSHIPS.collection),
});

/** The user's active membership in a company with its company, or null (not a member, or no such company). */
export async function membershipIn(services: AppServices, userId: string, companyId: string): Promise<{ company: CompanyDoc; membership: MembershipDoc } | null> {
  const models = readModels(services);
  const membership = await models.memberships.get(PLATFORM_DOCS, membershipId(companyId, userId));
  if (!membership?.active) return null;
  const company = await models.companies.get(PLATFORM_DOCS, companyId);
  return company ? { company, membership } : null;
}

export const permissionsIn = (company: CompanyDoc, membership: MembershipDoc): string[] =>
  permissionsOf(company.roles, membership.roles, permissionCatalog());

export async function refreshSession(services: AppServices, refreshToken: string, client: Client): Promise<TokenPair> {
  const sessionId = sessionIdOfRefreshToken(refreshToken);
  if (!sessionId) throw invalidRefreshToken();
  const session = await readModels(services).sessions.get(PLATFORM_DOCS, sessionId);
  if (!session) throw invalidRefreshToken();
  const next = newRefreshToken(sessionId);
  const ctx = platformContext(services, { actor: session.userId, sessionId, ...client });
  let result;
  try {
    result = await handleCommand(
      services.events,
      sessionDecider,
      { type: 'RefreshSession', aggregateId: sessionId, data: { presentedHash: sha256Hex(refreshToken), newHash: sha256Hex(next) } },
      ctx,
    );
  } catch (err) {
    if (err instanceof DomainError) throw invalidRefreshToken(); // ended session, or a token it never issued
    throw err;
  }
  if (result.position !== null) await services.projections.waitFor(result.position);
  // Reuse of a rotated-out token revoked the session; an idle or too old one expired it.
  if (!result.events.some((e) => e.type === 'SessionRefreshed')) throw invalidRefreshToken();
  const runtime = await authRuntime(services);
  const access = signAccessToken(runtime.jwt, session.userId, sessionId, services.now());
  return { accessToken: access.token, tokenType: 'Bearer', expiresIn: access.expiresIn, refreshToken: next };
}

export async function logout(services: AppServices, principal: Principal, client: Client): Promise<void> {
  const ctx = platformContext(services, { actor: principal.userId, sessionId: principal.sessionId, ...client });
  const result = await handleCommand(services.events, sessionDecider, { type: 'Logout', aggregateId: principal.sessionId, data: {} }, ctx);
  if (result.position !== null) await services.projections.waitFor(result.position);
}

export interface CompanySelection {
  company: { id: string; name: string };
  roles: string[];
  permissions: string[];
}

export async function selectCompany(services: AppServices, principal: Principal, companyId: string, client: Client): Promise<CompanySelection> {
  const found = await membershipIn(services, principal.userId, companyId);
  // Another company's id answers exactly like an id that does not exist.
  if (!found) throw notFoundProblem('No company with this id among the companies you belong to');
  const ctx = platformContext(services, { actor: principal.userId, sessionId: principal.sessionId, ...client });
  const result = await handleCommand(services.events, sessionDecider, { type: 'SelectCompany', aggregateId: principal.sessionId, data: { companyId } }, ctx).catch(
    (err: unknown) => {
      if (err instanceof DomainError) throw unauthorized('The session has ended');
      throw err;
    },
  );
  if (result.position !== null) await services.projections.waitFor(result.position);
  if (!result.events.some((e) => e.type === 'CompanySelected')) throw unauthorized('The session has expired');
  const { company, membership } = found;
  return { company: { id: company.id, name: company.name }, roles: [...membership.roles].sort(), permissions: permissionsIn(company, membership) };
}

export async function listTenants(services: AppServices, userId: string): Promise<{ items: { id: string; name: string; roles: string[] }[] }> {
  const models = readModels(services);
  const page = await models.memberships.find(PLATFORM_DOCS, { userId, active: true }, { limit: LIMITS.pagination.maxLimit });
  const items: { id: string; name: string; roles: string[] }[] = [];
  for (const m of page.items) {
    const company = await models.companies.get(PLATFORM_DOCS, m.companyId);
    if (company) items.push({ id: company.id, name: company.name, roles: [...m.roles].sort() });
  }
  items.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { items };
}

export async function describeMe(services: AppServices, principal: Principal) {
  const models = readModels(services);
  const [user, session] = await Promise.all([models.users.get(PLATFORM_DOCS, principal.userId), models.sessions.get(PLATFORM_DOCS, principal.sessionId)]);
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
      ? { id: found.company.id, name: found.company.name, roles: [...found.membership.roles].sort(), permissions: permissionsIn(found.company, found.membership) }
      : null,
  };
}
