// Bearer token -> Principal, on every request: JWT (HS256 pinned, iss/aud/exp/sub/sid/jti checked), then
// the server-side session (one `get`), then the permissions in the selected company (kept while those documents are
// unchanged: keptPrincipals.ts).
import type { AppServices } from '../services.js';
import { handleCommand } from '../commands/handleCommand.js';
import { PLATFORM_DOCS } from '../stores/readStore.js';
import { LIMITS } from '../limits.js';
import { unauthorized } from '../problems.js';
import type { Principal } from '../auth/principal.js';
import { sessionDecider, sessionExpiry } from '../commands/platform/session/decider.js';
import { SESSIONS, type SessionDoc } from '../projections/platform/platformReadModels.js';
import { authRuntime } from '../auth/authRuntime.js';
import { membershipIn, permissionsIn, platformCollections } from '../queries/platform/memberships.js';
import { permissionsOf } from '../permissions/builtInRoles.js';
import { permissionCatalog } from '../queries/platform/permissionCatalog.js';
import { platformContext } from '../commands/platform/platformWrites.js';
import { verifyAccessToken } from '../auth/tokens.js';
import { keepPrincipal, keptPrincipal, platformStamp } from './keptPrincipals.js';

interface ClientInfo {
  services: AppServices;
  ip: string | null;
  userAgent: string | null;
}

// Sessions with an activity (or expiry) write in flight in this process: one write per session at a time.
const writing = new Set<string>();

async function recordSessionState(client: ClientInfo, session: SessionDoc, type: 'RecordSessionActivity' | 'ExpireSession'): Promise<void> {
  const { services } = client;
  if (writing.has(session.id)) return;
  writing.add(session.id);
  try {
    const ctx = platformContext(services, { actor: session.userId, sessionId: session.id, ip: client.ip, userAgent: client.userAgent });
    const data = type === 'RecordSessionActivity' ? { minIntervalSeconds: LIMITS.session.activityRecordIntervalSeconds } : {};
    const result = await handleCommand(services.events, sessionDecider, { type, aggregateId: session.id, data } as never, ctx);
    if (type === 'ExpireSession' && result.position !== null) {
      await services.projections.waitFor(result.position, { projections: [SESSIONS.projection] });
    }
  } catch (err) {
    // Failing to note activity must not fail the request; the next request tries again.
    services.logger.warn('could not record session activity', { sessionId: session.id, error: err });
  } finally {
    writing.delete(session.id);
  }
}

const CLIENT_PREFIX = 'client:';

/** A program's token: its client must still be active (revocation works at once), with its roles in its company now. */
async function clientPrincipal(services: AppServices, sub: string, clientId: string): Promise<Principal> {
  const models = platformCollections(services);
  const client = sub === `${CLIENT_PREFIX}${clientId}` ? await models.apiClients.get(PLATFORM_DOCS, clientId) : null;
  if (!client || client.status !== 'active') throw unauthorized('The API client is not valid');
  const company = await models.companies.get(PLATFORM_DOCS, client.companyId);
  if (!company) throw unauthorized('The API client is not valid');
  return {
    userId: sub,
    sessionId: sub,
    email: '',
    tenantId: company.id,
    permissions: new Set(permissionsOf(company.roles, client.roles, permissionCatalog())),
    platformAdmin: false,
    company: { status: company.status, modules: company.modules },
    clientId,
  };
}

export async function authenticate(token: string, client: ClientInfo): Promise<Principal> {
  const { services } = client;
  const runtime = await authRuntime(services);
  const now = services.now();
  const check = verifyAccessToken(runtime.jwt, token, now);
  if (!check.ok) throw unauthorized(check.reason === 'expired' ? 'The access token has expired' : 'The access token is not valid');
  const { sub, sid } = check.claims;
  if (sub.startsWith(CLIENT_PREFIX)) return clientPrincipal(services, sub, sid);

  const models = platformCollections(services);
  // Read before the documents: a write while they are read leaves what is kept stale at once.
  const stamp = platformStamp(services);
  const kept = stamp === null ? null : keptPrincipal(services, token, stamp);
  const session = kept?.session ?? (await models.sessions.get(PLATFORM_DOCS, sid));
  if (!session || session.userId !== sub) throw unauthorized('The session is not valid');
  if (session.endedReason) throw unauthorized('The session has ended');
  const at = now.toISOString();
  if (sessionExpiry(session, at)) {
    await recordSessionState(client, session, 'ExpireSession');
    throw unauthorized('The session has expired');
  }
  if (now.getTime() - Date.parse(session.lastActivityAt) >= LIMITS.session.activityRecordIntervalSeconds * 1000) {
    await recordSessionState(client, session, 'RecordSessionActivity');
  }
  if (kept) return kept.principal;

  // A deactivated user's sessions are revoked; this check also covers a session started in the same instant.
  const user = await models.users.get(PLATFORM_DOCS, sub);
  if (!user?.active) throw unauthorized('The user is deactivated');
  // A new password or second factor ends the sessions before it even if their revocation was never written (a crash).
  const changed = user.credentialsChangedAt;
  if (changed && session.startedAt < changed && session.id !== user.credentialsKeptSession) {
    throw unauthorized('The credentials of this account changed: sign in again');
  }
  // A membership revoked after selection leaves the session without a company (tenant routes answer 403).
  const found = session.companyId ? await membershipIn(services, sub, session.companyId) : null;
  const principal: Principal = {
    userId: sub,
    sessionId: sid,
    email: session.email,
    tenantId: found ? session.companyId : null,
    permissions: new Set(found ? permissionsIn(found.company, found.membership) : []),
    platformAdmin: session.platformAdmin,
    company: found ? { status: found.company.status, modules: found.company.modules } : null,
  };
  if (stamp !== null) keepPrincipal(services, token, stamp, { session, principal: Object.freeze(principal) });
  return principal;
}
