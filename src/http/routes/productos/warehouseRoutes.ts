// /productos/almacenes: warehouses per location of the company (main, pharmacy, ward).
import Type from 'typebox';
import { writeHeaders } from '../../recordHeaders.js';
import { AsOfQuerySchema, asOfHeaders, pointOf } from '../../recordAsOf.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { createWarehouse } from '../../../commands/productos/productWrites.js';
import { warehouseView } from '../../../projections/productos/productDocs.js';
import { awaitWrite, listWarehouses, warehouseModel } from '../../../queries/productos/products.js';
import { commandCtx, conflict409, ok, READ_HEADERS, RECORD_HEADERS, tenantCtx, withFieldPointers } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { IdParams, IdSchema } from '../shared/fieldSchemas.js';
import { CreateWarehouseBody, READ, TAG, WarehouseView, WRITE } from './schemas.js';

/** The kit's list and 404; a warehouse's create and read answer without an ETag (it never changes). */
const warehouses = recordKit({
  tag: TAG,
  base: '/productos/almacenes',
  read: READ,
  write: WRITE,
  noun: 'warehouse',
  model: warehouseModel,
  view: warehouseView,
  viewSchema: WarehouseView,
});

export const warehouseRoutes: RouteDecl[] = [
  route({
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
        // A warehouse never changes: once projected it is the one just created (no ETag: nothing to update).
        await awaitWrite(scope, result.position);
        const doc = await warehouseModel.or404(scope, warehouseId);
        return {
          status: 201,
          body: warehouseView(doc),
          headers: writeHeaders({ position: result.position ?? BigInt(doc._position), location: `/productos/almacenes/${warehouseId}` }),
        };
      }),
  }),
  warehouses.list({
    summary: 'List warehouses by code, optionally of one location',
    legacyQuery: ['sedeId'],
    filters: { locationId: Type.Optional(IdSchema) },
    list: listWarehouses,
  }),
  route({
    method: 'get',
    path: '/productos/almacenes/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a warehouse',
    params: IdParams,
    query: AsOfQuerySchema,
    responses: { 200: ok('The warehouse', WarehouseView, READ_HEADERS), 404: warehouses.notFound404 },
    handle: async (input, ctx) => {
      const point = pointOf(input.query);
      if (!point) return { status: 200, body: warehouseView(await warehouseModel.or404(tenantCtx(ctx), input.params.id)) };
      // A warehouse never changes: its version is its creation's (0), the revision its ETag names.
      const at = await warehouseModel.at(tenantCtx(ctx), input.params.id, point);
      return { status: 200, body: warehouseView(at.doc), headers: await asOfHeaders(ctx, { ...at, doc: { revision: at.version } }) };
    },
  }),
];
