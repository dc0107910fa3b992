// The tenants whose chain heads are signed: the platform and every company.
import type { ReadServices } from '../readServices.js';
import { listCompanies } from '../queries/empresas/companies.js';
import { PLATFORM_TENANT } from '../stores/eventStore.js';

const PAGE = 100;

export async function chainTenants(services: ReadServices): Promise<string[]> {
  const tenants = [PLATFORM_TENANT];
  let cursor: string | null = null;
  do {
    const page = await listCompanies(services, { limit: PAGE, cursor });
    tenants.push(...page.items.map((c) => c.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return tenants;
}
