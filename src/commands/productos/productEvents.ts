// Products of a company (stream `<tenant>.product-<id>`) and its warehouses (`<tenant>.warehouse-<id>`): commands and
// events. Stock movements live in their own streams (stockEvents.ts); who/when/why travel in the event metadata.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the warehouse streams: written once, here (the decider, the writes and the read side take it). */
export const WAREHOUSE_CATEGORY = 'warehouse';
export const warehouseStream = (tenantId: string, warehouseId: string): string => streamName(tenantId, WAREHOUSE_CATEGORY, warehouseId);

/** The category of the product streams: written once, here (the decider, the writes and the read side take it). */
export const PRODUCT_CATEGORY = 'product';
export const productStream = (tenantId: string, productId: string): string => streamName(tenantId, PRODUCT_CATEGORY, productId);

export const PRODUCT_CATEGORIES = [
  'dialyzer',
  'bloodline',
  'needle',
  'catheter',
  'concentrate',
  'bicarbonate',
  'saline',
  'anticoagulant',
  'esa',
  'iron',
  'vitamin-d',
  'antibiotic',
  'dressing',
  'disinfectant',
  'test-strip',
  'other',
] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

/** Categories whose reusable items become serialized equipment when issued to a patient. */
export const SERIALIZED_CATEGORIES: readonly ProductCategory[] = ['dialyzer', 'bloodline'];

/** Units counted in whole pieces (compared lower-case); any other unit (L, mL, g...) is measured and may be fractional. */
const COUNTABLE_UNITS = new Set(
  'unit units u un und unidad unidades piece pieces pieza piezas each vial vials frasco frascos ampoule ampoules ampolla ampollas box boxes caja cajas bag bags bolsa bolsas bottle bottles tablet tablets tableta tabletas capsule capsules capsula capsulas syringe syringes jeringa jeringas kit kits pack packs paquete paquetes pair pairs par pares roll rolls rollo rollos'.split(
    ' ',
  ),
);
export const isCountableUnit = (unit: string): boolean => COUNTABLE_UNITS.has(unit.trim().toLowerCase());

export const WAREHOUSE_KINDS = ['main', 'pharmacy', 'ward'] as const;
export type WarehouseKind = (typeof WAREHOUSE_KINDS)[number];

export interface Money {
  amount: number;
  currency: string;
}

export type ProductFields = {
  code: string;
  name: string;
  category: ProductCategory;
  unit: string;
  barcode?: string;
  minimumStock: number;
  reusable: boolean;
  lotTracked: boolean;
  expiryTracked: boolean;
  prescriptionDrug: boolean;
  cost?: Money;
};
export type ProductPatch = Partial<Omit<ProductFields, 'barcode' | 'cost'>> & { barcode?: string | null; cost?: Money | null };
export const CORRECTABLE_PRODUCT_FIELDS = [
  'code',
  'name',
  'category',
  'unit',
  'barcode',
  'minimumStock',
  'reusable',
  'lotTracked',
  'expiryTracked',
  'prescriptionDrug',
  'cost',
] as const;

export type ProductCommand =
  | CommandEnvelope<'CreateProduct', ProductFields>
  | CommandEnvelope<'CorrectProduct', ProductPatch>
  | CommandEnvelope<'DeactivateProduct', { reason: string }>;

export type ProductEvent =
  | DecidedEvent<'ProductCreated', ProductFields & { productId: string }>
  | DecidedEvent<'ProductCorrected', { changes: Record<string, unknown>; previous: Record<string, unknown> }>
  | DecidedEvent<'ProductDeactivated', { reason: string }>;

export const PRODUCT_EVENT_TYPES: readonly ProductEvent['type'][] = ['ProductCreated', 'ProductCorrected', 'ProductDeactivated'];

export type WarehouseFields = { locationId: string; code: string; name: string; kind: WarehouseKind };

export type WarehouseCommand = CommandEnvelope<'CreateWarehouse', WarehouseFields>;
export type WarehouseEvent = DecidedEvent<'WarehouseCreated', WarehouseFields & { warehouseId: string }>;
export const WAREHOUSE_EVENT_TYPES: readonly WarehouseEvent['type'][] = ['WarehouseCreated'];

/** Codes and barcodes compare trimmed and case-insensitively. */
export function productValueKey(value: string): string {
  return value.normalize('NFKC').trim().toLowerCase();
}
