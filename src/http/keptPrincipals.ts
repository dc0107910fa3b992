// Principals of signed-in sessions, kept by their whole access token while the platform documents they were read from
// are unchanged: a write to any session, user, company or membership draws a new stamp and ends every kept one, so a
// sign-out, a revoked membership or a changed role is seen by the very next request. Time-bound checks (token and
// session expiry, activity) still run on every request.
import type { AppServices } from '../services.js';
import type { Principal } from '../auth/principal.js';
import { PLATFORM_DOCS } from '../stores/readStore.js';
import type { ProjectionRunner } from '../projections/runner/runnerTypes.js';
import { COMPANIES, MEMBERSHIPS, SESSIONS, USERS, type SessionDoc } from '../projections/platform/platformReadModels.js';

/** Enough for every session of a busy clinic group; the least recently used leave first. */
const MAX_KEPT = 1024;
const SOURCES = [SESSIONS, USERS, COMPANIES, MEMBERSHIPS];

export interface KeptPrincipal {
  session: SessionDoc;
  principal: Principal;
}

interface Entry extends KeptPrincipal {
  stamp: string;
}

const kept = new WeakMap<ProjectionRunner, Map<string, Entry>>();

/** The stamp of every document a principal is made of, or null when they may change unseen (another instance projects them). */
export function platformStamp(services: AppServices): string | null {
  let stamp = '';
  for (const { projection, collection } of SOURCES) {
    const part = services.projections.changeStamp(projection, collection, PLATFORM_DOCS);
    if (part === null) return null;
    stamp += `${part}.`;
  }
  return stamp;
}

export function keptPrincipal(services: AppServices, token: string, stamp: string): KeptPrincipal | null {
  const entries = kept.get(services.projections);
  const entry = entries?.get(token);
  if (!entries || !entry) return null;
  entries.delete(token);
  if (entry.stamp !== stamp) return null;
  entries.set(token, entry);
  return entry;
}

/** Keeps what was read under `stamp` (taken before the reads, so a write during them leaves it stale at once). */
export function keepPrincipal(services: AppServices, token: string, stamp: string, found: KeptPrincipal): void {
  let entries = kept.get(services.projections);
  if (!entries) kept.set(services.projections, (entries = new Map<string, Entry>()));
  entries.delete(token);
  entries.set(token, { ...found, stamp });
  if (entries.size > MAX_KEPT) entries.delete(entries.keys().next().value!);
}
