// Names and shapes of the platform read models (sign-in lookups, sessions, companies, memberships).
import type { ProjectedDoc } from '../runner/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import type { SessionEndReason } from '../../commands/platform/session/events.js';
import type { TotpStatus } from '../../commands/platform/user/decider.js';

export const USERS = { projection: 'platformUsers', collection: 'platformUsers' } as const;
export const SESSIONS = { projection: 'platformSessions', collection: 'platformSessions' } as const;
export const COMPANIES = { projection: 'platformCompanies', collection: 'platformCompanies' } as const;
export const MEMBERSHIPS = { projection: 'platformCompanies', collection: 'platformMemberships' } as const;

export interface UserDoc extends ProjectedDoc {
  email: string;
  name: string;
  platformAdmin: boolean;
  active: boolean;
  totpStatus: TotpStatus;
  registeredAt: string;
  lastSignInAt: string | null;
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
  roles: Record<string, { name: string; permissions: string[]; grantsAll: boolean }>;
}

export interface MembershipDoc extends ProjectedDoc {
  companyId: string;
  userId: string;
  roles: string[];
  /** Revoked memberships stay as documents (so replays cannot resurrect them) with active=false. */
  active: boolean;
}

export const membershipId = (companyId: string, userId: string): string => `${companyId}:${userId}`;

/** Aggregate id of an event's stream `<tenant>.<category>-<id>`. */
export function aggregateIdOf(event: RecordedEvent): string {
  const dash = event.streamName.indexOf('-');
  return event.streamName.slice(dash + 1);
}
