// JSON Schemas of /productos: what clients send and what they read.
import type { JsonSchema } from '../../routeTypes.js';
import { PRODUCT_CATEGORIES, WAREHOUSE_KINDS } from '../../../commands/productos/productEvents.js';
import { WRITE_OFF_KINDS } from '../../../commands/productos/stockEvents.js';
import { FLUXES } from '../../../commands/filtros-dialisis/dialyzerEvents.js';
import { LINE_TYPES } from '../../../commands/lineas/bloodlineEvents.js';
import { DateSchema, DateTimeSchema, IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';

export const TAG = 'Productos';
export const READ = 'productos:read';
export const WRITE = 'productos:write';

export const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const Quantity: JsonSchema = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: 1_000_000,
  description: 'Units of the product (up to 3 decimals)',
};
const Money = obj({ amount: { type: 'number', minimum: 0 }, currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217' } });
const Lot = text(60, 'Lot (batch) number');

const productFields: Record<string, JsonSchema> = {
  code: { ...text(40), description: 'Unique within the company, compared trimmed and ignoring case' },
  name: text(200),
  category: { enum: [...PRODUCT_CATEGORIES] },
  unit: text(40, 'Unit of measure, e.g. unit, box, L, vial'),
  barcode: { ...text(64), description: 'Optional; unique within the company' },
  minimumStock: { type: 'number', minimum: 0, maximum: 1_000_000, description: 'Below this total the product is listed in bajo-minimo' },
  reusable: { type: 'boolean', description: 'Dialyzers and bloodlines: issued to a patient they become serialized equipment' },
  lotTracked: { type: 'boolean' },
  expiryTracked: { type: 'boolean', description: 'Requires lotTracked: the expiry is kept per lot' },
  prescriptionDrug: { type: 'boolean' },
  cost: Money,
};

export const CreateProductBody = obj(productFields, [
  'code',
  'name',
  'category',
  'unit',
  'minimumStock',
  'reusable',
  'lotTracked',
  'expiryTracked',
  'prescriptionDrug',
]);

export const CorrectProductBody: JsonSchema = {
  ...obj(
    {
      ...productFields,
      barcode: { anyOf: [productFields.barcode!, { type: 'null' }], description: 'null clears it' },
      cost: { anyOf: [Money, { type: 'null' }], description: 'null clears it' },
      reason: ReasonSchema,
    },
    ['reason'],
  ),
  minProperties: 2,
};

export const ReasonBody = obj({ reason: ReasonSchema });

export const ProductView = obj(
  {
    id: IdSchema,
    revision: { type: 'integer', minimum: 0 },
    ...productFields,
    active: { type: 'boolean' },
    stock: { type: 'number', description: 'Units in every warehouse of the company' },
    belowMinimum: { type: 'boolean' },
    createdAt: DateTimeSchema,
    createdBy: { type: 'string' },
    updatedAt: DateTimeSchema,
    updatedBy: { type: 'string' },
  },
  [
    'id',
    'revision',
    'code',
    'name',
    'category',
    'unit',
    'minimumStock',
    'reusable',
    'lotTracked',
    'expiryTracked',
    'prescriptionDrug',
    'active',
    'stock',
    'belowMinimum',
    'createdAt',
    'createdBy',
    'updatedAt',
    'updatedBy',
  ],
);

export const CreateWarehouseBody = obj({
  locationId: { ...IdSchema, description: 'Location (sede) of the company' },
  code: text(40),
  name: text(120),
  kind: { enum: [...WAREHOUSE_KINDS] },
});

export const WarehouseView = obj({
  id: IdSchema,
  locationId: IdSchema,
  code: { type: 'string' },
  name: { type: 'string' },
  kind: { enum: [...WAREHOUSE_KINDS] },
  createdAt: DateTimeSchema,
  createdBy: { type: 'string' },
});

export const ReceiptBody = obj(
  {
    warehouseId: IdSchema,
    quantity: Quantity,
    lot: Lot,
    expiry: DateSchema,
    supplier: text(200),
    documentNumber: text(60, 'Invoice or delivery note number'),
    unitCost: Money,
  },
  ['warehouseId', 'quantity', 'supplier', 'documentNumber'],
);

const Equipment = obj(
  {
    serial: text(64, 'Serial of the new dialyzer or line (unique within the company)'),
    surfaceM2: { type: 'number', exclusiveMinimum: 0, maximum: 5, description: 'Dialyzer' },
    flux: { enum: [...FLUXES], description: 'Dialyzer' },
    membrane: { ...text(80), description: 'Dialyzer' },
    baselineTcvMl: { type: 'number', exclusiveMinimum: 0, maximum: 500, description: 'Dialyzer: total cell volume before first use' },
    lineType: { enum: [...LINE_TYPES], description: 'Bloodline' },
    primingVolumeMl: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Bloodline' },
  },
  ['serial'],
);

export const IssueBody = obj(
  {
    warehouseId: IdSchema,
    quantity: Quantity,
    lot: { ...Lot, description: 'Without it, FEFO: the earliest-expiring lots that are not expired' },
    sessionId: text(64, 'Dialysis session it goes to'),
    patientId: { ...IdSchema, description: 'Patient it goes to' },
    reason: text(500),
    equipment: { ...Equipment, description: 'A reusable dialyzer or bloodline issued to a patient: the serialized item' },
  },
  ['warehouseId', 'quantity'],
);

export const TransferBody = obj({ fromWarehouseId: IdSchema, toWarehouseId: IdSchema, quantity: Quantity, lot: Lot }, [
  'fromWarehouseId',
  'toWarehouseId',
  'quantity',
]);

export const AdjustmentBody = obj(
  {
    warehouseId: IdSchema,
    quantity: { type: 'number', minimum: -1_000_000, maximum: 1_000_000, description: 'Signed: + found, - missing (never 0)' },
    lot: Lot,
    expiry: { ...DateSchema, description: 'For a lot not yet in this warehouse' },
    reason: ReasonSchema,
  },
  ['warehouseId', 'quantity', 'reason'],
);

export const WriteOffBody = obj(
  { warehouseId: IdSchema, kind: { enum: [...WRITE_OFF_KINDS] }, quantity: Quantity, lot: Lot, reason: ReasonSchema },
  ['warehouseId', 'kind', 'quantity', 'reason'],
);

const MovementLineView = obj(
  {
    movementId: IdSchema,
    productId: IdSchema,
    warehouseId: IdSchema,
    lot: { type: ['string', 'null'] },
    expiry: nullable(DateSchema),
    quantity: { type: 'number', description: 'Signed: in > 0, out < 0' },
    lotBalanceAfter: { type: 'number' },
    balanceAfter: { type: 'number', description: 'Balance of the product in the warehouse after it' },
    costPerUnit: { type: 'number', description: 'What each unit of the line is valued at (weighted average cost of the warehouse)' },
    valueAfter: { type: 'number', description: 'Stock value of the product in the warehouse after it' },
  },
  // Lines recorded before the kardex was valued have no cost.
  ['movementId', 'productId', 'warehouseId', 'lot', 'expiry', 'quantity', 'lotBalanceAfter', 'balanceAfter'],
);

export const MovementView = obj(
  {
    movementId: IdSchema,
    productId: IdSchema,
    lines: { type: 'array', items: MovementLineView, description: 'One per lot touched (a transfer: out lines, then in lines)' },
    fefo: { type: 'boolean', description: 'The lots were chosen by FEFO (the request named none)' },
    dialyzerId: { ...IdSchema, description: 'The serialized dialyzer the issue created' },
    lineId: { ...IdSchema, description: 'The serialized bloodline the issue created' },
  },
  ['movementId', 'productId', 'lines', 'fefo'],
);

const LotView = obj({ lot: { type: ['string', 'null'] }, expiry: nullable(DateSchema), quantity: { type: 'number' } });

export const BalancesView = obj({
  productId: IdSchema,
  today: DateSchema,
  total: { type: 'number' },
  warehouses: {
    type: 'array',
    items: obj({
      warehouseId: IdSchema,
      quantity: { type: 'number' },
      lots: {
        type: 'array',
        items: obj({
          lot: { type: ['string', 'null'] },
          expiry: nullable(DateSchema),
          quantity: { type: 'number' },
          expired: { type: 'boolean' },
        }),
      },
    }),
  },
});

export const FefoView = obj({ productId: IdSchema, warehouseId: IdSchema, today: DateSchema, lots: { type: 'array', items: LotView } });

export const ExpiringView = obj({
  today: DateSchema,
  until: DateSchema,
  items: {
    type: 'array',
    items: obj({
      productId: IdSchema,
      warehouseId: IdSchema,
      lot: { type: ['string', 'null'] },
      expiry: nullable(DateSchema),
      quantity: { type: 'number' },
      expired: { type: 'boolean' },
    }),
  },
});

export const KardexView = obj({
  productId: IdSchema,
  productCode: { type: 'string' },
  productName: { type: 'string' },
  unit: { type: 'string' },
  items: {
    type: 'array',
    items: {
      ...MovementLineView,
      required: [...(MovementLineView.required as string[]), 'id', 'type', 'at', 'actor', 'reason', 'details'],
      properties: {
        ...(MovementLineView.properties as Record<string, JsonSchema>),
        id: IdSchema,
        type: { type: 'string' },
        at: DateTimeSchema,
        actor: { type: 'string' },
        reason: { type: ['string', 'null'] },
        details: {
          type: 'object',
          description: 'Supplier and document, session or patient, the other warehouse, the write-off kind',
          // An issue names the patient it went to: the route walk of the access audit sees it here.
          properties: {
            reference: {
              type: 'object',
              description: 'What an issue went to: a session, a patient, or consumption',
              properties: { kind: { type: 'string' }, sessionId: { type: 'string' }, patientId: { type: 'string' } },
            },
          },
        },
      },
    },
  },
});
