// The platform facts the write side declares (commands/platform/platformFacts.ts), read from the platform read models:
// read-side code serving the write side, kept out of src/commands so commands never import a query or a projection.
import type { ProjectionRunner } from '../../projections/runner/runnerTypes.js';
import type { CaughtUp, PlatformFacts, PlatformModel } from '../../commands/platform/platformFacts.js';
import { PLATFORM_DOCS, type Page } from '../../stores/readStore.js';
import { LIMITS } from '../../limits.js';
import {
  API_CLIENTS,
  COMPANIES,
  MEMBERSHIPS,
  SESSIONS,
  USERS,
  type ApiClientDoc,
  type SessionDoc,
} from '../../projections/platform/platformReadModels.js';
import { membershipIn, permissionsIn, platformCollections } from '../../queries/platform/memberships.js';
import { permissionCatalog } from '../../queries/platform/permissionCatalog.js';

const PROJECTION_OF: Record<PlatformModel, string> = {
  users: USERS.projection,
  sessions: SESSIONS.projection,
  companies: COMPANIES.projection,
  memberships: MEMBERSHIPS.projection,
  apiClients: API_CLIENTS.projection,
};

/** Every platform fact, read from the read models `projections` serves (wired by the composition root). */
export function platformFactsFrom(projections: ProjectionRunner): PlatformFacts {
  // Resolved at each read, as the writes did: a server without the platform projections still starts.
  const models = () => platformCollections({ projections });
  const caughtUp: CaughtUp = (position, names, options = {}) =>
    projections.waitFor(position, { projections: names.map((name) => PROJECTION_OF[name]), ...options });
  return {
    async userByEmail(email) {
      return (await models().users.findOne(PLATFORM_DOCS, { email }))?.id ?? null;
    },
    async accountActive(userId) {
      return (await models().users.get(PLATFORM_DOCS, userId))?.active === true;
    },
    async sessionHolder(sessionId) {
      return (await models().sessions.get(PLATFORM_DOCS, sessionId))?.userId ?? null;
    },
    async *openSessionsOf(target) {
      const filter: Record<string, unknown> = { userId: target.userId, endedReason: null };
      if (target.companyId) filter.companyId = target.companyId;
      let after: string | null = null;
      do {
        const page: Page<SessionDoc> = await models().sessions.find(PLATFORM_DOCS, filter, { limit: LIMITS.pagination.maxLimit, after });
        yield page.items.map((session) => session.id);
        after = page.nextCursor;
      } while (after);
    },
    async membershipIn(userId, companyId) {
      const found = await membershipIn({ projections }, userId, companyId);
      if (!found) return null;
      const { company, membership } = found;
      return {
        company: { id: company.id, name: company.name },
        roles: [...membership.roles].sort(),
        permissions: permissionsIn(company, membership),
      };
    },
    async pendingOffersOf(userId) {
      const pending = await models().memberships.find(PLATFORM_DOCS, { userId, status: 'pending' }, { limit: LIMITS.pagination.maxLimit });
      return pending.items.map((membership) => membership.companyId);
    },
    async apiClientRolesHolding(companyId, role) {
      const filter = { companyId, status: 'active', roles: role };
      const held: string[][] = [];
      let after: string | null = null;
      do {
        const page: Page<ApiClientDoc> = await models().apiClients.find(PLATFORM_DOCS, filter, { after, limit: 200 });
        held.push(...page.items.map((client) => client.roles));
        after = page.nextCursor;
      } while (after);
      return held;
    },
    permissionCatalog,
    caughtUp,
  };
}
