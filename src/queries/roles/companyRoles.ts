// The roles of a company (built-in and custom) with the permissions each grants today, and the permission catalogue.
import type { TenantScope } from '../tenantScope.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { notFoundProblem } from '../../problems.js';
import { ADMIN_ROLE, BUILT_IN_ROLES, permissionsOf } from '../../permissions/builtInRoles.js';
import { platformCollections } from '../platform/memberships.js';
import { permissionCatalog } from '../platform/permissionCatalog.js';

export interface RoleView {
  code: string;
  name: string;
  description: string | null;
  builtIn: boolean;
  /** Every permission of the catalogue, also those of groups added later. */
  grantsAll: boolean;
  /** Permissions the role grants now (those of groups this service declares). */
  permissions: string[];
  members: number;
}

export async function companyRoles(scope: TenantScope): Promise<RoleView[]> {
  const models = platformCollections(scope.services);
  const company = await models.companies.get(PLATFORM_DOCS, scope.auth.tenantId);
  if (!company) throw notFoundProblem('No such company');
  const members = await models.memberships.find(PLATFORM_DOCS, { companyId: scope.auth.tenantId, active: true }, { limit: 100_000 });
  const holders = (code: string) => members.items.filter((m) => m.roles.includes(code)).length;
  const catalog = permissionCatalog();
  const builtIn = BUILT_IN_ROLES.map((r) => ({
    code: r.code,
    name: r.name,
    description: r.description,
    builtIn: true,
    grantsAll: r.grantsAll,
    permissions: permissionsOf(company.roles, [r.code], catalog),
    members: holders(r.code),
  }));
  const custom = Object.entries(company.roles)
    .filter(([code]) => code !== ADMIN_ROLE)
    .map(([code, r]) => ({
      code,
      name: r.name,
      description: r.description ?? null,
      builtIn: false,
      grantsAll: false,
      permissions: permissionsOf(company.roles, [code], catalog),
      members: holders(code),
    }))
    .sort((a, b) => a.code.localeCompare(b.code));
  return [...builtIn, ...custom];
}

export async function companyRole(scope: TenantScope, code: string): Promise<RoleView> {
  const role = (await companyRoles(scope)).find((r) => r.code === code);
  if (!role) throw notFoundProblem('No such role in the selected company');
  return role;
}
