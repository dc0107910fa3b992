// The company facts every group's commands take: the policy (folded from its stream, strong), the calendar day (the
// company's time zone), its roles and members (the platform's companies and memberships models, eventual).
import type { FactLoaders } from '../../commands/factLoaders.js';
import type { AppServices } from '../../services.js';
import { companyPolicy } from '../../queries/empresas/companyPolicy.js';
import { companyDay } from '../../queries/empresas/companyCalendar.js';
import { membershipIn, platformCollections } from '../../queries/platform/memberships.js';
import { roleOf } from '../../permissions/builtInRoles.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';

export const companyFactLoaders = (
  services: () => AppServices,
): Pick<FactLoaders, 'policy' | 'companyDay' | 'isMember' | 'unknownRoles'> => ({
  policy: (tenantId) => companyPolicy(services(), tenantId),
  companyDay: (tenantId, at) => companyDay({ services: services(), auth: { tenantId } }, at),
  isMember: async (userId, tenantId) => (await membershipIn(services(), userId, tenantId)) !== null,
  async unknownRoles(tenantId, codes) {
    const company = await platformCollections(services()).companies.get(PLATFORM_DOCS, tenantId);
    return codes.filter((code) => !roleOf(company?.roles ?? {}, code));
  },
});
