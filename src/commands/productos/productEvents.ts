// Products of a company (stream `<tenant>.product-<id>`) and its warehouses (`<tenant>.warehouse-<id>`): commands and
// events. Stock movements live in their own streams (stockEvents.ts); who/when/why travel in the event metadata.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';

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
