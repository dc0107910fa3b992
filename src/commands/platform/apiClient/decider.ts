// An API client: created with roles in one company, its secret rotated (with a grace period for the old one) or
// the client revoked (at once, for good). Which secret is valid at a given time is decided here too.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import type { ApiClientEvent } from './events.js';

export interface ApiClientState {
  exists: boolean;
  companyId: string;
  name: string;
  roles: string[];
  secretHash: string;
  previous: { hash: string; validUntil: string } | null;
  revoked: boolean;
}

export const initialApiClientState: ApiClientState = {
  exists: false,
  companyId: '',
  name: '',
  roles: [],
  secretHash: '',
  previous: null,
  revoked: false,
};

export type ApiClientCommand =
  | CommandEnvelope<'CreateApiClient', { companyId: string; name: string; roles: string[]; secretHash: string }>
  | CommandEnvelope<'RotateApiClientSecret', { secretHash: string; graceSeconds: number }>
  | CommandEnvelope<'ChangeApiClientRoles', { roles: string[] }>
  | CommandEnvelope<'RevokeApiClient', Record<string, never>>
  | CommandEnvelope<'IssueApiClientToken', { presentedHash: string; tokenId: string; expiresAt: string }>;

export function evolveApiClient(s: ApiClientState, e: ApiClientEvent): ApiClientState {
  switch (e.type) {
    case 'ApiClientCreated':
      return { ...s, exists: true, companyId: e.data.companyId, name: e.data.name, roles: e.data.roles, secretHash: e.data.secretHash };
    case 'ApiClientSecretRotated':
      return {
        ...s,
        secretHash: e.data.secretHash,
        previous: e.data.previousValidUntil ? { hash: s.secretHash, validUntil: e.data.previousValidUntil } : null,
      };
    case 'ApiClientRolesChanged':
      return { ...s, roles: e.data.roles };
    case 'ApiClientRevoked':
      return { ...s, revoked: true };
    case 'ApiClientTokenIssued':
      return s;
  }
}

/** Whether a presented secret (its SHA-256) opens this client at `at`: the current one, or the previous within its grace. */
export function secretAccepted(
  s: Pick<ApiClientState, 'secretHash' | 'previous' | 'revoked' | 'exists'>,
  presentedHash: string,
  at: string,
): boolean {
  if (!s.exists || s.revoked) return false;
  if (presentedHash === s.secretHash) return true;
  return s.previous !== null && presentedHash === s.previous.hash && Date.parse(at) < Date.parse(s.previous.validUntil);
}

function mustBeLive(s: ApiClientState): void {
  if (!s.exists) throw notFound('API client');
  if (s.revoked) throw rule('api-client-revoked', 'the API client is revoked');
}

export function decideApiClient(cmd: ApiClientCommand, s: ApiClientState): ApiClientEvent[] {
  switch (cmd.type) {
    case 'CreateApiClient':
      if (s.exists) throw rule('api-client-exists', 'this API client already exists');
      return [{ type: 'ApiClientCreated', data: { clientId: cmd.aggregateId, ...cmd.data, roles: [...new Set(cmd.data.roles)].sort() } }];
    case 'RotateApiClientSecret': {
      mustBeLive(s);
      const { secretHash, graceSeconds } = cmd.data;
      const previousValidUntil = graceSeconds > 0 ? new Date(Date.parse(cmd.at) + graceSeconds * 1000).toISOString() : null;
      return [{ type: 'ApiClientSecretRotated', data: { secretHash, previousValidUntil } }];
    }
    case 'ChangeApiClientRoles': {
      mustBeLive(s);
      const roles = [...new Set(cmd.data.roles)].sort();
      return JSON.stringify(roles) === JSON.stringify(s.roles) ? [] : [{ type: 'ApiClientRolesChanged', data: { roles } }];
    }
    case 'RevokeApiClient':
      if (!s.exists) throw notFound('API client');
      return s.revoked ? [] : [{ type: 'ApiClientRevoked', data: { at: cmd.at } }];
    case 'IssueApiClientToken':
      // One answer for unknown, revoked and wrong secrets: a caller learns nothing about the client.
      if (!secretAccepted(s, cmd.data.presentedHash, cmd.at)) throw new DomainError('invalid-client', 'client authentication failed', 400);
      return [{ type: 'ApiClientTokenIssued', data: { tokenId: cmd.data.tokenId, expiresAt: cmd.data.expiresAt } }];
  }
}

export const apiClientDecider: Decider<ApiClientCommand, ApiClientEvent, ApiClientState> = {
  category: 'apiClient',
  initialState: initialApiClientState,
  evolve: evolveApiClient,
  decide: decideApiClient,
  // Every token issue is an event: loaded from a snapshot, so a busy (or hostile) program never makes the next one slow.
  snapshot: { version: 1 },
};
