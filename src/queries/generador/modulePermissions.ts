// The permissions of a company's own modules (any status: a retired module's data stays readable), as roles may
// grant them and GET /roles/permisos lists them.
import type { Page } from '../../stores/readStore.js';
import type { TenantScope } from '../tenantScope.js';
import type { ModuleDoc } from '../../projections/generador/moduleDoc.js';
import { permissionsOfModules } from '../../commands/generador/shared/modulePermissions.js';
import { modules } from './modules.js';

/** The codes of every module the company has defined, sorted. */
export async function moduleCodes(scope: TenantScope): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  do {
    const page: Page<ModuleDoc> = await modules(scope).find(scope.auth.tenantId, {}, { sort: { id: 1 }, limit: 200, after });
    out.push(...page.items.map((m) => m.id));
    after = page.nextCursor;
  } while (after);
  return out;
}

/** `mod.<code>:read|write|sign` of every module the company has defined. */
export const companyModulePermissions = async (scope: TenantScope): Promise<string[]> => permissionsOfModules(await moduleCodes(scope));
