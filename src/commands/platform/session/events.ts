// Events of a server-side session: started after the second factor, bound to a company, kept alive by
// activity and refresh-token rotation, ended by logout, revocation or expiry.

/** The category of the sign-in session (platform tenant) streams: written once, here (the decider, the writes and the read side take it). */
export const SIGN_IN_SESSION_CATEGORY = 'session';

/** Why an administrator's or the account's change ended a session. */
export type SessionRevocationReason =
  'refresh-token-reuse' | 'revoked' | 'user-deactivated' | 'membership-revoked' | 'password-changed' | 'two-factor-reset';

export type SessionEndReason = 'logout' | SessionRevocationReason | 'idle' | 'absolute';

export type SessionEvent =
  | {
      type: 'SessionStarted';
      data: {
        sessionId: string;
        userId: string;
        email: string;
        platformAdmin: boolean;
        challengeId: string;
        /** SHA-256 of the refresh token: the token itself is never stored. */
        refreshTokenHash: string;
        startedAt: string;
        /** Absolute end of the session, whatever the activity. */
        expiresAt: string;
        idleTimeoutSeconds: number;
      };
    }
  | { type: 'CompanySelected'; data: { companyId: string } }
  | { type: 'SessionRefreshed'; data: { refreshTokenHash: string; at: string } }
  | { type: 'SessionActivityRecorded'; data: { at: string } }
  | { type: 'LoggedOut'; data: { at: string } }
  | { type: 'SessionRevoked'; data: { reason: SessionRevocationReason; at: string } }
  | { type: 'SessionExpired'; data: { reason: 'idle' | 'absolute'; at: string } };

export const SESSION_EVENT_TYPES: readonly SessionEvent['type'][] = [
  'SessionStarted',
  'CompanySelected',
  'SessionRefreshed',
  'SessionActivityRecorded',
  'LoggedOut',
  'SessionRevoked',
  'SessionExpired',
];
