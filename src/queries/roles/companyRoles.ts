// The roles of a company (built-in and custom) with the permissions each grants today, and the permission catalogue.
import type { TenantScope } from '../tenantScope.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { notFoundProblem } from '../../problems.js';
import { ADMIN_ROLE, BUILT_IN_ROLES, permissionsOf } from '../../permissions/builtInRoles.js';
import { platformCollections } from '../platform/memberships.js';
import { permissionCatalog } from '../platform/permissionCatalog.js';
import type { CompanyDoc, MembershipDoc } from '../../projections/platform/platformReadModels.js';
import { companyRecordFold, foldMembership } from '../../projections/platform/companiesProjection.js';
import { PLATFORM_TENANT, streamName, type RecordedEvent } from '../../stores/eventStore.js';
import { foldAt, type RecordAt, type RecordPoint } from '../recordModel.js';

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
  return rolesOf(company, members.items);
}

/** The roles of a company document, each with how many of the active memberships hold it. */
function rolesOf(company: CompanyDoc, members: readonly MembershipDoc[]): RoleView[] {
  const holders = (code: string) => members.filter((m) => m.roles.includes(code)).length;
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

/**
 * A role as it was at an instant or version, with the members holding it then. A custom role's versions are its
 * definitions and its retirement (then absent), numbered; a built-in role's one version is the company's registration.
 */
export async function companyRoleAt(scope: TenantScope, code: string, point: RecordPoint): Promise<RecordAt<RoleView>> {
  const tenantId = scope.auth.tenantId;
  const own = streamName(PLATFORM_TENANT, 'company', tenantId);
  const events = await scope.services.events.readStream(own);
  const builtIn = BUILT_IN_ROLES.some((r) => r.code === code);
  const namesIt = (e: RecordedEvent) =>
    (e.type === 'RoleDefined' || e.type === 'RoleRetired') && (e.data as { code?: string }).code === code;
  const mine = events.filter((e) => (builtIn ? e.type === 'CompanyRegistered' : namesIt(e))).map((e, revision) => ({ ...e, revision }));
  const fold = (_doc: unknown, e: RecordedEvent) =>
    e.type === 'RoleRetired' ? null : { tenantId, id: code, revision: e.revision, _position: Number(e.position) };
  const at = foldAt({ fold, notFound: 'Role not found' }, mine, own, code, point);
  // The company and its memberships up to the same point: the role's permissions and its members then.
  const next = 'asOf' in point ? undefined : mine[at.version + 1]?.position;
  const inside = (e: RecordedEvent) =>
    'asOf' in point ? Date.parse(e.metadata.occurredAt) <= Date.parse(point.asOf) : next === undefined || e.position < next;
  let company: CompanyDoc | null = null;
  const members = new Map<string, MembershipDoc | null>();
  for (const e of events) {
    if (!inside(e)) break;
    company = companyRecordFold(company, e, tenantId);
    const userId = (e.data as { userId?: string }).userId;
    if (userId) members.set(userId, foldMembership(members.get(userId) ?? null, e, userId));
  }
  const active = [...members.values()].filter((m): m is MembershipDoc => m?.active === true);
  const role = rolesOf(company!, active).find((r) => r.code === code)!;
  return { ...at, event: events.find((e) => e.position === at.event.position)!, doc: role };
}
