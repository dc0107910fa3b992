// The company facts every group's commands take: the policy (folded from its stream, strong) and the calendar day
// (the company's time zone from the companies model, eventual); they live here because their code is on the read side.
import type { FactLoaders } from '../../commands/factLoaders.js';
import type { AppServices } from '../../services.js';
import { companyPolicy } from '../../queries/empresas/companyPolicy.js';
import { companyDay } from '../../queries/empresas/companyCalendar.js';

export const companyFactLoaders = (services: () => AppServices): Pick<FactLoaders, 'policy' | 'companyDay'> => ({
  policy: (tenantId) => companyPolicy(services(), tenantId),
  companyDay: (tenantId, at) => companyDay({ services: services(), auth: { tenantId } }, at),
});
