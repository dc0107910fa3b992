// /productos/kits: the supply kit a session consumes when it ends (issue 11 item 3): the company default and each
// patient's own (which, when set, replaces the default for that patient). A replacement names the ETag it read.
import { recordAnswer, type RecordAnswerModel, type WriteOutcome } from '../../recordAnswer.js';
import { minPositionQueryProperty, pageQueryProperties, problem, pageOf } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision, preconditionRequired, writeHeaders } from '../../recordHeaders.js';
import { recordHistoryAnswer, RecordHistoryEntrySchema } from '../../recordHistoryAnswer.js';
import { route, type HttpResult, type JsonSchema, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { KitFields } from '../../../commands/productos/kitEvents.js';
import { SUPPLY_KIT_CATEGORY } from '../../../commands/productos/kitEvents.js';
import { removeSupplyKit, setSupplyKit, supplyKitOf } from '../../../commands/productos/kitWrites.js';
import { KITS_PROJECTION, type SupplyKitDoc } from '../../../projections/productos/kitProjection.js';
import { COMPANY_DEFAULT_KIT_ID, kitAfterWrite, kitEverSet, kitOr404, kitView } from '../../../queries/productos/kits.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  precondition412,
  RECORD_HEADERS,
  required428,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
  type PageQuery,
} from '../shared/recordSupport.js';
import { DateTimeSchema, IdSchema, ReasonSchema } from '../shared/fieldSchemas.js';
import { obj, READ, TAG, WRITE } from './schemas.js';

type PatientParams = { patientId: string };
const PatientParamsSchema = obj({ patientId: IdSchema });
const Quantity: JsonSchema = { type: 'number', exclusiveMinimum: 0, maximum: 10_000, description: 'Units consumed per session' };

const KitBody = obj(
  {
    warehouseId: { ...IdSchema, description: 'The warehouse the session consumes from (medications given with a product too)' },
    items: {
      type: 'array',
      maxItems: 50,
      items: obj({ productId: IdSchema, quantity: Quantity }),
      description: 'One line per product, each an active product of the company; an empty list means nothing by default',
    },
    reason: ReasonSchema,
  },
  ['warehouseId', 'items'],
);

const KitView = obj({
  id: { type: 'string', description: 'The patient id, or company-default' },
  patientId: { anyOf: [IdSchema, { type: 'null' }], description: 'null for the company default' },
  warehouseId: IdSchema,
  items: {
    type: 'array',
    items: obj(
      { productId: IdSchema, quantity: { type: 'number' }, code: { type: 'string' }, name: { type: 'string' }, unit: { type: 'string' } },
      ['productId', 'quantity'],
    ),
  },
  revision: { type: 'integer', minimum: 0 },
  createdAt: DateTimeSchema,
  createdBy: { type: 'string' },
  updatedAt: DateTimeSchema,
  updatedBy: { type: 'string' },
});

const kit404 = problem(
  "No supply kit is set here, or no such patient in the selected company (another company's is reported the same way)",
);
const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };
const pageQuery = { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, ...minPositionQueryProperty } };

type Where = { path: string; params?: JsonSchema; kitIdOf: (params: Record<string, string>) => string; what: string };
const DEFAULT: Where = { path: '/productos/kits/predeterminado', kitIdOf: () => COMPANY_DEFAULT_KIT_ID, what: "The company's default kit" };
const PATIENT: Where = {
  path: '/productos/kits/pacientes/{patientId}',
  params: PatientParamsSchema,
  kitIdOf: (params) => params.patientId!,
  what: "A patient's own kit",
};

/** The kit after a write (see recordAnswer); a set kit is always there. */
const kitRecord: RecordAnswerModel<SupplyKitDoc> = {
  afterWrite: async (scope, kitId, result) => {
    const doc = await kitAfterWrite(scope, kitId, result);
    if (!doc) throw new Error('the kit just written is absent');
    return doc;
  },
  view: (doc, scope) => kitView(scope, doc),
};
const kitAnswer = (ctx: RequestContext, kitId: string, result: WriteOutcome): Promise<HttpResult> =>
  recordAnswer(ctx, kitRecord, kitId, result, 200);

function kitRoutesOf(where: Where): RouteDecl[] {
  const params = where.params ? { params: where.params } : {};
  const routes: RouteDecl[] = [
    route<Record<string, string>, MinPositionQuery>({
      method: 'get',
      path: where.path,
      tag: TAG,
      auth: 'tenant',
      permission: READ,
      summary: `${where.what}: the warehouse and the products a session consumes when it ends`,
      ...params,
      query: minPositionOnly,
      responses: { 200: ok('The kit', KitView, { ETag: RECORD_HEADERS.ETag }), 404: kit404, 503: unavailable503 },
      auditAccess: (input) => ({ recordType: 'supplyKit', recordId: where.kitIdOf(input.params) }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [KITS_PROJECTION]);
        const doc = await kitOr404(tenantCtx(ctx), where.kitIdOf(input.params));
        return { status: 200, body: await kitView(tenantCtx(ctx), doc), headers: { ETag: etagOf(doc.revision) } };
      },
    }),
    route<Record<string, string>, NoInput, KitFields & { reason?: string }>({
      method: 'put',
      path: where.path,
      tag: TAG,
      auth: 'tenant',
      permission: WRITE,
      summary: `Set or replace ${where.what.charAt(0).toLowerCase()}${where.what.slice(1)}`,
      description:
        'The whole kit at once. Replacing a kit needs If-Match with its ETag (428 without it, 412 when it changed since); setting one ' +
        'where none is needs none. The warehouse and every product must be of the company, the products active, each listed once, ' +
        'quantities above 0 (422 naming the field). The same kit again records nothing.',
      ...params,
      body: KitBody,
      requestHeaders: { 'If-Match': ifMatchHeader(false) },
      responses: {
        200: ok('The kit as set', KitView),
        404: kit404,
        409: conflict409,
        412: precondition412,
        428: required428,
      },
      handle: (input, ctx) =>
        withFieldPointers(async () => {
          const kitId = where.kitIdOf(input.params);
          const ifMatch = ifMatchRevision(input.headers['if-match']);
          const { reason, ...fields } = input.body;
          const command = commandCtx(ctx, reason);
          if (ifMatch === null && (await supplyKitOf(ctx.services, command.tenantId, kitId)).state.kit) throw preconditionRequired();
          const result = await setSupplyKit(ctx.services, command, kitId, fields, ifMatch);
          return kitAnswer(ctx, kitId, result);
        }),
    }),
    route<Record<string, string>, PageQuery>({
      method: 'get',
      path: `${where.path}/historial`,
      tag: TAG,
      auth: 'tenant',
      permission: READ,
      summary: `${where.what}: its history (every kit set, and removals), who, when, why, oldest first`,
      description: 'Who (actor), when (occurredAt), why (reason) and what (type and data) of every event, oldest first, with its revision.',
      ...params,
      query: pageQuery,
      responses: {
        200: { description: 'A page of the history, oldest first', schema: pageOf(RecordHistoryEntrySchema) },
        400: badCursor400,
        404: kit404,
        503: unavailable503,
      },
      auditAccess: (input) => ({ recordType: 'supplyKitHistory', recordId: where.kitIdOf(input.params) }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [KITS_PROJECTION]);
        const kitId = where.kitIdOf(input.params);
        await kitEverSet(tenantCtx(ctx), kitId);
        return recordHistoryAnswer(tenantCtx(ctx), SUPPLY_KIT_CATEGORY, kitId, input.query);
      },
    }),
  ];
  return routes;
}

const removePatientKit = route<PatientParams, NoInput, { reason: string }>({
  method: 'delete',
  path: PATIENT.path,
  tag: TAG,
  auth: 'tenant',
  permission: WRITE,
  summary: "Remove a patient's own kit: their sessions consume the company default again",
  description: 'If-Match optional (412 when the kit changed since).',
  params: PatientParamsSchema,
  requestHeaders: { 'If-Match': ifMatchHeader(false) },
  responses: {
    204: { description: 'Removed', headers: { 'X-Event-Position': RECORD_HEADERS['X-Event-Position'] } },
    404: kit404,
    412: precondition412,
  },
  handle: async (input, ctx) => {
    const ifMatch = ifMatchRevision(input.headers['if-match']);
    const result = await removeSupplyKit(ctx.services, commandCtx(ctx), input.params.patientId, ifMatch);
    return { status: 204, headers: writeHeaders({ position: result.position }) };
  },
});

export const kitRoutes: RouteDecl[] = [...kitRoutesOf(DEFAULT), ...kitRoutesOf(PATIENT), removePatientKit];
