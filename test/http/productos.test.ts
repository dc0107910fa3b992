// Productos over real HTTP: products (unique code, corrections, deactivation), warehouses per location, tenancy,
// permissions and field errors.
import assert from 'node:assert/strict';
import { expectStatus, pointers, productBody, startProductosWorld, unique, type ProductosWorld } from './productosWorld.js';

describe('Productos over HTTP: products and warehouses', () => {
  let w: ProductosWorld;
  before(async () => {
    w = await startProductosWorld();
  });
  after(async () => w?.close());

  it('registers a product and reads it back with ETag and Location; lists it by category', async () => {
    const created = expectStatus(await w.post('/productos', productBody({ code: ' FE-100 ', barcode: '7750001' })), 201);
    const id = created.body.id as string;
    assert.equal(created.headers.get('location'), `/productos/${id}`);
    assert.equal(created.headers.get('etag'), 'W/"0"');
    assert.deepEqual([created.body.code, created.body.stock, created.body.belowMinimum, created.body.active], ['FE-100', 0, true, true]);
    const read = expectStatus(await w.get(`/productos/${id}`), 200);
    assert.equal(read.body.name, 'Iron sucrose 100 mg');
    const list = expectStatus(await w.get('/productos?categoria=iron&limit=200'), 200);
    assert.ok(list.body.items.some((p: { id: string }) => p.id === id));
    const other = expectStatus(await w.get('/productos?categoria=saline&limit=200'), 200);
    assert.ok(!other.body.items.some((p: { id: string }) => p.id === id));
  });

  it('keeps code and barcode unique within a company (409); another company may reuse them', async () => {
    const first = await w.product(w.a, { barcode: unique('BC-') });
    expectStatus(await w.post('/productos', productBody({ code: String(first.code).toLowerCase() })), 409, 'duplicate-code');
    expectStatus(await w.post('/productos', productBody({ barcode: first.barcode })), 409, 'duplicate-barcode');
    await w.product(w.b, { code: first.code, barcode: first.barcode });
  });

  it('answers 422 naming the field for bad input', async () => {
    const bad = await w.post('/productos', productBody({ category: 'candy', minimumStock: -1 }));
    assert.deepEqual(pointers(expectStatus(bad, 422, 'validation-failed')).sort(), ['/body/category', '/body/minimumStock']);
    const rule = await w.post('/productos', productBody({ lotTracked: false, expiryTracked: true }));
    assert.deepEqual(pointers(expectStatus(rule, 422, 'validation-failed')), ['/body/expiryTracked']);
  });

  it('corrects with If-Match and a reason (428, 412), frees the old code, and deactivates', async () => {
    const created = await w.product(w.a);
    const path = `/productos/${created.id}`;
    expectStatus(await w.call(w.a, 'PATCH', path, { json: { name: 'x', reason: 'typo' } }), 428);
    const newCode = unique('P-NEW-');
    const fixed = expectStatus(
      await w.call(w.a, 'PATCH', path, {
        json: { name: 'Hierro sacarato', code: newCode, reason: 'typo' },
        headers: { 'if-match': 'W/"0"' },
      }),
      200,
    );
    assert.deepEqual([fixed.body.name, fixed.body.code, fixed.headers.get('etag')], ['Hierro sacarato', newCode, 'W/"1"']);
    expectStatus(await w.call(w.a, 'PATCH', path, { json: { name: 'y', reason: 'x' }, headers: { 'if-match': 'W/"0"' } }), 412);
    await w.product(w.a, { code: created.code });
    const off = expectStatus(await w.post(`${path}/desactivacion`, { reason: 'discontinued' }), 200);
    assert.equal(off.body.active, false);
    const history = expectStatus(await w.get(`${path}/historial`), 200);
    assert.deepEqual(
      history.body.items.map((e: { type: string }) => e.type),
      ['ProductCreated', 'ProductCorrected', 'ProductDeactivated'],
    );
  });

  it("answers 404 for another company's product and warehouse, everywhere", async () => {
    const theirs = await w.product(w.b);
    const theirWarehouse = await w.warehouse(w.b);
    const mine = await w.warehouse(w.a);
    expectStatus(await w.get(`/productos/${theirs.id}`), 404);
    expectStatus(await w.get(`/productos/${theirs.id}/historial`), 404);
    expectStatus(await w.get(`/productos/${theirs.id}/saldos`), 404);
    expectStatus(await w.get(`/productos/${theirs.id}/kardex`), 404);
    expectStatus(
      await w.call(w.a, 'PATCH', `/productos/${theirs.id}`, { json: { name: 'x', reason: 'x' }, headers: { 'if-match': 'W/"0"' } }),
      404,
    );
    expectStatus(
      await w.post(`/productos/${theirs.id}/ingresos`, {
        warehouseId: mine,
        quantity: 1,
        lot: 'L',
        expiry: '2031-01-01',
        supplier: 'S',
        documentNumber: 'D',
      }),
      404,
    );
    expectStatus(await w.get(`/productos/almacenes/${theirWarehouse}`), 404);
    const product = await w.product(w.a);
    expectStatus(await w.get(`/productos/${product.id}/fefo?almacenId=${theirWarehouse}`), 404);
    const receipt = await w.post(`/productos/${product.id}/ingresos`, {
      warehouseId: theirWarehouse,
      quantity: 1,
      lot: 'L',
      expiry: '2031-01-01',
      supplier: 'S',
      documentNumber: 'D',
    });
    assert.deepEqual(pointers(expectStatus(receipt, 422, 'validation-failed')), ['/body/warehouseId']);
  });

  it('creates warehouses only at locations of the company (422 naming locationId) and lists them by location', async () => {
    const bad = await w.post('/productos/almacenes', { locationId: w.locationB, code: 'X', name: 'X', kind: 'main' });
    assert.deepEqual(pointers(expectStatus(bad, 422, 'validation-failed')), ['/body/locationId']);
    assert.equal(bad.body.detail, 'locationId: no such location in this company');
    const id = await w.warehouse(w.a, { kind: 'ward' });
    const list = expectStatus(await w.get(`/productos/almacenes?sedeId=${w.locationA}&limit=200`), 200);
    assert.ok(list.body.items.some((x: { id: string; kind: string }) => x.id === id && x.kind === 'ward'));
  });

  it('answers 403 to a role without the permission; the pharmacist writes, the nurse only reads', async () => {
    const nurse = await w.withRoles(['nurse']);
    const pharmacist = await w.withRoles(['pharmacist']);
    const billing = await w.memberWith(['clientes:read']);
    expectStatus(await w.post('/productos', productBody(), nurse), 403);
    expectStatus(await w.post('/productos/almacenes', { locationId: w.locationA, code: 'N', name: 'N', kind: 'main' }, nurse), 403);
    const made = expectStatus(await w.post('/productos', productBody(), pharmacist), 201);
    expectStatus(await w.get(`/productos/${made.body.id}`, nurse), 200);
    expectStatus(await w.get(`/productos/${made.body.id}`, billing.token), 403);
    expectStatus(await w.get('/productos/lotes-por-vencer?dias=30', billing.token), 403);
    const warehouse = await w.warehouse(w.a);
    const receipt = { warehouseId: warehouse, quantity: 1, lot: 'L', expiry: '2031-01-01', supplier: 'S', documentNumber: 'D' };
    expectStatus(await w.post(`/productos/${made.body.id}/ingresos`, receipt, nurse), 403);
    expectStatus(await w.post(`/productos/${made.body.id}/ingresos`, receipt, pharmacist), 201);
  });
});
