// Every rule about a product's own data and about a warehouse. Pure: ids and time come in with the command.
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { fieldChanges } from '../shared/fieldChanges.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import { applyProductChanges, evolveProduct, initialProductState, type ProductState } from './shared/productState.js';
import {
  CORRECTABLE_PRODUCT_FIELDS,
  type ProductCommand,
  type ProductEvent,
  type ProductFields,
  type WarehouseCommand,
  type WarehouseEvent,
  type WarehouseFields,
  PRODUCT_CATEGORY,
  WAREHOUSE_CATEGORY,
} from './productEvents.js';

function checkProduct(f: ProductFields): void {
  const checks = new FieldChecks();
  for (const field of ['code', 'name', 'unit'] as const) checks.check(f[field].trim().length > 0, field, 'must not be blank');
  if (f.barcode !== undefined) checks.check(f.barcode.trim().length > 0, 'barcode', 'must not be blank');
  checks.check(f.minimumStock >= 0, 'minimumStock', 'must not be negative');
  // Expiry is kept per lot: an expiry-tracked product without lots would have nowhere to keep it.
  checks.check(!f.expiryTracked || f.lotTracked, 'expiryTracked', 'requires lotTracked');
  checks.throwIfAny();
}

const trimmed = (f: ProductFields): ProductFields => ({
  ...f,
  code: f.code.trim(),
  name: f.name.trim(),
  unit: f.unit.trim(),
  ...(f.barcode !== undefined ? { barcode: f.barcode.trim() } : {}),
});

export function decideProduct(command: ProductCommand, state: ProductState): ProductEvent[] {
  switch (command.type) {
    case 'CreateProduct':
      if (state.exists) throw new DomainError('already-exists', 'this product already exists', 409);
      checkProduct(command.data);
      return [{ type: 'ProductCreated', data: { productId: command.aggregateId, ...trimmed(command.data) } }];
    case 'CorrectProduct': {
      if (!state.fields) throw notFound('product');
      if (!state.active) throw rule('product-inactive', 'a deactivated product is not corrected');
      const found = fieldChanges(state.fields, command.data, CORRECTABLE_PRODUCT_FIELDS);
      if (!found) return [];
      checkProduct(applyProductChanges(state.fields, found.changes));
      return [{ type: 'ProductCorrected', data: found }];
    }
    case 'DeactivateProduct': {
      if (!state.fields) throw notFound('product');
      if (!state.active) return [];
      const reason = command.data.reason.trim();
      new FieldChecks().check(reason.length > 0, 'reason', 'must not be blank').throwIfAny();
      return [{ type: 'ProductDeactivated', data: { reason } }];
    }
  }
}

export const productDecider: Decider<ProductCommand, ProductEvent, ProductState> = {
  category: PRODUCT_CATEGORY,
  initialState: initialProductState,
  evolve: evolveProduct,
  decide: decideProduct,
};

export interface WarehouseState {
  fields: WarehouseFields | null;
}

export const warehouseDecider: Decider<WarehouseCommand, WarehouseEvent, WarehouseState> = {
  category: WAREHOUSE_CATEGORY,
  initialState: { fields: null },
  evolve: (_state, event) => {
    const { warehouseId: _id, ...fields } = event.data;
    return { fields };
  },
  decide(command, state) {
    if (state.fields) throw new DomainError('already-exists', 'this warehouse already exists', 409);
    const f = command.data;
    const checks = new FieldChecks();
    checks.check(f.code.trim().length > 0, 'code', 'must not be blank').check(f.name.trim().length > 0, 'name', 'must not be blank');
    checks.throwIfAny();
    return [{ type: 'WarehouseCreated', data: { warehouseId: command.aggregateId, ...f, code: f.code.trim(), name: f.name.trim() } }];
  },
};
