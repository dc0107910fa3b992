// API clients: a company admin creates one with roles (its secret shown once), rotates its secret, changes its roles or
// revokes it; a program exchanges its credentials for a short-lived token bound to the client's company.
import type { RateLimitLog } from '../../rateLimits.js';
import { handleCommand, loadAggregate } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { LIMITS } from '../../limits.js';
import { tooManyRequests } from '../../problems.js';
import { apiClientDecider } from './apiClient/decider.js';
import { companyDecider, decideCompany } from './company/decider.js';
import { authRuntime } from '../../auth/authRuntime.js';
import { randomToken, sha256Hex, signAccessToken } from '../../auth/tokens.js';
import {
  awaitPlatformReadModels,
  platformContext,
  type PlatformCaller,
  type PlatformServices,
  type ReadYourWrites,
} from './platformWrites.js';
import { newId } from '../eventIds.js';

/** The actor of every event a program causes, and the subject of its tokens. */
export const clientActor = (clientId: string): string => `client:${clientId}`;

const clientStream = (clientId: string): string => streamName(PLATFORM_TENANT, apiClientDecider.category, clientId);

/** The roles must exist in the company: checked on the company's own rules before anything is written. */
async function checkRoles(services: PlatformServices, companyId: string, roles: string[], actor: string): Promise<void> {
  const company = await loadAggregate(services.events, companyDecider, streamName(PLATFORM_TENANT, companyDecider.category, companyId));
  decideCompany(
    {
      type: 'GrantMembership',
      aggregateId: companyId,
      data: { userId: '\u0000probe', roles },
      at: services.now().toISOString(),
      actor,
      tenantId: PLATFORM_TENANT,
    },
    company.state,
  );
}

/** Every API client write folds what it judges (company roles, the client) from streams; only the wait reads models. */
export async function createApiClient(
  services: PlatformServices<ReadYourWrites>,
  input: { companyId: string; name: string; roles: string[] },
  caller: PlatformCaller,
): Promise<{ clientId: string; clientSecret: string; position: bigint | null }> {
  await checkRoles(services, input.companyId, input.roles, caller.actor);
  const clientId = newId();
  const clientSecret = randomToken();
  const result = await handleCommand(
    services.events,
    apiClientDecider,
    { type: 'CreateApiClient', aggregateId: clientId, data: { ...input, secretHash: sha256Hex(clientSecret) } },
    platformContext(services, caller),
    { expectNew: true },
  );
  await awaitPlatformReadModels(services, result.position, ['apiClients']);
  return { clientId, clientSecret, position: result.position };
}

export async function rotateApiClientSecret(
  services: PlatformServices<ReadYourWrites>,
  input: { clientId: string; graceSeconds: number },
  caller: PlatformCaller,
): Promise<{ clientSecret: string; previousValidUntil: string | null; position: bigint | null }> {
  const clientSecret = randomToken();
  const result = await handleCommand(
    services.events,
    apiClientDecider,
    {
      type: 'RotateApiClientSecret',
      aggregateId: input.clientId,
      data: { secretHash: sha256Hex(clientSecret), graceSeconds: input.graceSeconds },
    },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, ['apiClients']);
  return { clientSecret, previousValidUntil: result.state.previous?.validUntil ?? null, position: result.position };
}

export async function changeApiClientRoles(
  services: PlatformServices<ReadYourWrites>,
  input: { companyId: string; clientId: string; roles: string[] },
  caller: PlatformCaller,
): Promise<bigint | null> {
  await checkRoles(services, input.companyId, input.roles, caller.actor);
  const result = await handleCommand(
    services.events,
    apiClientDecider,
    { type: 'ChangeApiClientRoles', aggregateId: input.clientId, data: { roles: input.roles } },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, ['apiClients']);
  return result.position;
}

export async function revokeApiClient(
  services: PlatformServices<ReadYourWrites>,
  clientId: string,
  caller: PlatformCaller,
): Promise<bigint | null> {
  const result = await handleCommand(
    services.events,
    apiClientDecider,
    { type: 'RevokeApiClient', aggregateId: clientId, data: {} },
    platformContext(services, caller),
  );
  await awaitPlatformReadModels(services, result.position, ['apiClients']);
  return result.position;
}

export const invalidClient = (): DomainError => new DomainError('invalid-client', 'client authentication failed', 400);

const CLIENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** RFC 6749 4.4: client credentials -> a bearer token bound to the client's company. Throttled per address and per client. */
export async function issueClientToken(
  services: PlatformServices<ReadYourWrites>,
  input: { clientId: string; clientSecret: string },
  client: { ip: string | null; userAgent: string | null; correlationId: string; rateLimits?: RateLimitLog },
): Promise<{ accessToken: string; expiresIn: number }> {
  const runtime = await authRuntime(services);
  const now = services.now();
  const ipWait = runtime.tokenPerIp.hit(client.ip ?? 'unknown', now.getTime(), client.rateLimits);
  if (ipWait > 0) throw tooManyRequests(ipWait, 'Too many token requests from this address; retry later');
  if (!CLIENT_ID.test(input.clientId)) throw invalidClient();
  // Counted per client and address: wrong secrets from elsewhere never hold the program that has the right one.
  const failureKey = `${input.clientId}|${client.ip ?? 'unknown'}`;
  const clientWait = runtime.clientFailures.waitFor(failureKey, now.getTime(), client.rateLimits);
  if (clientWait > 0) throw tooManyRequests(clientWait, 'Too many failed authentications of this client; retry later');
  const tokenId = newId();
  const ttl = LIMITS.apiClients.tokenTtlSeconds;
  const expiresAt = new Date(now.getTime() + ttl * 1000).toISOString();
  const actor = clientActor(input.clientId);
  const { state } = await loadAggregate(services.events, apiClientDecider, clientStream(input.clientId));
  try {
    if (!state.exists) throw invalidClient();
    const result = await handleCommand(
      services.events,
      apiClientDecider,
      {
        type: 'IssueApiClientToken',
        aggregateId: input.clientId,
        data: { presentedHash: sha256Hex(input.clientSecret), tokenId, expiresAt },
      },
      platformContext(services, { actor, sessionId: null, ...client }),
    );
    await awaitPlatformReadModels(services, result.position, ['apiClients']);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'invalid-client')
      runtime.clientFailures.hit(failureKey, now.getTime(), client.rateLimits);
    throw err;
  }
  const access = signAccessToken(runtime.jwt, actor, input.clientId, now, { ttlSeconds: ttl, tokenId });
  return { accessToken: access.token, expiresIn: access.expiresIn };
}
