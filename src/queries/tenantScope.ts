// What a query of a company's records needs: the service (read models, the log) and the company it answers
// for. The HTTP layer's tenant request context satisfies it as it is.
import type { ReadServices } from '../readServices.js';

export interface TenantScope {
  services: ReadServices;
  auth: { tenantId: string };
}
