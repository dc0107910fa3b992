// Given product events / when a command / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { productDecider, warehouseDecider } from './productDecider.js';
import type { ProductCommand, ProductEvent, ProductFields } from './productEvents.js';

const given = scenario(productDecider);
const cmd = <T extends ProductCommand['type']>(type: T, data: Extract<ProductCommand, { type: T }>['data']) =>
  ({ type, data, at: '2025-03-01T10:00:00Z', actor: 'u1', aggregateId: 'p1', tenantId: 't1' }) as ProductCommand;
const fields: ProductFields = {
  code: 'DZ-1',
  name: 'FX80',
  category: 'dialyzer',
  unit: 'unit',
  minimumStock: 10,
  reusable: true,
  lotTracked: true,
  expiryTracked: true,
  prescriptionDrug: false,
};
const created: ProductEvent = { type: 'ProductCreated', data: { productId: 'p1', ...fields } };

describe('product decider', () => {
  it('creates a product with its fields trimmed', () => {
    given()
      .when(cmd('CreateProduct', { ...fields, code: ' DZ-1 ' }))
      .then(created);
  });

  it('refuses blank fields, a negative minimum and expiry tracking without lots (422 naming them)', () => {
    given()
      .when(cmd('CreateProduct', { ...fields, name: ' ', minimumStock: -1, lotTracked: false }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['name', 'minimumStock', 'expiryTracked']));
  });

  it('corrects only what changes, and nothing on a deactivated product', () => {
    given(created)
      .when(cmd('CorrectProduct', { name: 'FX 80', minimumStock: 10 }))
      .then({ type: 'ProductCorrected', data: { changes: { name: 'FX 80' }, previous: { name: 'FX80' } } });
    given(created)
      .when(cmd('CorrectProduct', { name: 'FX80' }))
      .then();
    given(created, { type: 'ProductDeactivated', data: { reason: 'x' } })
      .when(cmd('CorrectProduct', { name: 'Y' }))
      .thenError('product-inactive');
    given()
      .when(cmd('CorrectProduct', { name: 'Y' }))
      .thenError('not-found');
  });

  it('deactivates once, with a reason', () => {
    given(created)
      .when(cmd('DeactivateProduct', { reason: ' obsolete ' }))
      .then({ type: 'ProductDeactivated', data: { reason: 'obsolete' } });
    given(created, { type: 'ProductDeactivated', data: { reason: 'x' } })
      .when(cmd('DeactivateProduct', { reason: 'again' }))
      .then();
  });

  it('creates a warehouse once', () => {
    const data = { locationId: 'l1', code: 'ALM-1', name: 'Main', kind: 'main' as const };
    const create = { type: 'CreateWarehouse' as const, data, at: '2025-03-01T10:00:00Z', actor: 'u1', aggregateId: 'w1', tenantId: 't1' };
    const whGiven = scenario(warehouseDecider);
    whGiven()
      .when(create)
      .then({ type: 'WarehouseCreated', data: { warehouseId: 'w1', ...data } });
    whGiven({ type: 'WarehouseCreated', data: { warehouseId: 'w1', ...data } })
      .when(create)
      .thenError('already-exists');
  });
});
