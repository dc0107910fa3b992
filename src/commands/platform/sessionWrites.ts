// What a signed-in user does with a session: rotate its refresh token, end it, pick a company.
import { handleCommand } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { notFoundProblem, unauthorized } from '../../problems.js';
import type { Principal } from '../../auth/principal.js';
import { sessionDecider } from './session/decider.js';
import { authRuntime } from '../../auth/authRuntime.js';
import { invalidRefreshToken } from './signInProblems.js';
import { awaitPlatformReadModels, platformContext, type PlatformServices, type ReadYourWrites } from './platformWrites.js';
import type { CompanySelection, PlatformFacts } from './platformFacts.js';
import type { Client, TokenPair } from './signInWrites.js';
import { newRefreshToken, sessionIdOfRefreshToken, sha256Hex, signAccessToken } from '../../auth/tokens.js';

/** Refreshing: whose the session is (eventual, platformSessions); the session itself is folded from its stream (strong). */
export type RefreshFacts = Pick<PlatformFacts, 'sessionHolder' | 'caughtUp'>;

export async function refreshSession(services: PlatformServices<RefreshFacts>, refreshToken: string, client: Client): Promise<TokenPair> {
  const sessionId = sessionIdOfRefreshToken(refreshToken);
  if (!sessionId) throw invalidRefreshToken();
  const userId = await services.platformFacts.sessionHolder(sessionId);
  if (!userId) throw invalidRefreshToken();
  const next = newRefreshToken(sessionId);
  const ctx = platformContext(services, { actor: userId, sessionId, ...client });
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
  await awaitPlatformReadModels(services, result.position, ['sessions']);
  // Reuse of a rotated-out token revoked the session; an idle or too old one expired it.
  if (!result.events.some((e) => e.type === 'SessionRefreshed')) throw invalidRefreshToken();
  const runtime = await authRuntime(services);
  const access = signAccessToken(runtime.jwt, userId, sessionId, services.now());
  return { accessToken: access.token, tokenType: 'Bearer', expiresIn: access.expiresIn, refreshToken: next };
}

export async function logout(services: PlatformServices<ReadYourWrites>, principal: Principal, client: Client): Promise<void> {
  const ctx = platformContext(services, { actor: principal.userId, sessionId: principal.sessionId, ...client });
  const result = await handleCommand(services.events, sessionDecider, { type: 'Logout', aggregateId: principal.sessionId, data: {} }, ctx);
  await awaitPlatformReadModels(services, result.position, ['sessions']);
}

/** Selecting a company: the caller's membership there (eventual, memberships and companies); the session is folded (strong). */
export type SelectCompanyFacts = Pick<PlatformFacts, 'membershipIn' | 'caughtUp'>;

export async function selectCompany(
  services: PlatformServices<SelectCompanyFacts>,
  principal: Principal,
  companyId: string,
  client: Client,
): Promise<CompanySelection> {
  const found = await services.platformFacts.membershipIn(principal.userId, companyId);
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
  await awaitPlatformReadModels(services, result.position, ['sessions']);
  if (!result.events.some((e) => e.type === 'CompanySelected')) throw unauthorized('The session has expired');
  return found;
}
