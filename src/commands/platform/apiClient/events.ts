// Events of an API client: a program (lab interface, billing system) that signs in with client credentials
// (RFC 6749 section 4.4) inside one company, holding roles like a user. Secrets are stored as SHA-256 only.

export type ApiClientEvent =
  | { type: 'ApiClientCreated'; data: { clientId: string; companyId: string; name: string; roles: string[]; secretHash: string } }
  /** A new secret; the previous one keeps working until `previousValidUntil` (null: not at all). */
  | { type: 'ApiClientSecretRotated'; data: { secretHash: string; previousValidUntil: string | null } }
  | { type: 'ApiClientRolesChanged'; data: { roles: string[] } }
  | { type: 'ApiClientRevoked'; data: { at: string } }
  /** An access token was issued (its id and expiry): a program's sign-ins are on the record like a person's. */
  | { type: 'ApiClientTokenIssued'; data: { tokenId: string; expiresAt: string } };

export const API_CLIENT_EVENT_TYPES: readonly ApiClientEvent['type'][] = [
  'ApiClientCreated',
  'ApiClientSecretRotated',
  'ApiClientRolesChanged',
  'ApiClientRevoked',
  'ApiClientTokenIssued',
];
