// /productos: register, list (category, below minimum), read, correct (If-Match), deactivate, history.
import { recordAnswer } from '../../recordAnswer.js';
import { minPositionQueryProperty, pageOf, pageQueryProperties, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { route, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import { PRODUCT_CATEGORIES, type ProductFields, type ProductPatch, PRODUCT_CATEGORY } from '../../../commands/productos/productEvents.js';
import { correctProduct, createProduct, deactivateProduct } from '../../../commands/productos/productWrites.js';
import { PRODUCTOS_PROJECTION } from '../../../projections/productos/productosProjection.js';
import { productView } from '../../../projections/productos/productDocs.js';
import { listProducts, productAfterWrite, productOr404, type ProductListQuery } from '../../../queries/productos/products.js';
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
} from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { CorrectProductBody, CreateProductBody, ProductView, READ, ReasonBody, TAG, WRITE } from './schemas.js';

export type IdParams = { id: string };
export const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
export const notFound404 = problem("No such product in the selected company (another company's product is reported the same way)");
const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };

const productRecord = { afterWrite: productAfterWrite, view: productView, location: (id: string) => `/productos/${id}` };
const productAnswer = (ctx: RequestContext, id: string, result: CommandResult<unknown>, status = 200): Promise<HttpResult> =>
  recordAnswer(ctx, productRecord, id, result, status);

export const productRoutes: RouteDecl[] = [
  route<NoInput, NoInput, ProductFields>({
    method: 'post',
    path: '/productos',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Register a product (supply, drug, dialyzer, line...)',
    description: 'Code and barcode are each unique within the company (trimmed, ignoring case): 409 duplicate-code / duplicate-barcode.',
    body: CreateProductBody,
    responses: { 201: ok('The new product', ProductView, { ...RECORD_HEADERS, Location: 'URL of the product' }), 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { productId, result } = await createProduct(ctx.services.events, commandCtx(ctx), input.body);
        return productAnswer(ctx, productId, result, 201);
      }),
  }),
  route<NoInput, ProductListQuery & MinPositionQuery>({
    method: 'get',
    path: '/productos',
    legacyQuery: ['categoria', 'bajoMinimo', 'activo'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List products by code: by category, below their minimum stock, active or not',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        category: { enum: [...PRODUCT_CATEGORIES] },
        belowMinimum: { type: 'boolean' },
        active: { type: 'boolean' },
        ...pageQueryProperties,
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'A page of products', schema: pageOf(ProductView) }, 400: badCursor400, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      return { status: 200, body: await listProducts(tenantCtx(ctx), input.query) };
    },
  }),
  route<NoInput, { limit: number; cursor?: string } & MinPositionQuery>({
    method: 'get',
    path: '/productos/bajo-minimo',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Active products whose stock in every warehouse together is below their minimum',
    query: { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, ...minPositionQueryProperty } },
    responses: { 200: { description: 'A page of products', schema: pageOf(ProductView) }, 400: badCursor400, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      return { status: 200, body: await listProducts(tenantCtx(ctx), { ...input.query, belowMinimum: true, active: true }) };
    },
  }),
  route<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/productos/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a product with its total stock',
    params: Params,
    query: minPositionOnly,
    responses: { 200: ok('The product', ProductView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PRODUCTOS_PROJECTION]);
      const doc = await productOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: productView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  route<IdParams, NoInput, ProductPatch & { reason: string }>({
    method: 'patch',
    path: '/productos/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: "Correct a product's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when stale). A new code or barcode must be unique (409).',
    params: Params,
    body: CorrectProductBody,
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: {
      200: ok('The corrected product', ProductView),
      404: notFound404,
      409: conflict409,
      412: precondition412,
      428: required428,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match'], { required: true });
        const { reason, ...patch } = input.body;
        const result = await correctProduct(ctx.services.events, commandCtx(ctx, reason), input.params.id, patch, ifMatch);
        return productAnswer(ctx, input.params.id, result);
      }),
  }),
  route<IdParams, NoInput, { reason: string }>({
    method: 'post',
    path: '/productos/{id}/desactivacion',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: 'Deactivate a product: it receives no more stock; what is held may still be issued or written off',
    params: Params,
    body: ReasonBody,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The product', ProductView), 404: notFound404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const cmd = commandCtx(ctx, input.body.reason);
        const result = await deactivateProduct(ctx.services.events, cmd, input.params.id, input.body.reason, ifMatch);
        return productAnswer(ctx, input.params.id, result);
      }),
  }),
  historyRoute({
    path: '/productos/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The product's history: creation, corrections, deactivation; who, when, why, oldest first (movements: the kardex)",
    params: Params,
    idParam: 'id',
    category: PRODUCT_CATEGORY,
    projection: PRODUCTOS_PROJECTION,
    notFound: notFound404,
    exists: productOr404,
  }),
];
