// Spec of the Productos projection: products with their total stock, warehouses, balances per lot, and the kardex.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { BALANCES, KARDEX, PRODUCTS, WAREHOUSES, productosProjection } from './productosProjection.js';
import type { BalanceDoc, KardexDoc, ProductDoc, WarehouseDoc } from './productDocs.js';

const given = projectionSpec(productosProjection);
const product = streamOf('t1', 'product', 'pr1');
const warehouse = streamOf('t1', 'warehouse', 'w1');
const stock = streamOf('t1', 'stock', 'pr1_w1');
const otherCompany = streamOf('t2', 'product', 'pr1');
const created = (name = 'Suero fisiológico') => ({
  type: 'ProductCreated',
  data: {
    productId: 'pr1',
    code: 'SF-1000',
    name,
    category: 'saline',
    unit: 'bag',
    minimumStock: 10,
    reusable: false,
    lotTracked: true,
    expiryTracked: true,
    prescriptionDrug: false,
  },
});
const line = (movementId: string, quantity: number, lotBalanceAfter: number, lot = 'L1') => ({
  movementId,
  productId: 'pr1',
  warehouseId: 'w1',
  lot,
  expiry: '2026-01-31',
  quantity,
  lotBalanceAfter,
  balanceAfter: lotBalanceAfter,
});
const received = (movementId: string, quantity: number, after: number) => ({
  type: 'StockReceived',
  data: { ...line(movementId, quantity, after), supplier: 'Lab SA', documentNumber: 'F-1' },
});
const issued = (movementId: string, quantity: number, after: number) => ({
  type: 'StockIssued',
  data: { ...line(movementId, -quantity, after), reference: { kind: 'session', sessionId: 's1' }, fefo: true },
});

describe('productos projection', () => {
  it('creates a product and a warehouse, then receives and issues stock: the total, the lot balance and the ledger', async () => {
    const warehouseCreated = {
      type: 'WarehouseCreated',
      data: { warehouseId: 'w1', locationId: 'l1', code: 'ALM-1', name: 'Principal', kind: 'main' },
    };
    const outcome = given(product(created()), warehouse(warehouseCreated), stock(received('mv1', 20, 20), issued('mv2', 12, 8)));
    await outcome.then<ProductDoc>(PRODUCTS, 'pr1', (doc) => {
      assert.deepEqual([doc.stock, doc.belowMinimum, doc.revision], [8, true, 0]);
    });
    await outcome.then<WarehouseDoc>(WAREHOUSES, 'w1', (doc) => assert.equal(doc.codeKey, 'alm-1'));
    await outcome.then<BalanceDoc>(BALANCES, 'pr1_w1_L1', (doc) => assert.equal(doc.quantity, 8));
    await outcome.thenFind<KardexDoc>(
      KARDEX,
      { productId: 'pr1' },
      (docs) =>
        assert.deepEqual(
          docs.map((d) => [d.type, d.quantity]),
          [
            ['StockReceived', 20],
            ['StockIssued', -12],
          ],
        ),
      {
        sort: { seq: 1 },
      },
    );
  });

  it('a correction changes the product, keeping its stock; a deactivation marks it inactive', async () => {
    const corrected = {
      type: 'ProductCorrected',
      data: { changes: { minimumStock: 5, name: 'Suero 0.9 %' }, previous: { minimumStock: 10, name: 'Suero fisiológico' } },
    };
    const deactivated = { type: 'ProductDeactivated', data: { reason: 'discontinued' } };
    await given(product(created()), stock(received('mv1', 8, 8)), product(corrected, deactivated)).then<ProductDoc>(
      PRODUCTS,
      'pr1',
      (doc) => {
        assert.deepEqual([doc.name, doc.minimumStock, doc.stock, doc.belowMinimum, doc.active], ['Suero 0.9 %', 5, 8, false, false]);
      },
    );
  });

  it('changes nothing when events are delivered again: a movement is counted once', async () => {
    const events = stock(received('mv1', 20, 20));
    await given(product(created()), events, events[0]!).then<ProductDoc>(PRODUCTS, 'pr1', (doc) => assert.equal(doc.stock, 20));
    await given(product(created()), events, stock(issued('mv2', 5, 15))).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(product(created()), otherCompany(created('Heparina')));
    await outcome.then<ProductDoc>(PRODUCTS, 'pr1', (doc) => assert.equal(doc.name, 'Suero fisiológico'));
    await outcome.in('t2').then<ProductDoc>(PRODUCTS, 'pr1', (doc) => assert.equal(doc.name, 'Heparina'));
    await given(otherCompany(created())).in('t1').thenAbsent(PRODUCTS, 'pr1');
  });
});
