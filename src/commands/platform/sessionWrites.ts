// What a signed-in user does with a session: rotate its refresh token, end it, pick a company.
import type { AppServices } from '../../services.js';
import { handleCommand } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { notFoundProblem, unauthorized } from '../../problems.js';
import type { Principal } from '../../auth/principal.js';
import { sessionDecider } from './session/decider.js';
import { membershipIn, permissionsIn, platformCollections } from '../../queries/platform/memberships.js';
import { authRuntime } from '../../auth/authRuntime.js';
import { invalidRefreshToken } from './signInProblems.js';
import { awaitPlatformReadModels, platformContext } from './platformWrites.js';
import { SESSIONS } from '../../projections/platform/platformReadModels.js';
import type { Client, TokenPair } from './signInWrites.js';
import { newRefreshToken, sessionIdOfRefreshToken, sha256Hex, signAccessToken } from '../../auth/tokens.js';

export async function refreshSession(services: AppServices, refreshToken: string, client: Client): Promise<TokenPair> {
  const sessionId = sessionIdOfRefreshToken(refreshToken);
  if (!sessionId) throw invalidRefreshToken();
  const session = await platformCollections(services).sessions.get(PLATFORM_DOCS, sessionId);
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
  await awaitPlatformReadModels(services, result.position, [SESSIONS.projection]);
  // Reuse of a rotated-out token revoked the session; an idle or too old one expired it.
  if (!result.events.some((e) => e.type === 'SessionRefreshed')) throw invalidRefreshToken();
  const runtime = await authRuntime(services);
  const access = signAccessToken(runtime.jwt, session.userId, sessionId, services.now());
  return { accessToken: access.token, tokenType: 'Bearer', expiresIn: access.expiresIn, refreshToken: next };
}

export async function logout(services: AppServices, principal: Principal, client: Client): Promise<void> {
  const ctx = platformContext(services, { actor: principal.userId, sessionId: principal.sessionId, ...client });
  const result = await handleCommand(services.events, sessionDecider, { type: 'Logout', aggregateId: principal.sessionId, data: {} }, ctx);
  await awaitPlatformReadModels(services, result.position, [SESSIONS.projection]);
}

export interface CompanySelection {
  company: { id: string; name: string };
  roles: string[];
  permissions: string[];
}

export async function selectCompany(
  services: AppServices,
  principal: Principal,
  companyId: string,
  client: Client,
): Promise<CompanySelection> {
  const found = await membershipIn(services, principal.userId, companyId);
  // Another company's id answers exactly like an id that does not exist.
  if (!found) throw notFoundProblem('No company with this id among the companies you belong to');
  const ctx = platformContext(services, { actor: principal.userId, sessionId: principal.sessionId, ...client });
  const result = await handleCommand(
    services.events,
    sessionDecider,
    { type: 'SelectCompany', aggregateId: principal.sessionId, data: { companyId } },
    ctx,
  ).catch((err: unknown) => {
    if (err instanceof DomainError) throw unauthorized('The session has ended');
    throw err;
  });
  await awaitPlatformReadModels(services, result.position, [SESSIONS.projection]);
  if (!result.events.some((e) => e.type === 'CompanySelected')) throw unauthorized('The session has expired');
  const { company, membership } = found;
  return {
    company: { id: company.id, name: company.name },
    roles: [...membership.roles].sort(),
    permissions: permissionsIn(company, membership),
  };
}
