// The company facts every group's commands take: the policy (folded from its stream, strong), the calendar day (the
// company's time zone), its roles and members (the platform's companies and memberships models), its locations and
// stations (the locations model): all read from models (eventual) but the policy.
import type { FactLoaders } from '../../commands/factLoaders.js';
import type { AppServices } from '../../services.js';
import type { TenantScope } from '../../queries/tenantScope.js';
import { companyPolicy } from '../../queries/empresas/companyPolicy.js';
import { companyDay } from '../../queries/empresas/companyCalendar.js';
import { stationOf } from '../../queries/empresas/locationQueries.js';
import { locations } from '../../queries/empresas/readModel.js';
import { membershipIn, platformCollections } from '../../queries/platform/memberships.js';
import { roleOf } from '../../permissions/builtInRoles.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';

type CompanyFactLoaders = Omit<FactLoaders, 'stock' | 'confirmers' | 'authorizations'>;

export function companyFactLoaders(services: () => AppServices): CompanyFactLoaders {
  const scopeOf = (tenantId: string): TenantScope => ({ services: services(), auth: { tenantId } });
  return {
    policy: (tenantId) => companyPolicy(services(), tenantId),
    companyDay: (tenantId, at) => companyDay(scopeOf(tenantId), at),
    isMember: async (userId, tenantId) => Boolean(await membershipIn(services(), userId, tenantId)),
    isLocation: async (tenantId, locationId) => Boolean(await locations(scopeOf(tenantId)).get(tenantId, locationId)),
    isStation: async (tenantId, locationId, stationId) => Boolean(await stationOf(scopeOf(tenantId), locationId, stationId)),
    async unknownRoles(tenantId, codes) {
      const company = await platformCollections(services()).companies.get(PLATFORM_DOCS, tenantId);
      return codes.filter((code) => !roleOf(company?.roles ?? {}, code));
    },
  };
}
