// /generador/modulos: define a module, list and read definitions (asOf/version), change a definition (If-Match: a draft
// freely, a published module compatibly), add a major version with its mapping, publish, retire, and the history.
import Type from 'typebox';
import {
  addModuleMajorVersion,
  changeModuleDefinition,
  defineModule,
  publishModule,
  retireModule,
  type ModuleDeps,
} from '../../../commands/generador/module/moduleWrites.js';
import { GENERATOR_LIMITS, MODULE_STATUSES, type ModuleDefinition } from '../../../commands/generador/shared/definitionTypes.js';
import { DomainError } from '../../../commands/decider.js';
import { moduleView } from '../../../projections/generador/moduleDoc.js';
import { listModules, moduleModel, modules } from '../../../queries/generador/modules.js';
import { permissionCatalog } from '../../../queries/platform/permissionCatalog.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { commandCtx, IF_MATCH_PROBLEMS, ok, tenantCtx, withFieldPointers } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { ChangeDefinitionBody, CodeParams, DefineModuleBody, MajorVersionBody, ModuleView, PublishBody } from './moduleSchemas.js';
import { READ, TAG, WRITE } from './names.js';

/** First path segments of the service and the generator's own words: never a module's code (beside permission prefixes). */
const RESERVED_SEGMENTS = [
  'accesos-vasculares',
  'alergias',
  'auth',
  'coberturas',
  'docs',
  'estado',
  'health',
  'integraciones',
  'lineas',
  'm',
  'modulos',
  'openapi',
  'openapi.json',
  'panel',
  'peso-seco',
  'ready',
  'roles',
  'serologias',
  'sistema',
  'tenants',
  'generador',
  'widgets',
];

let reserved: { from: readonly string[]; codes: readonly string[] } | null = null;
/** Built-in groups' permission prefixes (the catalog, set at start) and path segments, computed once per catalog. */
function reservedCodes(): readonly string[] {
  const catalog = permissionCatalog();
  if (reserved?.from !== catalog) {
    const prefixes = catalog.map((p) => p.split(':')[0]!);
    reserved = { from: catalog, codes: [...new Set([...prefixes, ...RESERVED_SEGMENTS])] };
  }
  return reserved.codes;
}

const deps = (ctx: RequestContext): ModuleDeps => ({ events: ctx.services.events, reservedCodes: reservedCodes() });

const kit = recordKit({
  tag: TAG,
  base: '/generador/modulos',
  read: READ,
  write: WRITE,
  noun: 'module',
  model: moduleModel,
  view: moduleView,
  viewSchema: ModuleView,
  idParam: 'code',
  idSchema: CodeParams.properties.code,
});

/** The definition members of a body (without the code, reason or mapping). */
const definitionOf = <B extends ModuleDefinition & { reason?: string }>(body: B): ModuleDefinition => {
  const { name, description, patientLinked, fields, listFields, filterFields, sortFields, states } = body;
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    patientLinked,
    fields,
    ...(listFields ? { listFields } : {}),
    filterFields,
    sortFields,
    ...(states ? { states } : {}),
  };
};

const changeDefinition = route({
  method: 'put',
  path: '/generador/modulos/{code}/definicion',
  tag: TAG,
  auth: 'tenant',
  permission: WRITE,
  summary: "Replace a module's definition",
  description:
    'If-Match required. A draft takes any valid definition (it stays 1.0); a published module only compatible changes (minor + 1, ' +
    'listed in the event), else 409 breaking-change naming each conflict: add a major version instead (/versiones).',
  params: CodeParams,
  body: ChangeDefinitionBody,
  requestHeaders: { 'If-Match': ifMatchHeader(true) },
  responses: { 200: ok('The module', ModuleView), 404: kit.notFound404, ...IF_MATCH_PROBLEMS },
  handle: (input, ctx) =>
    withFieldPointers(async () => {
      const ifMatch = ifMatchRevision(input.headers['if-match'], { required: true });
      const { code } = input.params;
      const result = await changeModuleDefinition(deps(ctx), commandCtx(ctx, input.body.reason), code, definitionOf(input.body), ifMatch);
      return kit.answer(ctx, code, result);
    }),
});

/** A company keeps at most GENERATOR_LIMITS.modulesPerCompany modules, retired ones included (their codes stay taken). */
async function withinModuleLimit(ctx: RequestContext): Promise<void> {
  const scope = tenantCtx(ctx);
  const held = await modules(scope).count(scope.auth.tenantId);
  if (held >= GENERATOR_LIMITS.modulesPerCompany)
    throw new DomainError('module-limit-reached', `a company keeps at most ${GENERATOR_LIMITS.modulesPerCompany} modules`, 409, {
      limit: GENERATOR_LIMITS.modulesPerCompany,
    });
}

export const moduleRoutes: RouteDecl[] = [
  kit.create({
    summary: 'Define a module (draft, version 1.0)',
    description:
      "The code is the module's id: one already used in the company (also by a retired module) answers 409 module-code-taken; " +
      `a company keeps at most ${GENERATOR_LIMITS.modulesPerCompany} modules (409 module-limit-reached).`,
    body: DefineModuleBody,
    idKey: 'code',
    handle: async ({ code, reason, ...body }, ctx) => {
      await withinModuleLimit(ctx);
      return defineModule(deps(ctx), commandCtx(ctx, reason), code, definitionOf(body));
    },
  }),
  kit.list({
    summary: "List the company's modules by code",
    filters: { status: Type.Optional(Type.Enum(MODULE_STATUSES)) },
    list: listModules,
  }),
  kit.read({ summary: 'Read a module definition' }),
  changeDefinition,
  kit.action({
    path: 'versiones',
    summary: 'Add a major version with the mapping of older records',
    description: 'Published modules only; If-Match required. The mapping must cover every breaking change (409 uncovered-conflict).',
    body: MajorVersionBody,
    params: CodeParams,
    ifMatch: 'required',
    handle: (code, { upcast, reason, ...body }, ctx, ifMatch) =>
      addModuleMajorVersion(deps(ctx), commandCtx(ctx, reason), code, definitionOf(body), upcast, ifMatch!),
  }),
  kit.action({
    path: 'publicacion',
    summary: 'Publish a module: its records are served under /generador/m/{code}',
    body: PublishBody,
    params: CodeParams,
    handle: (code, { reason }, ctx, ifMatch) => publishModule(deps(ctx), commandCtx(ctx, reason), code, ifMatch),
  }),
  kit.action({
    path: 'retiro',
    summary: 'Retire a module: its records stay readable, nothing is written any more',
    params: CodeParams,
    handle: (code, { reason }, ctx, ifMatch) => retireModule(deps(ctx), commandCtx(ctx, reason), code, ifMatch),
  }),
  kit.history({ summary: "The module's history: who, when, why and what of every change, oldest first" }),
];
