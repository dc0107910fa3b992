// One expiry per lot, company-wide (issue 21 item 15): a lot is a manufacturer's batch, so the same lot number of a
// product expires on one date in every warehouse. A receipt stating another expiry is refused (409 naming `expiry`),
// one stating none takes the recorded one, and a transfer carries the lot's expiry: 5 short-dated units never come
// out of a transfer with a later date.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startProductosWorld, type Answer, type ProductosWorld } from './productosWorld.js';

const DAY = 86_400_000;

describe('Productos over HTTP: one expiry per lot', () => {
  let w: ProductosWorld;
  before(async () => {
    w = await startProductosWorld();
  });
  after(async () => w?.close());

  const plusDays = (n: number) => new Date(w.server.clock.now().getTime() + n * DAY).toISOString().slice(0, 10);
  const receipt = (warehouseId: string, quantity: number, lot: string, expiry?: string) =>
    ({ warehouseId, quantity, lot, ...(expiry ? { expiry } : {}), supplier: 'Droguería Sur', documentNumber: 'F001-9' }) as const;
  type Lot = { lot: string; expiry: string; quantity: number };
  /** The lots of each warehouse, read after the write whose answer is `after` (its X-Event-Position). */
  const lotsIn = async (productId: string, after: Answer) => {
    const token = encodeURIComponent(after.headers.get('x-event-position')!);
    const body = expectStatus(await w.get(`/productos/${productId}/saldos?minPosition=${token}`), 200).body as {
      warehouses: { warehouseId: string; lots: Lot[] }[];
    };
    return new Map(body.warehouses.map((x) => [x.warehouseId, x.lots]));
  };

  it('a receipt in another warehouse cannot give a held lot another expiry; without one it takes the recorded expiry', async () => {
    const product = await w.product(w.a);
    const id = product.id as string;
    const pharmacy = await w.warehouse(w.a);
    const ward = await w.warehouse(w.a, { kind: 'ward' });
    const soon = plusDays(20);
    expectStatus(await w.post(`/productos/${id}/ingresos`, receipt(pharmacy, 5, 'L-21', soon)), 201);
    const later = await w.post(`/productos/${id}/ingresos`, receipt(ward, 7, 'L-21', plusDays(300)));
    assert.deepEqual(pointers(expectStatus(later, 409, 'lot-expiry-conflict')), ['/body/expiry']);
    const same = expectStatus(await w.post(`/productos/${id}/ingresos`, receipt(ward, 7, 'L-21')), 201);
    assert.equal(same.body.lines[0].expiry, soon);
    const lots = await lotsIn(id, same);
    assert.deepEqual(
      [...lots.values()]
        .flat()
        .map((l) => [l.lot, l.expiry, l.quantity])
        .sort(),
      [
        ['L-21', soon, 5],
        ['L-21', soon, 7],
      ],
    );
    // Another product may use the same lot number with its own expiry.
    const other = await w.product(w.a);
    expectStatus(await w.post(`/productos/${other.id}/ingresos`, receipt(ward, 1, 'L-21', plusDays(300))), 201);
  });

  it('a transfer cannot change a lot’s expiry: the short-dated units keep their date in the destination', async () => {
    const product = await w.product(w.a, { prescriptionDrug: false });
    const id = product.id as string;
    const main = await w.warehouse(w.a, { kind: 'main' });
    const ward = await w.warehouse(w.a, { kind: 'ward' });
    const soon = plusDays(10);
    expectStatus(await w.post(`/productos/${id}/ingresos`, receipt(main, 5, 'L-SHORT', soon)), 201);
    // The ward cannot hold the same lot with a later date: refused, so the transfer has nothing to rewrite.
    expectStatus(await w.post(`/productos/${id}/ingresos`, receipt(ward, 20, 'L-SHORT', plusDays(400))), 409, 'lot-expiry-conflict');
    const moved = expectStatus(
      await w.post(`/productos/${id}/transferencias`, { fromWarehouseId: main, toWarehouseId: ward, quantity: 5, lot: 'L-SHORT' }),
      201,
    );
    assert.deepEqual(
      moved.body.lines.map((l: { warehouseId: string; expiry: string; quantity: number }) => [l.warehouseId, l.expiry, l.quantity]),
      [
        [main, soon, -5],
        [ward, soon, 5],
      ],
    );
    const withExpiry = await w.post(`/productos/${id}/transferencias`, {
      fromWarehouseId: ward,
      toWarehouseId: main,
      quantity: 1,
      lot: 'L-SHORT',
      expiry: plusDays(400),
    });
    expectStatus(withExpiry, 422, 'validation-failed');
    assert.deepEqual((await lotsIn(id, moved)).get(ward), [{ lot: 'L-SHORT', expiry: soon, quantity: 5, expired: false }]);
    // Issued by FEFO they are still the first to go, and refused once expired.
    w.server.clock.advance(11 * DAY);
    await w.refreshSessions();
    expectStatus(await w.post(`/productos/${id}/salidas`, { warehouseId: ward, quantity: 1, lot: 'L-SHORT' }), 409, 'lot-expired');
  });

  it('two receipts of a new lot with different expiries in two warehouses at once: one expiry wins, the other is refused', async () => {
    const product = await w.product(w.a);
    const id = product.id as string;
    const one = await w.warehouse(w.a);
    const two = await w.warehouse(w.a, { kind: 'ward' });
    const answers = await Promise.all([
      w.post(`/productos/${id}/ingresos`, receipt(one, 3, 'L-RACE', plusDays(60))),
      w.post(`/productos/${id}/ingresos`, receipt(two, 3, 'L-RACE', plusDays(90))),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409]);
    const received = answers.find((a) => a.status === 201);
    const expiries = new Set([...(await lotsIn(id, received!)).values()].flat().map((l) => l.expiry));
    assert.equal(expiries.size, 1);
  });
});
