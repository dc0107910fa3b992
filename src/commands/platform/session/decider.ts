// The session: what makes an access token worth anything. Ending it makes every token of it useless.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { rule } from '../../decider.js';
import type { SessionEndReason, SessionEvent, SessionRevocationReason } from './events.js';
import { SIGN_IN_SESSION_CATEGORY } from './events.js';

type Started = Extract<SessionEvent, { type: 'SessionStarted' }>['data'];

export interface SessionState {
  exists: boolean;
  userId: string;
  companyId: string | null;
  expiresAt: string;
  idleTimeoutSeconds: number;
  lastActivityAt: string;
  currentRefreshHash: string;
  /** Hashes of rotated-out refresh tokens: presenting one again means the token leaked. */
  spentRefreshHashes: string[];
  endedReason: SessionEndReason | null;
}

export const initialSessionState: SessionState = {
  exists: false,
  userId: '',
  companyId: null,
  expiresAt: '',
  idleTimeoutSeconds: 0,
  lastActivityAt: '',
  currentRefreshHash: '',
  spentRefreshHashes: [],
  endedReason: null,
};

export type SessionCommand =
  | CommandEnvelope<'StartSession', Omit<Started, 'sessionId'>>
  | CommandEnvelope<'SelectCompany', { companyId: string }>
  | CommandEnvelope<'RefreshSession', { presentedHash: string; newHash: string }>
  | CommandEnvelope<'RecordSessionActivity', { minIntervalSeconds: number }>
  | CommandEnvelope<'Logout', Record<string, never>>
  | CommandEnvelope<'RevokeSession', { reason?: SessionRevocationReason }>
  | CommandEnvelope<'ExpireSession', Record<string, never>>;

/** Why a session that is still open has nevertheless run out at `at`, or null. */
export function sessionExpiry(
  s: Pick<SessionState, 'expiresAt' | 'idleTimeoutSeconds' | 'lastActivityAt'>,
  at: string,
): 'idle' | 'absolute' | null {
  const now = Date.parse(at);
  if (now >= Date.parse(s.expiresAt)) return 'absolute';
  if (now - Date.parse(s.lastActivityAt) > s.idleTimeoutSeconds * 1000) return 'idle';
  return null;
}

export function evolveSession(s: SessionState, e: SessionEvent): SessionState {
  switch (e.type) {
    case 'SessionStarted':
      return {
        ...s,
        exists: true,
        userId: e.data.userId,
        expiresAt: e.data.expiresAt,
        idleTimeoutSeconds: e.data.idleTimeoutSeconds,
        lastActivityAt: e.data.startedAt,
        currentRefreshHash: e.data.refreshTokenHash,
      };
    case 'CompanySelected':
      return { ...s, companyId: e.data.companyId };
    case 'SessionRefreshed':
      return {
        ...s,
        spentRefreshHashes: [...s.spentRefreshHashes, s.currentRefreshHash],
        currentRefreshHash: e.data.refreshTokenHash,
        lastActivityAt: e.data.at,
      };
    case 'SessionActivityRecorded':
      return { ...s, lastActivityAt: e.data.at };
    case 'LoggedOut':
      return { ...s, endedReason: 'logout' };
    case 'SessionRevoked':
      return { ...s, endedReason: e.data.reason };
    case 'SessionExpired':
      return { ...s, endedReason: e.data.reason };
  }
}

function expired(s: SessionState, at: string): SessionEvent[] | null {
  const reason = sessionExpiry(s, at);
  return reason ? [{ type: 'SessionExpired', data: { reason, at } }] : null;
}

function mustBeOpen(s: SessionState): void {
  if (!s.exists || s.endedReason) throw rule('session-ended', 'the session has ended', { reason: s.endedReason ?? 'missing' });
}

export function decideSession(cmd: SessionCommand, s: SessionState): SessionEvent[] {
  const at = cmd.at;
  switch (cmd.type) {
    case 'StartSession':
      if (s.exists) throw rule('session-exists', 'this session was already started');
      return [{ type: 'SessionStarted', data: { sessionId: cmd.aggregateId, ...cmd.data } }];
    case 'SelectCompany':
      mustBeOpen(s);
      return expired(s, at) ?? [{ type: 'CompanySelected', data: { companyId: cmd.data.companyId } }];
    case 'RefreshSession':
      mustBeOpen(s);
      // Reuse first: a leaked token must end the session even if it is about to expire anyway.
      if (s.spentRefreshHashes.includes(cmd.data.presentedHash))
        return [{ type: 'SessionRevoked', data: { reason: 'refresh-token-reuse', at } }];
      if (cmd.data.presentedHash !== s.currentRefreshHash) throw rule('refresh-token-invalid', 'unknown refresh token');
      return expired(s, at) ?? [{ type: 'SessionRefreshed', data: { refreshTokenHash: cmd.data.newHash, at } }];
    case 'RecordSessionActivity': {
      if (!s.exists || s.endedReason) return [];
      const end = expired(s, at);
      if (end) return end;
      const sinceLast = Date.parse(at) - Date.parse(s.lastActivityAt);
      return sinceLast < cmd.data.minIntervalSeconds * 1000 ? [] : [{ type: 'SessionActivityRecorded', data: { at } }];
    }
    case 'Logout':
      return !s.exists || s.endedReason ? [] : [{ type: 'LoggedOut', data: { at } }];
    case 'RevokeSession':
      return !s.exists || s.endedReason ? [] : [{ type: 'SessionRevoked', data: { reason: cmd.data.reason ?? 'revoked', at } }];
    case 'ExpireSession':
      return !s.exists || s.endedReason ? [] : (expired(s, at) ?? []);
  }
}

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  category: SIGN_IN_SESSION_CATEGORY,
  initialState: initialSessionState,
  evolve: evolveSession,
  decide: decideSession,
};
