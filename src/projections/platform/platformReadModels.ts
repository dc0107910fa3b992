// Names and shapes of the platform read models (sign-in lookups, sessions, companies, memberships).
import type { ProjectedDoc } from '../runner/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import type { SessionEndReason } from '../../commands/platform/session/events.js';
import type { TotpStatus } from '../../commands/platform/user/events.js';
import type { CompanyStatus, CompanyProfile } from '../../commands/platform/company/events.js';

export const USERS = { projection: 'platformUsers', collection: 'platformUsers' } as const;
export const SESSIONS = { projection: 'platformSessions', collection: 'platformSessions' } as const;
export const COMPANIES = { projection: 'platformCompanies', collection: 'platformCompanies' } as const;
export const MEMBERSHIPS = { projection: 'platformCompanies', collection: 'platformMemberships' } as const;

export interface UserDoc extends ProjectedDoc {
  email: string;
  name: string;
  platformAdmin: boolean;
  active: boolean;
  /** False while an invited account waits for its activation (no password yet). */
  activated: boolean;
  totpStatus: TotpStatus;
  registeredAt: string;
  lastSignInAt: string | null;
  /** Last password change or second-factor reset: sessions started before it are refused (but the one that changed it). */
  credentialsChangedAt?: string | null;
  credentialsKeptSession?: string | null;
}

export interface SessionDoc extends ProjectedDoc {
  userId: string;
  email: string;
  platformAdmin: boolean;
  companyId: string | null;
  startedAt: string;
  expiresAt: string;
  idleTimeoutSeconds: number;
  lastActivityAt: string;
  endedReason: SessionEndReason | null;
  endedAt: string | null;
}

export interface CompanyDoc extends ProjectedDoc {
  name: string;
  legalName: string | null;
  taxId: string | null;
  registeredAt: string;
  status: CompanyStatus;
  /** Partial for companies registered by name only (bootstrap). */
  profile: Partial<CompanyProfile>;
  /** Optional modules switched on (OPTIONAL_MODULES); the core groups are always on. */
  modules: string[];
  /** Custom roles (built-in roles are code: builtInRoles.ts). */
  roles: Record<string, { name: string; permissions: string[]; grantsAll: boolean; description?: string }>;
  /** Revision of the company's stream: the ETag of GET /empresas/actual. */
  revision: number;
  suspendedAt: string | null;
  suspensionReason: string | null;
}

export type MembershipStatus = 'active' | 'pending' | 'revoked';

export interface MembershipDoc extends ProjectedDoc {
  companyId: string;
  userId: string;
  roles: string[];
  /** When it was granted (accepted), or offered while pending. */
  grantedAt: string;
  /** Only an active membership grants anything; revoked ones stay as documents (so replays cannot resurrect them). */
  active: boolean;
  /** pending: offered by an invitation, not accepted yet (active=false). */
  status: MembershipStatus;
  /**
   * What the inviting company entered, shown instead of the account until the person accepts: a company never learns
   * another company's person's name, status, second factor or last sign-in. Null once accepted (or granted at once).
   */
  invited: { name: string; email: string; expiresAt: string } | null;
}

export const API_CLIENTS = { projection: 'platformApiClients', collection: 'platformApiClients' } as const;

export interface ApiClientDoc extends ProjectedDoc {
  companyId: string;
  name: string;
  roles: string[];
  status: 'active' | 'revoked';
  createdAt: string;
  createdBy: string;
  secretRotatedAt: string | null;
  /** The previous secret still opens the client until then (after a rotation with a grace period). */
  previousSecretValidUntil: string | null;
  lastTokenAt: string | null;
  revokedAt: string | null;
}

export const membershipId = (companyId: string, userId: string): string => `${companyId}:${userId}`;

/** Aggregate id of an event's stream `<tenant>.<category>-<id>`. */
export function aggregateIdOf(event: RecordedEvent): string {
  const dash = event.streamName.indexOf('-');
  return event.streamName.slice(dash + 1);
}
