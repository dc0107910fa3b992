// A pharmacist's rules of the kardex over HTTP (issue 21 item 15): a write-off for expiry only of an expired lot, a
// prescription drug issued only to a patient (or a session), whole units of what is counted in units.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startProductosWorld, type ProductosWorld } from './productosWorld.js';

const DAY = 86_400_000;

describe('Productos over HTTP: write-offs, prescription drugs and whole units', () => {
  let w: ProductosWorld;
  before(async () => {
    w = await startProductosWorld();
  });
  after(async () => w?.close());

  const plusDays = (n: number) => new Date(w.server.clock.now().getTime() + n * DAY).toISOString().slice(0, 10);
  const receive = (productId: string, warehouseId: string, quantity: number, lot?: string, expiry?: string) =>
    w.post(`/productos/${productId}/ingresos`, {
      warehouseId,
      quantity,
      ...(lot ? { lot, expiry } : {}),
      supplier: 'Droguería Sur',
      documentNumber: 'F-7',
    });

  it('writes off a lot that is not expired only as a loss: "expiry" is refused with 409 naming kind', async () => {
    const product = await w.product(w.a);
    const id = product.id as string;
    const warehouse = await w.warehouse(w.a);
    expectStatus(await receive(id, warehouse, 3, 'L-FRESH', plusDays(200)), 201);
    const body = { warehouseId: warehouse, quantity: 1, lot: 'L-FRESH', reason: 'dropped' };
    const asExpiry = await w.post(`/productos/${id}/bajas`, { ...body, kind: 'expiry' });
    assert.deepEqual(pointers(expectStatus(asExpiry, 409, 'lot-not-expired')), ['/body/kind']);
    expectStatus(await w.post(`/productos/${id}/bajas`, { ...body, kind: 'loss' }), 201);
  });

  it('issues a prescription drug to a patient, never as plain consumption (409 naming patientId)', async () => {
    const product = await w.product(w.a, { prescriptionDrug: true });
    const id = product.id as string;
    const warehouse = await w.warehouse(w.a);
    const patientId = await w.patient(w.a);
    expectStatus(await receive(id, warehouse, 3, 'L-RX', plusDays(200)), 201);
    const plain = await w.post(`/productos/${id}/salidas`, { warehouseId: warehouse, quantity: 1 });
    assert.deepEqual(pointers(expectStatus(plain, 409, 'prescription-needs-patient')), ['/body/patientId']);
    expectStatus(await w.post(`/productos/${id}/salidas`, { warehouseId: warehouse, quantity: 1, patientId }), 201);
  });

  it('moves whole vials only; a product measured in litres may move a fraction', async () => {
    const vials = await w.product(w.a, { unit: 'vial', prescriptionDrug: false, lotTracked: false, expiryTracked: false });
    const warehouse = await w.warehouse(w.a);
    const half = await receive(vials.id as string, warehouse, 2.5);
    assert.deepEqual(pointers(expectStatus(half, 422, 'validation-failed')), ['/body/quantity']);
    expectStatus(await receive(vials.id as string, warehouse, 3), 201);
    const issued = await w.post(`/productos/${vials.id}/salidas`, { warehouseId: warehouse, quantity: 0.5 });
    assert.deepEqual(pointers(expectStatus(issued, 422, 'validation-failed')), ['/body/quantity']);
    const acid = await w.product(w.a, {
      category: 'concentrate',
      unit: 'L',
      prescriptionDrug: false,
      lotTracked: false,
      expiryTracked: false,
    });
    expectStatus(await receive(acid.id as string, warehouse, 10), 201);
    const poured = expectStatus(await w.post(`/productos/${acid.id}/salidas`, { warehouseId: warehouse, quantity: 2.5 }), 201);
    assert.equal(poured.body.lines[0].balanceAfter, 7.5);
  });

  it('the kardex names the product and values each line: receipts at their unit cost, the rest at the average', async () => {
    const gauze = await w.product(w.a, {
      name: 'Gauze 10x10',
      category: 'dressing',
      unit: 'box',
      prescriptionDrug: false,
      lotTracked: false,
      expiryTracked: false,
    });
    const id = gauze.id as string;
    const main = await w.warehouse(w.a, { kind: 'main' });
    const ward = await w.warehouse(w.a, { kind: 'ward' });
    const buy = (quantity: number, amount: number) =>
      w.post(`/productos/${id}/ingresos`, {
        warehouseId: main,
        quantity,
        supplier: 'S',
        documentNumber: 'F-8',
        unitCost: { amount, currency: 'PEN' },
      });
    expectStatus(await buy(10, 2), 201);
    expectStatus(await buy(10, 4), 201);
    expectStatus(await w.post(`/productos/${id}/salidas`, { warehouseId: main, quantity: 5 }), 201);
    expectStatus(await w.post(`/productos/${id}/transferencias`, { fromWarehouseId: main, toWarehouseId: ward, quantity: 5 }), 201);
    const ledger = expectStatus(await w.get(`/productos/${id}/kardex`), 200);
    assert.deepEqual([ledger.body.productCode, ledger.body.productName, ledger.body.unit], [gauze.code, 'Gauze 10x10', 'box']);
    assert.deepEqual(
      ledger.body.items.map((m: { type: string; costPerUnit: number; valueAfter: number }) => [m.type, m.costPerUnit, m.valueAfter]),
      [
        ['StockReceived', 2, 20],
        ['StockReceived', 4, 60],
        ['StockIssued', 3, 45],
        ['StockTransferredOut', 3, 30],
        ['StockTransferredIn', 3, 15],
      ],
    );
    const csv = await w.server.request('GET', `/productos/${id}/kardex?formato=csv`, { token: w.a });
    const [header, first] = String(csv.body)
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    assert.deepEqual(
      ['productName', 'costPerUnit', 'valueAfter'].map((c) => first![header!.indexOf(c)]),
      ['Gauze 10x10', '2', '20'],
    );
  });
});
