// /productos/almacenes: warehouses per location of the company (main, pharmacy, ward).
import { minPositionQueryProperty, pageOf, pageQueryProperties, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { writeHeaders } from '../../recordHeaders.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import type { WarehouseFields } from '../../../commands/productos/productEvents.js';
import { createWarehouse } from '../../../commands/productos/productWrites.js';
import { PRODUCTOS_PROJECTION } from '../../../projections/productos/productosProjection.js';
import { warehouseView } from '../../../projections/productos/productDocs.js';
import { awaitWrite, listWarehouses, warehouseOr404 } from '../../../queries/productos/products.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
} from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { CreateWarehouseBody, READ, TAG, WarehouseView, WRITE } from './schemas.js';
import { Params, type IdParams } from './productRoutes.js';

const warehouse404 = problem("No such warehouse in the selected company (another company's warehouse is reported the same way)");

export const warehouseRoutes: RouteDecl[] = [
  route<NoInput, NoInput, WarehouseFields>({
    method: 'post',
    path: '/productos/almacenes',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Create a warehouse (main, pharmacy, ward) at a location of the company',
    description: 'The location must be one of the company (422 naming locationId).',
    body: CreateWarehouseBody,
    responses: {
      201: ok('The new warehouse', WarehouseView, { 'X-Event-Position': RECORD_HEADERS['X-Event-Position'], Location: 'URL' }),
      409: conflict409,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const scope = tenantCtx(ctx);
        const { warehouseId, result } = await createWarehouse(ctx.services, commandCtx(ctx), input.body);
        await awaitWrite(scope, result.position);
        const doc = await warehouseOr404(scope, warehouseId);
        return {
          status: 201,
          body: warehouseView(doc),
          headers: writeHeaders({ position: result.position ?? BigInt(doc._position), location: `/productos/almacenes/${warehouseId}` }),
        };
      }),
  }),
  route<NoInput, { locationId?: string; limit: number; cursor?: string } & MinPositionQuery>({
    method: 'get',
    path: '/productos/almacenes',
    legacyQuery: ['sedeId'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List warehouses by code, optionally of one location',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { locationId: IdSchema, ...pageQueryProperties, ...minPositionQueryProperty },
    },
    responses: { 200: { description: 'A page of warehouses', schema: pageOf(WarehouseView) }, 400: badCursor400, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      return { status: 200, body: await listWarehouses(tenantCtx(ctx), input.query) };
    },
  }),
  route<IdParams>({
    method: 'get',
    path: '/productos/almacenes/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a warehouse',
    params: Params,
    responses: { 200: { description: 'The warehouse', schema: WarehouseView }, 404: warehouse404 },
    handle: async (input, ctx) => ({ status: 200, body: warehouseView(await warehouseOr404(tenantCtx(ctx), input.params.id)) }),
  }),
];
