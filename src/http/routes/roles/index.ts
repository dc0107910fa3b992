// The Roles group: built-in roles (one per job in a dialysis unit), custom roles, and the permission catalogue.
import { groupRoutes } from '../shared/groupRoutes.js';
import type { GroupModule } from '../../groupModule.js';
import Type from 'typebox';
import { type RouteDecl, type TenantRequestContext } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { writeHeaders } from '../../recordHeaders.js';
import { handleCommand } from '../../../commands/handleCommand.js';
import { rule } from '../../../commands/decider.js';
import { PLATFORM_DOCS } from '../../../stores/readStore.js';
import { platformCollections } from '../../../queries/platform/memberships.js';
import { companyDecider } from '../../../commands/platform/company/decider.js';
import { awaitPlatformReadModels, platformContext } from '../../../commands/platform/platformWrites.js';
import { companyRole, companyRoleAt, companyRoles } from '../../../queries/roles/companyRoles.js';
import { AsOfQuerySchema, nowOrAt } from '../../recordAsOf.js';
import { READ_HEADERS } from '../shared/recordSupport.js';
import { permissionCatalog, permissionEntries } from '../../../queries/platform/permissionCatalog.js';
import {
  behind503,
  callerOf,
  conflict409,
  obj,
  ok,
  reasonSchema,
  ROLE_CODE,
  str,
  tenantOf,
  WRITE_HEADERS,
  mustHoldWhatTheyGrant,
  privilegedCaller,
  refusals403,
  writeOnRecordAnswers,
} from '../shared/adminSupport.js';
import { mustOutrankRole } from '../../../commands/platform/privilegeWrites.js';
import { companyModulePermissions } from '../../../queries/generador/modulePermissions.js';

/** What a role may grant in this company: the catalogue and the permissions of the company's own modules. */
const companyCatalog = async (ctx: TenantRequestContext): Promise<string[]> => [
  ...permissionCatalog(),
  ...(await companyModulePermissions(ctx)),
];

const TAG = 'Roles';
const READ = 'roles:read';
const ADMIN = 'roles:admin';

const PERMISSION = Type.String({
  pattern: '^([a-z][a-z0-9-]*|mod[.][a-z][a-z0-9-]{1,39}):[a-z][a-z0-9-]*$',
  description: '<group>:<action>, or mod.<module>:read|write|sign for a module of the company',
});
const RoleSchema = obj({
  code: str('Role code'),
  name: str('Name'),
  description: { type: ['string', 'null'] },
  builtIn: { type: 'boolean', description: 'Built-in roles come with every company and cannot be changed' },
  grantsAll: { type: 'boolean', description: 'Holds every permission, also of groups added later (the admin role)' },
  permissions: { type: 'array', items: { type: 'string' }, description: 'What the role grants today' },
  members: { type: 'integer', description: 'Active members holding it' },
});
const roleFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  permissions: Type.Array(PERMISSION, { maxItems: 200, uniqueItems: true }),
  reason: Type.Optional(reasonSchema),
};
const RoleBody = Type.Object(roleFields, { additionalProperties: false });
const CreateRoleBody = Type.Object({ code: ROLE_CODE, ...roleFields }, { additionalProperties: false });
const CodeParams = Type.Object({ code: ROLE_CODE }, { additionalProperties: false });
const RetireBody = Type.Object({ reason: reasonSchema }, { additionalProperties: false });
const role404 = problem('No such role in the selected company');

async function companyWrite(ctx: TenantRequestContext, command: object, reason?: string) {
  const result = await handleCommand(
    ctx.services.events,
    companyDecider,
    command as never,
    platformContext(ctx.services, callerOf(ctx, reason)),
  );
  await awaitPlatformReadModels(ctx.services, result.position, ['companies']);
  return result.position;
}

const roles = groupRoutes(TAG);

const routes: RouteDecl[] = [
  roles.get('/roles', READ, {
    summary: "The company's roles with the permissions each grants",
    responses: { 200: ok('Built-in roles first, then custom roles', obj({ items: { type: 'array', items: RoleSchema } })) },
    async handle(_input, ctx) {
      return { status: 200, body: { items: await companyRoles(ctx as TenantRequestContext) } };
    },
  }),
  roles.get('/roles/permisos', READ, {
    summary: "The permission catalogue: every permission the groups declare, then those of the company's modules",
    responses: {
      200: ok(
        'Permissions with their group',
        obj({ items: { type: 'array', items: obj({ permission: str('<group>:<action>'), group: str('Group (OpenAPI tag)') }) } }),
      ),
    },
    async handle(_input, ctx) {
      const modules = (await companyModulePermissions(ctx as TenantRequestContext)).map((permission) => ({
        permission,
        group: 'Generador',
      }));
      return { status: 200, body: { items: [...permissionEntries(), ...modules] } };
    },
  }),
  roles.get('/roles/{code}', READ, {
    summary: 'A role',
    params: CodeParams,
    query: AsOfQuerySchema,
    responses: { 200: ok('The role', RoleSchema, READ_HEADERS), 404: role404 },
    handle: ({ params, query }, ctx) =>
      nowOrAt(ctx, query, {
        now: () => companyRole(ctx as TenantRequestContext, params.code),
        at: (point) => companyRoleAt(ctx as TenantRequestContext, params.code, point),
      }),
  }),
  roles.post('/roles', ADMIN, {
    summary: 'Create a custom role',
    description: 'Permissions must be in the catalogue (GET /roles/permisos); a company role never grants a platform operation.',
    body: CreateRoleBody,
    responses: {
      201: ok('The role', RoleSchema, { ...WRITE_HEADERS, Location: 'URL of the role' }),
      403: refusals403('grant'),
      409: conflict409,
      503: behind503,
    },
    async handle({ body }, ctx) {
      const tctx = ctx as TenantRequestContext;
      const { code, name, description, permissions, reason } = body;
      await mustHoldWhatTheyGrant(ctx, { permissions });
      const data = { code, name, permissions, catalog: await companyCatalog(tctx), ...(description ? { description } : {}) };
      const position = await companyWrite(tctx, { type: 'DefineRole', aggregateId: tenantOf(ctx), data }, reason);
      return { status: 201, body: await companyRole(tctx, code), headers: writeHeaders({ position, location: `/roles/${code}` }) };
    },
  }),
  roles.put('/roles/{code}', ADMIN, {
    summary: 'Change a custom role (effective on the next request of every member holding it)',
    params: CodeParams,
    body: RoleBody,
    responses: writeOnRecordAnswers({ 200: ok('The role', RoleSchema, WRITE_HEADERS) }, refusals403('outranked', 'grant'), role404),
    async handle({ params, body }, ctx) {
      const tctx = ctx as TenantRequestContext;
      const { name, description, permissions, reason } = body;
      await mustOutrankRole(ctx.services, privilegedCaller(ctx), params.code);
      await mustHoldWhatTheyGrant(ctx, { permissions });
      const data = { code: params.code, name, permissions, catalog: await companyCatalog(tctx), ...(description ? { description } : {}) };
      const position = await companyWrite(tctx, { type: 'ChangeRole', aggregateId: tenantOf(ctx), data }, reason);
      return { status: 200, body: await companyRole(tctx, params.code), headers: writeHeaders({ position }) };
    },
  }),
  roles.post('/roles/{code}/retiro', ADMIN, {
    summary: 'Retire a custom role nobody holds',
    params: CodeParams,
    body: RetireBody,
    responses: writeOnRecordAnswers({ 204: ok('Retired', undefined, WRITE_HEADERS) }, refusals403('outranked'), role404),
    async handle({ params, body }, ctx) {
      await mustOutrankRole(ctx.services, privilegedCaller(ctx), params.code);
      // API clients hold roles too (their own stream): a role they hold is in use as much as a member's.
      const clients = await platformCollections(ctx.services).apiClients.count(PLATFORM_DOCS, {
        companyId: tenantOf(ctx),
        status: 'active',
        roles: params.code,
      });
      if (clients > 0) throw rule('role-in-use', `the role is held by ${clients} API client(s): change their roles first`);
      const position = await companyWrite(
        ctx as TenantRequestContext,
        { type: 'RetireRole', aggregateId: tenantOf(ctx), data: { code: params.code } },
        body.reason,
      );
      return { status: 204, headers: writeHeaders({ position }) };
    },
  }),
];

export const rolesGroup: GroupModule = {
  tag: TAG,
  description:
    'Roles of the selected company: built-in roles for each job of a dialysis unit (admin, medical director, physician, nurse, ' +
    'nursing technician, biomedical and reprocessing technicians, pharmacist, receptionist, billing, auditor) and custom roles. ' +
    'A change takes effect on the next request of every member, without signing in again.',
  permissions: [READ, ADMIN],
  routes,
  projections: [],
};
