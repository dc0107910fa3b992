// /productos/{id}/...: the kardex movements (receipts, issues, transfers, adjustments, write-offs) and the stock reads
// (balances by warehouse and lot, FEFO order, the ledger as JSON or CSV, lots expiring within N days).
import { minPositionQueryProperty } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { writeHeaders } from '../../recordHeaders.js';
import { handTypedRoute, type JsonSchema, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { patientIdsIn } from '../../routeAudit.js';
import type { CommandContext } from '../../../commands/handleCommand.js';
import type { MovementOutcome } from '../../../commands/productos/stockWrites.js';
import { adjustStock, receiveStock, writeOffStock } from '../../../commands/productos/stockWrites.js';
import { transferStock } from '../../../commands/productos/transferWrites.js';
import { issueStock } from '../../../commands/productos/issueWrites.js';
import { PRODUCTOS_PROJECTION } from '../../../projections/productos/productosProjection.js';
import { productOr404, warehouseOr404 } from '../../../queries/productos/products.js';
import { CSV_FORMULA_NOTE } from '../../../queries/csv.js';
import { fefoOrder, kardexCsv, lotsExpiring, productBalances, productKardex, type KardexQuery } from '../../../queries/productos/stock.js';
import {
  commandCtx,
  conflict409,
  ok,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
} from '../shared/recordSupport.js';
import { DateSchema, IdSchema } from '../shared/fieldSchemas.js';
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
import { notFound404, Params, type IdParams } from './productRoutes.js';

type Body = Record<string, unknown>;
type Run = (ctx: RequestContext, cmd: CommandContext, productId: string, body: Body) => Promise<MovementOutcome>;

function movementRoute(path: string, summary: string, body: JsonSchema, run: Run, description: string): RouteDecl {
  return handTypedRoute<IdParams, Record<string, never>, Body>({
    method: 'post',
    path: `/productos/{id}/${path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary,
    description: `${description} A retry with the same Idempotency-Key moves nothing twice. A warehouse not of this company: 422 naming it.`,
    params: Params,
    body,
    responses: {
      201: ok('The movement: its kardex lines with the balances they leave', MovementView, {
        'X-Event-Position': RECORD_HEADERS['X-Event-Position'],
      }),
      404: notFound404,
      409: conflict409,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const reason = typeof input.body.reason === 'string' ? input.body.reason : null;
        const { position, ...outcome } = await run(ctx, commandCtx(ctx, reason), input.params.id, input.body);
        return { status: 201, body: outcome, headers: writeHeaders({ position }) };
      }),
  });
}

const GET = { method: 'get' as const, tag: TAG, auth: 'tenant' as const, permission: READ };

export const stockRoutes: RouteDecl[] = [
  movementRoute(
    'ingresos',
    'Receive stock from a supplier (document, lot, expiry, quantity, unit cost)',
    ReceiptBody,
    (ctx, cmd, id, body) => receiveStock(ctx.services, cmd, id, body as never),
    'A lot-tracked product needs the lot, an expiry-tracked one its expiry (422 naming them); an expired lot is refused (422 expiry); ' +
      'a lot has one expiry in every warehouse of the company: another stated expiry is 409 lot-expiry-conflict naming expiry, none ' +
      'takes the recorded one. A product counted in units (vial, box, bag...) receives whole units (422 naming quantity).',
  ),
  movementRoute(
    'salidas',
    'Issue stock to a session, a patient, or as consumption',
    IssueBody,
    (ctx, cmd, id, body) => issueStock(ctx.services, cmd, id, body as never),
    'Never beyond the balance of the lot (or of the product when untracked): 409 insufficient-stock with `available`. An expired lot is ' +
      'refused with 409 lot-expired. Without a lot, FEFO takes the earliest-expiring lots that are not expired (fefo: true). A reusable ' +
      'dialyzer or bloodline issued to a patient becomes its serialized item (equipment: serial and the item data): the answer names ' +
      'dialyzerId or lineId. A prescription drug goes to a patient or a session (409 prescription-needs-patient naming patientId).',
  ),
  movementRoute(
    'transferencias',
    'Transfer stock between two warehouses of the company',
    TransferBody,
    (ctx, cmd, id, body) => transferStock(ctx.services, cmd, id, body as never),
    'Out of the source (refused as an issue would be), then into the destination with each lot’s own expiry; if the destination ' +
      'refuses (it holds the lot with another expiry: 409 lot-expiry-conflict), the source takes the units back. A transfer that ' +
      'stopped in between is completed by a process manager.',
  ),
  movementRoute(
    'ajustes',
    'Adjust stock after a count (+ found, - missing), with a reason',
    AdjustmentBody,
    (ctx, cmd, id, body) => adjustStock(ctx.services, cmd, id, body as never),
    'A negative adjustment never leaves a lot below zero (409 insufficient-stock); a lot-tracked product names the lot.',
  ),
  movementRoute(
    'bajas',
    'Write off stock: a loss or an expired lot',
    WriteOffBody,
    (ctx, cmd, id, body) => writeOffStock(ctx.services, cmd, id, body as never),
    'Expired lots may be written off (that is what it is for); kind expiry is only for an expired lot (409 lot-not-expired ' +
      'naming kind), anything else is a loss; never below zero.',
  ),
  handTypedRoute<IdParams, { warehouseId?: string } & MinPositionQuery>({
    ...GET,
    path: '/productos/{id}/saldos',
    legacyQuery: ['almacenId'],
    summary: 'Balance of the product by warehouse and lot (expired lots flagged)',
    params: Params,
    query: { type: 'object', additionalProperties: false, properties: { warehouseId: IdSchema, ...minPositionQueryProperty } },
    responses: { 200: { description: 'The balances', schema: BalancesView }, 404: notFound404, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      await productOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: await productBalances(tenantCtx(ctx), input.params.id, input.query.warehouseId) };
    },
  }),
  handTypedRoute<IdParams, { warehouseId: string } & MinPositionQuery>({
    ...GET,
    path: '/productos/{id}/fefo',
    legacyQuery: ['almacenId'],
    summary: 'Lots of the product in a warehouse in FEFO order: the order an issue without a lot takes them (expired lots left out)',
    params: Params,
    query: {
      type: 'object',
      additionalProperties: false,
      required: ['warehouseId'],
      properties: { warehouseId: IdSchema, ...minPositionQueryProperty },
    },
    responses: { 200: { description: 'The lots, earliest expiry first', schema: FefoView }, 404: notFound404, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      await productOr404(tenantCtx(ctx), input.params.id);
      await warehouseOr404(tenantCtx(ctx), input.query.warehouseId);
      return { status: 200, body: await fefoOrder(tenantCtx(ctx), input.params.id, input.query.warehouseId) };
    },
  }),
  handTypedRoute<IdParams, KardexQuery & { format?: 'json' | 'csv' } & MinPositionQuery>({
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
    params: Params,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        warehouseId: IdSchema,
        from: DateSchema,
        to: DateSchema,
        format: { enum: ['json', 'csv'] },
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'The kardex (text/csv when asked)', schema: KardexView }, 404: notFound404, 503: unavailable503 },
    // An issue to a patient names them: the kardex of a drug is a read of patient data.
    auditAccess: (input) => ({ recordType: 'productKardex', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      const product = await productOr404(tenantCtx(ctx), input.params.id);
      const { format, minPosition: _m, ...query } = input.query;
      const items = await productKardex(tenantCtx(ctx), input.params.id, query);
      const csv = format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(input.headers.accept ?? ''));
      const named = { productCode: product.code, productName: product.name };
      const auditPatientIds = patientIdsIn(items); // the CSV names them inside its reference column
      if (csv) return { status: 200, body: await kardexCsv(items, named), contentType: 'text/csv; charset=utf-8', auditPatientIds };
      return { status: 200, body: { productId: input.params.id, ...named, unit: product.unit, items } };
    },
  }),
  handTypedRoute<Record<string, never>, { days: number } & MinPositionQuery>({
    ...GET,
    path: '/productos/lotes-por-vencer',
    legacyQuery: ['dias'],
    summary: 'Lots with stock that expire within N days of the company day (already expired ones included, flagged)',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { days: { type: 'integer', minimum: 0, maximum: 730, default: 30 }, ...minPositionQueryProperty },
    },
    responses: { 200: { description: 'The lots, earliest expiry first', schema: ExpiringView }, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      return { status: 200, body: await lotsExpiring(tenantCtx(ctx), input.query.days) };
    },
  }),
];
