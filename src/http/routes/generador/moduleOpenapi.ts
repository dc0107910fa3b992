// A company's own OpenAPI 3.1 document: for each module it serves, the record surface under /generador/m/<code> with
// named schemas (VacunacionHbvRecord...), built by the service's document builder so answers match the built-in routes.
import type { ModuleDefinition, ModuleStatus, ModuleVersion } from '../../../commands/generador/shared/definitionTypes.js';
import { modulePermission } from '../../../commands/generador/shared/definitionTypes.js';
import {
  createBodySchema,
  createValuesSchema,
  patchBodySchema,
  patchValuesSchema,
  recordViewSchema,
  viewValuesSchema,
  type Schema,
} from '../../../commands/generador/shared/moduleJsonSchemas.js';
import type { GroupModule } from '../../groupModule.js';
import { buildOpenApiDocument, type OpenApiOptions } from '../../openapi.js';
import { MinPositionField, pageOf, PageQueryFields, problem } from '../../commonSchemas.js';
import { RecordReadQuerySchema } from '../../recordAsOf.js';
import { RecordHistoryEntrySchema } from '../../recordHistoryAnswer.js';
import { ifMatchHeader } from '../../recordHeaders.js';
import type { JsonSchema, RouteDecl } from '../../routeTypes.js';
import {
  badCursor400,
  conflict409,
  createdOk,
  ok,
  precondition412,
  READ_HEADERS,
  required428,
  unavailable503,
} from '../shared/recordSupport.js';
import { listQuerySchema } from './compiledModules.js';

/** What of a module its contract needs (a ModuleDoc has it). */
export interface ContractModule {
  code: string;
  status: ModuleStatus;
  version: ModuleVersion;
  definition: ModuleDefinition;
}

/** vacunacion-hbv -> VacunacionHbv: the prefix of the module's schema names and operationIds. */
export const pascalOfCode = (code: string): string =>
  code
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const ID: Schema = { type: 'string', format: 'uuid' };
const StepUpCode: Schema = {
  type: 'string',
  pattern: '^[0-9]{6}$',
  maxLength: 6,
  description: "A fresh code of the signer's authenticator (step-up)",
};
const TransitionBody: Schema = {
  type: 'object',
  properties: {
    reason: { type: 'string', minLength: 1, maxLength: 500, description: 'Why: recorded with the event and shown in the history' },
    code: {
      ...StepUpCode,
      description: "Signing transitions only: a fresh code of the signer's authenticator (step-up); a person, never an API client",
    },
  },
  additionalProperties: false,
};
const ArchiveBody: Schema = {
  type: 'object',
  properties: {
    reason: { type: 'string', minLength: 1, maxLength: 500, description: 'Why: recorded with the event and shown in the history' },
  },
  required: ['reason'],
  additionalProperties: false,
};
const PageQuery: Schema = { type: 'object', properties: { ...PageQueryFields, ...MinPositionField }, additionalProperties: false };
const closedParams = (properties: Schema): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const contractOnly = (): Promise<never> => Promise.reject(new Error('A contract declaration: the record routes answer this path'));

/** The named schemas of one module, by name (a retired module's: what its reads answer). */
export function moduleSchemas(m: ContractModule): Record<string, Schema> {
  const p = pascalOfCode(m.code);
  const def = m.definition;
  const reads = {
    [`${p}RecordValues`]: viewValuesSchema(def),
    [`${p}Record`]: recordViewSchema(def, m.code, ref(`${p}RecordValues`)),
    [`${p}Page`]: pageOf(ref(`${p}Record`)),
  };
  if (m.status !== 'published') return reads;
  return {
    [`${p}Values`]: createValuesSchema(def),
    [`${p}PatchValues`]: patchValuesSchema(def),
    [`${p}Create`]: createBodySchema(def, ref(`${p}Values`)),
    [`${p}Patch`]: patchBodySchema(def, ref(`${p}PatchValues`)),
    ...reads,
  };
}

/** The module's record surface as route declarations (for the document only), with their operationIds. */
function moduleRoutes(m: ContractModule, ids: Map<RouteDecl, string>): RouteDecl[] {
  const p = pascalOfCode(m.code);
  const def = m.definition;
  const base = `/generador/m/${m.code}`;
  const record = `${base}/{id}`;
  const tag = def.name;
  const [read, write, sign] = (['read', 'write', 'sign'] as const).map((a) => modulePermission(m.code, a));
  const notFound = problem(`No such ${def.name} record in the selected company (another company's is reported the same way)`);
  const idParams = closedParams({ id: ID });
  const audited = { auditAccess: () => null };
  const out: [string, Omit<RouteDecl, 'tag' | 'auth' | 'handle'>][] = [
    [
      `list${p}`,
      {
        method: 'get',
        path: base,
        permission: read!,
        summary: `List ${def.name} records`,
        description: `Filters: ${[...(def.patientLinked ? ['patientId'] : []), ...(def.states ? ['state'] : []), 'archived', ...def.filterFields].join(', ')}. List items carry the list fields in values.`,
        query: listQuerySchema(def),
        responses: {
          200: { description: `A page of ${def.name} records`, schema: ref(`${p}Page`) },
          400: badCursor400,
          503: unavailable503,
        },
        ...audited,
      },
    ],
    [
      `get${p}`,
      {
        method: 'get',
        path: record,
        permission: read!,
        summary: `Read a ${def.name} record (now, or asOf / version)`,
        params: idParams,
        query: RecordReadQuerySchema,
        responses: { 200: ok('The record', ref(`${p}Record`), READ_HEADERS), 404: notFound },
        ...audited,
      },
    ],
    [
      `get${p}History`,
      {
        method: 'get',
        path: `${record}/historial`,
        permission: read!,
        summary: `The history of a ${def.name} record: who, when, why and what of every event`,
        params: idParams,
        query: PageQuery,
        responses: {
          200: { description: 'A page of the history, oldest first', schema: pageOf(RecordHistoryEntrySchema) },
          400: badCursor400,
          404: notFound,
          503: unavailable503,
        },
        ...audited,
      },
    ],
  ];
  if (m.status === 'published') {
    const transitions = def.states?.transitions ?? [];
    const signing = transitions.filter((t) => t.signs).map((t) => t.name);
    out.push(
      [
        `create${p}`,
        {
          method: 'post',
          path: base,
          permission: write!,
          idempotent: true,
          summary: `Record a ${def.name}`,
          body: ref(`${p}Create`),
          responses: { 201: createdOk('The new record', ref(`${p}Record`), 'URL of the record'), 409: conflict409 },
        },
      ],
      [
        `patch${p}`,
        {
          method: 'patch',
          path: record,
          permission: write!,
          summary: `Amend a ${def.name} record (If-Match required; a null clears an optional field)`,
          params: idParams,
          body: ref(`${p}Patch`),
          requestHeaders: { 'If-Match': ifMatchHeader(true) },
          responses: { 200: ok('The record', ref(`${p}Record`)), 404: notFound, 409: conflict409, 412: precondition412, 428: required428 },
        },
      ],
      [
        `archive${p}`,
        {
          method: 'post',
          path: `${record}/archivo`,
          permission: write!,
          summary: `Archive a ${def.name} record: read-only after, still listed with archived=true`,
          params: idParams,
          body: ArchiveBody,
          requestHeaders: { 'If-Match': ifMatchHeader(false) },
          responses: { 200: ok('The record', ref(`${p}Record`)), 404: notFound, 409: conflict409, 412: precondition412 },
        },
      ],
    );
    if (transitions.length > 0)
      out.push([
        `transition${p}`,
        {
          method: 'post',
          path: `${record}/transiciones/{transition}`,
          permission: write!,
          summary: `Move a ${def.name} record through a transition`,
          description:
            signing.length > 0 ? `Signing transitions (${signing.join(', ')}) need \`${sign}\` and a fresh step-up \`code\`.` : undefined,
          params: closedParams({ id: ID, transition: { type: 'string', enum: transitions.map((t) => t.name) } }),
          body: TransitionBody,
          requestHeaders: { 'If-Match': ifMatchHeader(false) },
          responses: { 200: ok('The record', ref(`${p}Record`)), 404: notFound, 409: conflict409, 412: precondition412 },
        },
      ]);
  }
  return out.map(([id, decl]) => {
    const routeDecl: RouteDecl = { ...decl, tag, auth: 'tenant', handle: contractOnly };
    ids.set(routeDecl, id);
    return routeDecl;
  });
}

export interface CompanyContractOptions extends Pick<OpenApiOptions, 'servers' | 'tokenRoute'> {
  /** The company's name, for the title. */
  companyName?: string;
}

/** The company's document: the record surface of each module given (published: all of it; retired: its reads). */
export function buildModuleOpenApi(modules: readonly ContractModule[], options: CompanyContractOptions = {}): Record<string, unknown> {
  const ids = new Map<RouteDecl, string>();
  const schemas: Record<string, JsonSchema> = {};
  const groups: GroupModule[] = [...modules]
    .sort((a, b) => a.code.localeCompare(b.code))
    .map((m) => {
      Object.assign(schemas, moduleSchemas(m));
      const status = m.status === 'retired' ? ' Retired: its records stay readable; writes answer 409.' : '';
      return {
        tag: m.definition.name,
        description: `${m.definition.description ?? m.definition.name} (module ${m.code}, version ${m.version.major}.${m.version.minor}).${status}`,
        permissions: [],
        routes: moduleRoutes(m, ids),
        projections: [],
      };
    });
  const title = `${options.companyName ?? 'The company'}: own record modules`;
  return buildOpenApiDocument(groups, {
    title,
    description:
      "The records of the company's own modules (Generador), one tag per module. Tokens, errors (RFC 9457 problems), " +
      'Idempotency-Key, If-Match, cursors, minPosition and the access audit work as in the service document (/openapi.json).',
    ...(options.servers ? { servers: options.servers } : {}),
    ...(options.tokenRoute ? { tokenRoute: options.tokenRoute } : {}),
    schemas,
    operationIds: ids,
  });
}
