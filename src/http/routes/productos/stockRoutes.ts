// /productos/{id}/...: the kardex movements (receipts, issues, transfers, adjustments, write-offs) and the stock reads
// (balances by warehouse and lot, FEFO order, the ledger as JSON or CSV, lots expiring within N days).
import Type, { type Static, type TSchema } from 'typebox';
import { MinPositionField } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { writeHeaders } from '../../recordHeaders.js';
import { route, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { patientIdsIn } from '../../routeAudit.js';
import type { CommandContext } from '../../../commands/handleCommand.js';
import type { MovementOutcome } from '../../../commands/productos/stockWrites.js';
import { adjustStock, receiveStock, writeOffStock } from '../../../commands/productos/stockWrites.js';
import { transferStock } from '../../../commands/productos/transferWrites.js';
import { issueStock } from '../../../commands/productos/issueWrites.js';
import { PRODUCTOS_PROJECTION } from '../../../projections/productos/productosProjection.js';
import { productModel, warehouseModel } from '../../../queries/productos/products.js';
import { CSV_FORMULA_NOTE } from '../../../queries/csv.js';
import { fefoOrder, kardexCsv, lotsExpiring, productBalances, productKardex } from '../../../queries/productos/stock.js';
import {
  commandCtx,
  givenBack409,
  csvReportResponses,
  ok,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
} from '../shared/recordSupport.js';
import { DateSchema, IdParams, IdSchema } from '../shared/fieldSchemas.js';
import {
  AdjustmentBody,
  BalancesView,
  ExpiringView,
  FefoView,
  IssueBody,
  KardexView,
  MovementView,
  READ,
  ReceiptBody,
  TAG,
  TransferBody,
  WRITE,
  WriteOffBody,
} from './schemas.js';
import { products } from './support.js';

type Run<B> = (ctx: RequestContext, cmd: CommandContext, productId: string, body: B) => Promise<MovementOutcome>;

function movementRoute<B extends TSchema>(path: string, summary: string, body: B, run: Run<Static<B>>, description: string): RouteDecl {
  return route({
    method: 'post',
    path: `/productos/{id}/${path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary,
    description: `${description} A retry with the same Idempotency-Key moves nothing twice. A warehouse not of this company: 422 naming it.`,
    params: IdParams,
    body,
    responses: {
      201: ok('The movement: its kardex lines with the balances they leave', MovementView, {
        'X-Event-Position': RECORD_HEADERS['X-Event-Position'],
      }),
      404: products.notFound404,
      409: givenBack409,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { reason } = input.body as { reason?: unknown };
        const cmd = commandCtx(ctx, typeof reason === 'string' ? reason : null);
        const { position, ...outcome } = await run(ctx, cmd, input.params.id, input.body as Static<B>);
        return { status: 201, body: outcome, headers: writeHeaders({ position }) };
      }),
  });
}

const WarehouseQuery = Type.Object({ warehouseId: Type.Optional(IdSchema), ...MinPositionField }, { additionalProperties: false });
const FefoQuery = Type.Object({ warehouseId: IdSchema, ...MinPositionField }, { additionalProperties: false });
const KardexQuery = Type.Object(
  {
    warehouseId: Type.Optional(IdSchema),
    from: Type.Optional(DateSchema),
    to: Type.Optional(DateSchema),
    format: Type.Optional(Type.Enum(['json', 'csv'])),
    ...MinPositionField,
  },
  { additionalProperties: false },
);
const ExpiringQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 0, maximum: 730, default: 30 })), ...MinPositionField },
  { additionalProperties: false },
);

const GET = { method: 'get' as const, tag: TAG, auth: 'tenant' as const, permission: READ };

export const stockRoutes: RouteDecl[] = [
  movementRoute(
    'ingresos',
    'Receive stock from a supplier (document, lot, expiry, quantity, unit cost)',
    ReceiptBody,
    (ctx, cmd, id, body) => receiveStock(ctx.services, cmd, id, body),
    'A lot-tracked product needs the lot, an expiry-tracked one its expiry (422 naming them); an expired lot is refused (422 expiry); ' +
      'a lot has one expiry in every warehouse of the company: another stated expiry is 409 lot-expiry-conflict naming expiry, none ' +
      'takes the recorded one. A product counted in units (vial, box, bag...) receives whole units (422 naming quantity).',
  ),
  movementRoute(
    'salidas',
    'Issue stock to a session, a patient, or as consumption',
    IssueBody,
    (ctx, cmd, id, body) => issueStock(ctx.services, cmd, id, body),
    'Never beyond the balance of the lot (or of the product when untracked): 409 insufficient-stock with `available`. An expired lot is ' +
      'refused with 409 lot-expired. Without a lot, FEFO takes the earliest-expiring lots that are not expired (fefo: true). A reusable ' +
      'dialyzer or bloodline issued to a patient becomes its serialized item (equipment: serial and the item data): the answer names ' +
      'dialyzerId or lineId. A prescription drug goes to a patient or a session (409 prescription-needs-patient naming patientId).',
  ),
  movementRoute(
    'transferencias',
    'Transfer stock between two warehouses of the company',
    TransferBody,
    (ctx, cmd, id, body) => transferStock(ctx.services, cmd, id, body),
    'Out of the source (refused as an issue would be), then into the destination with each lot’s own expiry; if the destination ' +
      'refuses (it holds the lot with another expiry: 409 lot-expiry-conflict), the source takes the units back. A transfer that ' +
      'stopped in between is completed by a process manager.',
  ),
  movementRoute(
    'ajustes',
    'Adjust stock after a count (+ found, - missing), with a reason',
    AdjustmentBody,
    (ctx, cmd, id, body) => adjustStock(ctx.services, cmd, id, body),
    'A negative adjustment never leaves a lot below zero (409 insufficient-stock); a lot-tracked product names the lot.',
  ),
  movementRoute(
    'bajas',
    'Write off stock: a loss or an expired lot',
    WriteOffBody,
    (ctx, cmd, id, body) => writeOffStock(ctx.services, cmd, id, body),
    'Expired lots may be written off (that is what it is for); kind expiry is only for an expired lot (409 lot-not-expired ' +
      'naming kind), anything else is a loss; never below zero.',
  ),
  route({
    ...GET,
    path: '/productos/{id}/saldos',
    legacyQuery: ['almacenId'],
    summary: 'Balance of the product by warehouse and lot (expired lots flagged)',
    params: IdParams,
    query: WarehouseQuery,
    responses: { 200: { description: 'The balances', schema: BalancesView }, 404: products.notFound404, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      await productModel.or404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: await productBalances(tenantCtx(ctx), input.params.id, input.query.warehouseId) };
    },
  }),
  route({
    ...GET,
    path: '/productos/{id}/fefo',
    legacyQuery: ['almacenId'],
    summary: 'Lots of the product in a warehouse in FEFO order: the order an issue without a lot takes them (expired lots left out)',
    params: IdParams,
    query: FefoQuery,
    responses: {
      200: { description: 'The lots, earliest expiry first', schema: FefoView },
      404: products.notFound404,
      503: unavailable503,
    },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      await productModel.or404(tenantCtx(ctx), input.params.id);
      await warehouseModel.or404(tenantCtx(ctx), input.query.warehouseId);
      return { status: 200, body: await fefoOrder(tenantCtx(ctx), input.params.id, input.query.warehouseId) };
    },
  }),
  route({
    ...GET,
    path: '/productos/{id}/kardex',
    legacyQuery: ['almacenId', 'desde', 'hasta', 'formato'],
    summary: 'The ledger of the product between two dates: every movement with the running balance after it (JSON or CSV)',
    description:
      'Oldest first; from and to are inclusive UTC dates of the movements. `format=csv` or `Accept: text/csv` answers text/csv ' +
      'with a header row (at, type, movementId, warehouseId, lot, expiry, quantity, lotBalanceAfter, balanceAfter, reason, reference, actor, ' +
      'costPerUnit, valueAfter, productCode, productName). Each line is valued at the weighted average cost of its warehouse: receipts ' +
      'at their unit cost, everything else at the average; valueAfter is the stock value of the warehouse after it. ' +
      CSV_FORMULA_NOTE,
    params: IdParams,
    query: KardexQuery,
    responses: csvReportResponses('The kardex', KardexView, products.notFound404),
    // An issue to a patient names them: the kardex of a drug is a read of patient data.
    auditAccess: (input) => ({ recordType: 'productKardex', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      const product = await productModel.or404(tenantCtx(ctx), input.params.id);
      const { format, minPosition: _m, ...query } = input.query;
      const items = await productKardex(tenantCtx(ctx), input.params.id, query);
      const csv = format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(input.headers.accept ?? ''));
      const named = { productCode: product.code, productName: product.name };
      const auditPatientIds = patientIdsIn(items); // the CSV names them inside its reference column
      if (csv) return { status: 200, body: await kardexCsv(items, named), contentType: 'text/csv; charset=utf-8', auditPatientIds };
      return { status: 200, body: { productId: input.params.id, ...named, unit: product.unit, items } };
    },
  }),
  route({
    ...GET,
    path: '/productos/lotes-por-vencer',
    legacyQuery: ['dias'],
    summary: 'Lots with stock that expire within N days of the company day (already expired ones included, flagged)',
    query: ExpiringQuery,
    responses: { 200: { description: 'The lots, earliest expiry first', schema: ExpiringView }, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      // Ajv's useDefaults filled days from the schema's default.
      return { status: 200, body: await lotsExpiring(tenantCtx(ctx), input.query.days as number) };
    },
  }),
];
