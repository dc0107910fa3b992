// /productos/kits: the supply kit a session consumes when it ends (issue 11 item 3): the company default and each
// patient's own (which, when set, replaces the default for that patient). A replacement names the ETag it read.
import Type from 'typebox';
import { recordAnswer, type RecordAnswerModel } from '../../recordAnswer.js';
import { MinPositionField, pageOf, PageQueryFields, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision, preconditionRequired, writeHeaders } from '../../recordHeaders.js';
import { asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { recordHistoryAnswer, RecordHistoryEntrySchema } from '../../recordHistoryAnswer.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { removeSupplyKit, setSupplyKit, supplyKitOf } from '../../../commands/productos/kitWrites.js';
import type { SupplyKitDoc } from '../../../projections/productos/kitProjection.js';
import { COMPANY_DEFAULT_KIT_ID, kitModel, kitView } from '../../../queries/productos/kits.js';
import {
  badCursor400,
  commandCtx,
  IF_MATCH_PROBLEMS,
  ok,
  precondition412,
  READ_HEADERS,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
} from '../shared/recordSupport.js';
import { closed, DateTimeSchema, IdSchema, nullable, ReasonSchema } from '../shared/fieldSchemas.js';
import { READ, TAG, WRITE } from './schemas.js';

const PatientParams = closed({ patientId: IdSchema });
const Quantity = Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'Units consumed per session' });

const KitBody = closed({
  warehouseId: { ...IdSchema, description: 'The warehouse the session consumes from (medications given with a product too)' },
  items: Type.Array(closed({ productId: IdSchema, quantity: Quantity }), {
    maxItems: 50,
    description: 'One line per product, each an active product of the company; an empty list means nothing by default',
  }),
  reason: Type.Optional(ReasonSchema),
});

const KitView = closed({
  id: Type.String({ description: 'The patient id, or company-default' }),
  patientId: { ...nullable(IdSchema), description: 'null for the company default' },
  warehouseId: IdSchema,
  items: Type.Array(
    closed({
      productId: IdSchema,
      quantity: Type.Number(),
      code: Type.Optional(Type.String()),
      name: Type.Optional(Type.String()),
      unit: Type.Optional(Type.String()),
    }),
  ),
  revision: Type.Integer({ minimum: 0 }),
  createdAt: DateTimeSchema,
  createdBy: Type.String(),
  updatedAt: DateTimeSchema,
  updatedBy: Type.String(),
});

const kit404 = problem(
  "No supply kit is set here, or no such patient in the selected company (another company's is reported the same way)",
);
const PageQuery = Type.Object({ ...PageQueryFields, ...MinPositionField }, { additionalProperties: false });

type Where = { path: string; params?: typeof PatientParams; kitIdOf: (params: { patientId?: string }) => string; what: string };
const DEFAULT: Where = { path: '/productos/kits/predeterminado', kitIdOf: () => COMPANY_DEFAULT_KIT_ID, what: "The company's default kit" };
const PATIENT: Where = {
  path: '/productos/kits/pacientes/{patientId}',
  params: PatientParams,
  kitIdOf: (params) => params.patientId ?? '',
  what: "A patient's own kit",
};

/** The kit after a write (see recordAnswer); a set kit is always there. */
const kitRecord: RecordAnswerModel<SupplyKitDoc> = { latest: kitModel.latest, view: (doc, scope) => kitView(scope, doc) };

function kitRoutesOf(where: Where): RouteDecl[] {
  const routes: RouteDecl[] = [
    route({
      method: 'get',
      path: where.path,
      tag: TAG,
      auth: 'tenant',
      permission: READ,
      summary: `${where.what}: the warehouse and the products a session consumes when it ends`,
      params: where.params,
      query: RecordReadQuerySchema,
      responses: { 200: ok('The kit', KitView, READ_HEADERS), 404: kit404, 503: unavailable503 },
      auditAccess: (input) => ({ recordType: 'supplyKit', recordId: where.kitIdOf(input.params) }),
      handle: async (input, ctx) => {
        const point = pointOf(input.query);
        if (point) {
          // A removed kit stays readable as it was.
          const at = await kitModel.at(tenantCtx(ctx), where.kitIdOf(input.params), point);
          return { status: 200, body: await kitView(tenantCtx(ctx), at.doc), headers: await asOfHeaders(ctx, at) };
        }
        await awaitMinPosition(ctx, input.query.minPosition, [kitModel.projection]);
        const doc = await kitModel.or404(tenantCtx(ctx), where.kitIdOf(input.params));
        return { status: 200, body: await kitView(tenantCtx(ctx), doc), headers: { ETag: etagOf(doc.revision) } };
      },
    }),
    route({
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
      params: where.params,
      body: KitBody,
      requestHeaders: { 'If-Match': ifMatchHeader(false) },
      responses: { 200: ok('The kit as set', KitView), 404: kit404, ...IF_MATCH_PROBLEMS },
      handle: (input, ctx) =>
        withFieldPointers(async () => {
          const kitId = where.kitIdOf(input.params);
          const ifMatch = ifMatchRevision(input.headers['if-match']);
          const { reason, ...fields } = input.body;
          const command = commandCtx(ctx, reason);
          if (ifMatch === null && (await supplyKitOf(ctx.services, command.tenantId, kitId)).state.kit) throw preconditionRequired();
          const result = await setSupplyKit(ctx.services, command, kitId, fields, ifMatch);
          return recordAnswer(ctx, kitRecord, kitId, result, 200);
        }),
    }),
    route({
      method: 'get',
      path: `${where.path}/historial`,
      tag: TAG,
      auth: 'tenant',
      permission: READ,
      summary: `${where.what}: its history (every kit set, and removals), who, when, why, oldest first`,
      description: 'Who (actor), when (occurredAt), why (reason) and what (type and data) of every event, oldest first, with its revision.',
      params: where.params,
      query: PageQuery,
      responses: {
        200: { description: 'A page of the history, oldest first', schema: pageOf(RecordHistoryEntrySchema) },
        400: badCursor400,
        404: kit404,
        503: unavailable503,
      },
      auditAccess: (input) => ({ recordType: 'supplyKitHistory', recordId: where.kitIdOf(input.params) }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [kitModel.projection]);
        const kitId = where.kitIdOf(input.params);
        // A removed kit keeps its history: a kit ever set is readable.
        await kitModel.mustExist(tenantCtx(ctx), kitId);
        return recordHistoryAnswer(tenantCtx(ctx), kitModel.category, kitId, input.query, kitModel.fold);
      },
    }),
  ];
  return routes;
}

const removePatientKit = route({
  method: 'delete',
  path: PATIENT.path,
  tag: TAG,
  auth: 'tenant',
  permission: WRITE,
  summary: "Remove a patient's own kit: their sessions consume the company default again",
  description: 'If-Match optional (412 when the kit changed since).',
  params: PatientParams,
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
