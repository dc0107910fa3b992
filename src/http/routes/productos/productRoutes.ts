// /productos: register, list (category, below minimum), read, correct (If-Match), deactivate, history.
import Type, { type Static } from 'typebox';
import { pageOf, PageQueryFields, MinPositionField } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { PRODUCT_CATEGORIES } from '../../../commands/productos/productEvents.js';
import { correctProduct, createProduct, deactivateProduct } from '../../../commands/productos/productWrites.js';
import { listProducts, productModel } from '../../../queries/productos/products.js';
import { badCursor400, commandCtx, tenantCtx, unavailable503 } from '../shared/recordSupport.js';
import { CorrectProductBody, CreateProductBody, ProductView, READ, TAG } from './schemas.js';
import { products } from './support.js';

const PageQuery = Type.Object({ ...PageQueryFields, ...MinPositionField }, { additionalProperties: false });

export const productRoutes: RouteDecl[] = [
  products.create({
    summary: 'Register a product (supply, drug, dialyzer, line...)',
    description: 'Code and barcode are each unique within the company (trimmed, ignoring case): 409 duplicate-code / duplicate-barcode.',
    body: CreateProductBody,
    idKey: 'productId',
    handle: (body, ctx) => createProduct(ctx.services.events, commandCtx(ctx), body),
  }),
  products.list({
    summary: 'List products by code: by category, below their minimum stock, active or not',
    legacyQuery: ['categoria', 'bajoMinimo', 'activo'],
    filters: {
      category: Type.Optional(Type.Enum(PRODUCT_CATEGORIES)),
      belowMinimum: Type.Optional(Type.Boolean()),
      active: Type.Optional(Type.Boolean()),
    },
    list: listProducts,
    prepared: {}, // made of the collection alone: prepared once per change of it
  }),
  route({
    method: 'get',
    path: '/productos/bajo-minimo',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Active products whose stock in every warehouse together is below their minimum',
    query: PageQuery,
    responses: { 200: { description: 'A page of products', schema: pageOf(ProductView) }, 400: badCursor400, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [productModel.projection]);
      // Ajv's useDefaults filled limit from the schema's default.
      const query = input.query as Static<typeof PageQuery> & { limit: number };
      return { status: 200, body: await listProducts(tenantCtx(ctx), { ...query, belowMinimum: true, active: true }) };
    },
  }),
  products.read({ summary: 'Read a product with its total stock' }),
  products.patch({
    summary: "Correct a product's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when stale). A new code or barcode must be unique (409).',
    body: CorrectProductBody,
    handle: (id, { reason, ...patch }, ctx, ifMatch) => correctProduct(ctx.services.events, commandCtx(ctx, reason), id, patch, ifMatch),
  }),
  products.action({
    path: 'desactivacion',
    summary: 'Deactivate a product: it receives no more stock; what is held may still be issued or written off',
    handle: (id, { reason }, ctx, ifMatch) => deactivateProduct(ctx.services.events, commandCtx(ctx, reason), id, reason, ifMatch),
  }),
  products.history({
    summary: "The product's history: creation, corrections, deactivation; who, when, why, oldest first (movements: the kardex)",
  }),
];
