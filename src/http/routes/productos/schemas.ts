// JSON Schemas of /productos: what clients send and what they read, declared once with TypeBox.
import Type from 'typebox';
import { PRODUCT_CATEGORIES, WAREHOUSE_KINDS } from '../../../commands/productos/productEvents.js';
import { WRITE_OFF_KINDS } from '../../../commands/productos/stockEvents.js';
import { FLUXES } from '../../../commands/filtros-dialisis/dialyzerEvents.js';
import { LINE_TYPES } from '../../../commands/lineas/bloodlineEvents.js';
import { closed, DateSchema, DateTimeSchema, IdSchema, nullable, ReasonSchema, StringOrNull, text } from '../shared/fieldSchemas.js';
import { clearable, correctionBody } from '../shared/correctionBody.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, WRITE } = groupNames('productos', 'Productos');

const Quantity = Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'Units of the product (up to 3 decimals)' });
const Money = closed({ amount: Type.Number({ minimum: 0 }), currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' }) });
const Lot = text(60, 'Lot (batch) number');

const Barcode = { ...text(64), description: 'Optional; unique within the company' };
const productFields = {
  code: { ...text(40), description: 'Unique within the company, compared trimmed and ignoring case' },
  name: text(200),
  category: Type.Enum(PRODUCT_CATEGORIES),
  unit: text(40, 'Unit of measure, e.g. unit, box, L, vial'),
  minimumStock: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Below this total the product is listed in bajo-minimo' }),
  reusable: Type.Boolean({ description: 'Dialyzers and bloodlines: issued to a patient they become serialized equipment' }),
  lotTracked: Type.Boolean(),
  expiryTracked: Type.Boolean({ description: 'Requires lotTracked: the expiry is kept per lot' }),
  prescriptionDrug: Type.Boolean(),
};

export const CreateProductBody = closed({ ...productFields, barcode: Type.Optional(Barcode), cost: Type.Optional(Money) });

export const CorrectProductBody = correctionBody({ ...productFields, barcode: clearable(Barcode), cost: clearable(Money) });

export const ProductView = closed({
  id: IdSchema,
  revision: Type.Integer({ minimum: 0 }),
  ...productFields,
  barcode: Type.Optional(Barcode),
  cost: Type.Optional(Money),
  active: Type.Boolean(),
  stock: Type.Number({ description: 'Units in every warehouse of the company' }),
  belowMinimum: Type.Boolean(),
  createdAt: DateTimeSchema,
  createdBy: Type.String(),
  updatedAt: DateTimeSchema,
  updatedBy: Type.String(),
});

export const CreateWarehouseBody = closed({
  locationId: { ...IdSchema, description: 'Location (sede) of the company' },
  code: text(40),
  name: text(120),
  kind: Type.Enum(WAREHOUSE_KINDS),
});

export const WarehouseView = closed({
  id: IdSchema,
  locationId: IdSchema,
  code: Type.String(),
  name: Type.String(),
  kind: Type.Enum(WAREHOUSE_KINDS),
  createdAt: DateTimeSchema,
  createdBy: Type.String(),
});

export const ReceiptBody = closed({
  warehouseId: IdSchema,
  quantity: Quantity,
  lot: Type.Optional(Lot),
  expiry: Type.Optional(DateSchema),
  supplier: text(200),
  documentNumber: text(60, 'Invoice or delivery note number'),
  unitCost: Type.Optional(Money),
});

const Equipment = Type.Object(
  {
    serial: text(64, 'Serial of the new dialyzer or line (unique within the company)'),
    surfaceM2: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 5, description: 'Dialyzer' })),
    flux: Type.Optional(Type.Enum(FLUXES, { description: 'Dialyzer' })),
    membrane: Type.Optional({ ...text(80), description: 'Dialyzer' }),
    baselineTcvMl: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 500, description: 'Dialyzer: total cell volume before first use' }),
    ),
    lineType: Type.Optional(Type.Enum(LINE_TYPES, { description: 'Bloodline' })),
    primingVolumeMl: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'Bloodline' })),
  },
  { additionalProperties: false, description: 'A reusable dialyzer or bloodline issued to a patient: the serialized item' },
);

export const IssueBody = closed({
  warehouseId: IdSchema,
  quantity: Quantity,
  lot: Type.Optional({ ...Lot, description: 'Without it, FEFO: the earliest-expiring lots that are not expired' }),
  sessionId: Type.Optional(text(64, 'Dialysis session it goes to')),
  patientId: Type.Optional({ ...IdSchema, description: 'Patient it goes to' }),
  reason: Type.Optional(text(500)),
  equipment: Type.Optional(Equipment),
});

export const TransferBody = closed({ fromWarehouseId: IdSchema, toWarehouseId: IdSchema, quantity: Quantity, lot: Type.Optional(Lot) });

export const AdjustmentBody = closed({
  warehouseId: IdSchema,
  quantity: Type.Number({ minimum: -1_000_000, maximum: 1_000_000, description: 'Signed: + found, - missing (never 0)' }),
  lot: Type.Optional(Lot),
  expiry: Type.Optional({ ...DateSchema, description: 'For a lot not yet in this warehouse' }),
  reason: ReasonSchema,
});

export const WriteOffBody = closed({
  warehouseId: IdSchema,
  kind: Type.Enum(WRITE_OFF_KINDS),
  quantity: Quantity,
  lot: Type.Optional(Lot),
  reason: ReasonSchema,
});

const movementLineFields = {
  movementId: IdSchema,
  productId: IdSchema,
  warehouseId: IdSchema,
  lot: StringOrNull,
  expiry: nullable(DateSchema),
  quantity: Type.Number({ description: 'Signed: in > 0, out < 0' }),
  lotBalanceAfter: Type.Number(),
  balanceAfter: Type.Number({ description: 'Balance of the product in the warehouse after it' }),
  // Lines recorded before the kardex was valued have no cost.
  costPerUnit: Type.Optional(
    Type.Number({ description: 'What each unit of the line is valued at (weighted average cost of the warehouse)' }),
  ),
  valueAfter: Type.Optional(Type.Number({ description: 'Stock value of the product in the warehouse after it' })),
};

export const MovementView = closed({
  movementId: IdSchema,
  productId: IdSchema,
  lines: Type.Array(closed(movementLineFields), { description: 'One per lot touched (a transfer: out lines, then in lines)' }),
  fefo: Type.Boolean({ description: 'The lots were chosen by FEFO (the request named none)' }),
  dialyzerId: Type.Optional({ ...IdSchema, description: 'The serialized dialyzer the issue created' }),
  lineId: Type.Optional({ ...IdSchema, description: 'The serialized bloodline the issue created' }),
});

const lotFields = { lot: StringOrNull, expiry: nullable(DateSchema), quantity: Type.Number() };

export const BalancesView = closed({
  productId: IdSchema,
  today: DateSchema,
  total: Type.Number(),
  warehouses: Type.Array(
    closed({
      warehouseId: IdSchema,
      quantity: Type.Number(),
      lots: Type.Array(closed({ ...lotFields, expired: Type.Boolean() })),
    }),
  ),
});

export const FefoView = closed({ productId: IdSchema, warehouseId: IdSchema, today: DateSchema, lots: Type.Array(closed(lotFields)) });

export const ExpiringView = closed({
  today: DateSchema,
  until: DateSchema,
  items: Type.Array(closed({ productId: IdSchema, warehouseId: IdSchema, ...lotFields, expired: Type.Boolean() })),
});

export const KardexView = closed({
  productId: IdSchema,
  productCode: Type.String(),
  productName: Type.String(),
  unit: Type.String(),
  items: Type.Array(
    closed({
      ...movementLineFields,
      id: IdSchema,
      type: Type.String(),
      at: DateTimeSchema,
      actor: Type.String(),
      reason: StringOrNull,
      details: Type.Object(
        {
          // An issue names the patient it went to: the route walk of the access audit sees it here.
          reference: Type.Optional(
            Type.Object(
              {
                kind: Type.Optional(Type.String()),
                sessionId: Type.Optional(Type.String()),
                patientId: Type.Optional(Type.String()),
              },
              { description: 'What an issue went to: a session, a patient, or consumption' },
            ),
          ),
        },
        { description: 'Supplier and document, session or patient, the other warehouse, the write-off kind' },
      ),
    }),
  ),
});
