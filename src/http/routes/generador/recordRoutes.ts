// /generador/m/{code}: the records of a company's published module, served like a built-in group's (list with the
// query vocabulary, read with asOf, create with Idempotency-Key, patch with If-Match, transitions, archive, history).
import Type from 'typebox';
import {
  amendModuleRecord,
  archiveModuleRecord,
  createModuleRecord,
  moduleRecordIdFor,
  transitionModuleRecord,
} from '../../../commands/generador/record/moduleRecordWrites.js';
import { DomainError } from '../../../commands/decider.js';
import { confirmStepUp } from '../../../commands/platform/stepUpWrites.js';
import { modulePermission } from '../../../commands/generador/shared/definitionTypes.js';
import type { ModuleDoc } from '../../../projections/generador/moduleDoc.js';
import {
  preparedModuleRecordList,
  moduleRecordModel,
  moduleRecordView,
  recordOfModule,
  recordOfModuleAt,
  type ModuleRecordListQuery,
} from '../../../queries/generador/moduleRecords.js';
import type { WriteOutcome } from '../../../queries/recordModel.js';
import { forbidden, ProblemError } from '../../../problems.js';
import { MinPositionField, pageOf, PageQueryFields, problem } from '../../commonSchemas.js';
import { recordAnswer } from '../../recordAnswer.js';
import { PreparedJson } from '../../preparedJson.js';
import { sealPageCursor } from '../../pageCursor.js';
import type { Page } from '../../../stores/readStore.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { recordHistoryAnswer, RecordHistoryEntrySchema } from '../../recordHistoryAnswer.js';
import { asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { route, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  createdOk,
  IF_MATCH_PROBLEMS,
  ok,
  precondition412,
  READ_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
} from '../shared/recordSupport.js';
import { moduleValidators } from './compiledModules.js';
import { mayOnModule } from '../../../commands/generador/shared/modulePermissions.js';
import {
  ArchiveBody,
  CreateRecordBody,
  ListQuery,
  ModuleParams,
  OWN_QUERY,
  PatchRecordBody,
  RecordParams,
  RecordView,
  servedModuleFor,
  TransitionBody,
  TransitionParams,
} from './recordAccess.js';
import { TAG } from './names.js';

const BASE = '/generador/m/{code}';
const RECORD = `${BASE}/{id}`;
const PERMISSIONS = 'Needs `mod.<code>:<action>` (the 403 names it); a draft, unknown or foreign module: 404.';
const notFound404 = problem("No such module or record in the selected company (another company's is reported the same way)");
const projections = [moduleRecordModel.projection];

const validatorsOf = (m: ModuleDoc) => moduleValidators({ tenantId: m.tenantId, code: m.id, version: m.version, definition: m.definition });

/** The answer of a write: the record after it (read-your-writes), ETag, X-Event-Position, Location on a 201. */
const answer = (ctx: RequestContext, module: ModuleDoc, id: string, result: WriteOutcome, status = 200): Promise<HttpResult> =>
  recordAnswer(
    ctx,
    {
      latest: moduleRecordModel.latest,
      view: (doc) => moduleRecordView(doc, module),
      location: (recordId) => `/generador/m/${module.id}/${recordId}`,
    },
    id,
    result,
    status,
  );

const list = route({
  method: 'get',
  path: BASE,
  tag: TAG,
  auth: 'tenant',
  summary: "List a module's records (filters, sort, cursor)",
  description: `Other names: the module's filter fields. ${PERMISSIONS}`,
  params: ModuleParams,
  query: ListQuery,
  responses: {
    200: { description: 'A page of records (list fields in values)', schema: pageOf(RecordView) },
    400: badCursor400,
    404: notFound404,
    503: unavailable503,
  },
  // The module listed (the route template is every module's), the patient filtered on named even by an empty page.
  auditAccess: (input) => ({
    recordType: 'moduleRecordList',
    recordId: input.params.code,
    ...(input.query.patientId ? { patientIds: [input.query.patientId] } : {}),
  }),
  handle: async (input, ctx) => {
    const module = await servedModuleFor(ctx, input.params.code, 'read');
    const q = validatorsOf(module).query(input.query);
    await awaitMinPosition(ctx, q.minPosition, projections);
    const filters = Object.fromEntries(Object.entries(q).filter(([name]) => !OWN_QUERY.has(name)));
    const query = { ...q, filters } as unknown as ModuleRecordListQuery;
    // Serialized once per change of the company's records (or of the module), after the wait: never older than the write.
    const prepare = (page: Page<Record<string, unknown>>) => PreparedJson.of({ ...page, nextCursor: sealPageCursor(ctx, page.nextCursor) });
    return { status: 200, body: await preparedModuleRecordList(tenantCtx(ctx), module, query, prepare) };
  },
});

const create = route({
  method: 'post',
  path: BASE,
  tag: TAG,
  auth: 'tenant',
  idempotent: true,
  summary: 'Create a record of a module',
  description: `Schemas: /generador/openapi.json. ${PERMISSIONS}`,
  params: ModuleParams,
  body: CreateRecordBody,
  responses: { 201: createdOk('The new record', RecordView, 'URL of the record'), 404: notFound404, 409: conflict409 },
  handle: (input, ctx) =>
    withFieldPointers(async () => {
      const module = await servedModuleFor(ctx, input.params.code, 'write', true);
      const body = validatorsOf(module).create(input.body);
      const recordId = moduleRecordIdFor(ctx.idempotencyKey);
      const created = await createModuleRecord({ events: ctx.services.events }, commandCtx(ctx, body.reason), {
        module: module.id,
        recordId,
        patientId: body.patientId ?? null,
        values: body.values,
      });
      return answer(ctx, module, recordId, created.result, 201);
    }),
});

const read = route({
  method: 'get',
  path: RECORD,
  tag: TAG,
  auth: 'tenant',
  summary: 'Read a record (now, or asOf / version)',
  description: PERMISSIONS,
  params: RecordParams,
  query: RecordReadQuerySchema,
  responses: { 200: ok('The record', RecordView, READ_HEADERS), 404: notFound404, 503: unavailable503 },
  auditAccess: (input) => ({ recordType: 'moduleRecord', recordId: input.params.id }),
  handle: async (input, ctx) => {
    const { code, id } = input.params;
    const module = await servedModuleFor(ctx, code, 'read');
    const scope = tenantCtx(ctx);
    const point = pointOf(input.query);
    if (point) {
      const at = await recordOfModuleAt(scope, code, id, point);
      return { status: 200, body: moduleRecordView(at.doc, module), headers: await asOfHeaders(ctx, at) };
    }
    await awaitMinPosition(ctx, input.query.minPosition, projections);
    const doc = await recordOfModule(scope, code, id);
    return { status: 200, body: moduleRecordView(doc, module), headers: { ETag: etagOf(doc.revision) } };
  },
});

const patch = route({
  method: 'patch',
  path: RECORD,
  tag: TAG,
  auth: 'tenant',
  summary: 'Amend a record (If-Match required; a null clears an optional field)',
  description: PERMISSIONS,
  params: RecordParams,
  body: PatchRecordBody,
  requestHeaders: { 'If-Match': ifMatchHeader(true) },
  responses: { 200: ok('The amended record', RecordView), 404: notFound404, ...IF_MATCH_PROBLEMS },
  handle: (input, ctx) =>
    withFieldPointers(async () => {
      const { code, id } = input.params;
      const module = await servedModuleFor(ctx, code, 'write', true);
      const ifMatch = ifMatchRevision(input.headers['if-match'], { required: true });
      const body = validatorsOf(module).patch(input.body);
      const result = await amendModuleRecord({ events: ctx.services.events }, commandCtx(ctx, body.reason), code, id, body.values, ifMatch);
      return answer(ctx, module, id, result);
    }),
});

/** A signing transition: `mod.<code>:sign`, a person (never an API client) and a fresh step-up code, spent last. */
function signerCheck(ctx: RequestContext, code: string, stepUp: string | undefined): () => Promise<void> {
  const scope = tenantCtx(ctx);
  if (!mayOnModule(scope.auth.permissions, code, 'sign')) {
    throw forbidden(modulePermission(code, 'sign'));
  }
  const command = commandCtx(ctx);
  if (command.actor.startsWith('client:')) {
    throw new DomainError('people-only', 'a signing transition is made by a person, never by an API client', 403);
  }
  if (stepUp === undefined) {
    throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'A signing transition needs a step-up code', {}, [
      { pointer: '/body/code', message: 'a fresh code of your authenticator is required to sign' },
    ]);
  }
  return () => confirmStepUp(ctx.services, command.actor, stepUp, command);
}

const transition = route({
  method: 'post',
  path: `${RECORD}/transiciones/{transition}`,
  tag: TAG,
  auth: 'tenant',
  summary: "Move a record through one of its module's transitions",
  description: `Signing: also \`mod.<code>:sign\` and a step-up \`code\`. ${PERMISSIONS}`,
  params: TransitionParams,
  body: TransitionBody,
  requestHeaders: { 'If-Match': ifMatchHeader(false) },
  responses: { 200: ok('The record', RecordView), 404: notFound404, 409: conflict409, 412: precondition412 },
  handle: (input, ctx) =>
    withFieldPointers(async () => {
      const { code, id, transition: name } = input.params;
      const module = await servedModuleFor(ctx, code, 'write', true);
      const ifMatch = ifMatchRevision(input.headers['if-match']);
      const signs = module.definition.states?.transitions.find((t) => t.name === name)?.signs === true;
      const signed = signs ? signerCheck(ctx, code, input.body.code) : false;
      const deps = { events: ctx.services.events };
      const result = await transitionModuleRecord(deps, commandCtx(ctx, input.body.reason), code, id, name, signed, ifMatch);
      return answer(ctx, module, id, result);
    }),
});

const archive = route({
  method: 'post',
  path: `${RECORD}/archivo`,
  tag: TAG,
  auth: 'tenant',
  summary: 'Archive a record: read-only after, still listed with archived=true',
  description: PERMISSIONS,
  params: RecordParams,
  body: ArchiveBody,
  requestHeaders: { 'If-Match': ifMatchHeader(false) },
  responses: { 200: ok('The record', RecordView), 404: notFound404, 409: conflict409, 412: precondition412 },
  handle: (input, ctx) =>
    withFieldPointers(async () => {
      const { code, id } = input.params;
      const module = await servedModuleFor(ctx, code, 'write', true);
      const ifMatch = ifMatchRevision(input.headers['if-match']);
      const result = await archiveModuleRecord({ events: ctx.services.events }, commandCtx(ctx, input.body.reason), code, id, ifMatch);
      return answer(ctx, module, id, result);
    }),
});

const history = route({
  method: 'get',
  path: `${RECORD}/historial`,
  tag: TAG,
  auth: 'tenant',
  summary: "A record's history: who, when, why and what of every event, oldest first",
  description: PERMISSIONS,
  params: RecordParams,
  query: Type.Object({ ...PageQueryFields, ...MinPositionField }, { additionalProperties: false }),
  responses: {
    200: { description: 'A page of the history, oldest first', schema: pageOf(RecordHistoryEntrySchema) },
    400: badCursor400,
    404: notFound404,
    503: unavailable503,
  },
  auditAccess: (input) => ({ recordType: 'moduleRecord', recordId: input.params.id }),
  handle: async (input, ctx) => {
    const { code, id } = input.params;
    await servedModuleFor(ctx, code, 'read');
    const scope = tenantCtx(ctx);
    await awaitMinPosition(ctx, input.query.minPosition, projections);
    await recordOfModule(scope, code, id);
    return recordHistoryAnswer(scope, moduleRecordModel.category, id, input.query, moduleRecordModel.fold);
  },
});

export const recordRoutes: RouteDecl[] = [list, create, read, patch, transition, archive, history];
