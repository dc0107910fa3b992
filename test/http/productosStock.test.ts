// The kardex over real HTTP: receipts, FEFO issues, expired lots, concurrent issues of the last units, transfers,
// adjustments, write-offs, balances, lots expiring, the ledger as CSV, idempotent retries, serialized dialyzers and the
// session consumption the process manager calls.
import assert from 'node:assert/strict';
import { consumeForSession } from '../../src/commands/productos/issueWrites.js';
import { expectStatus, pointers, startProductosWorld, type Answer, type ProductosWorld } from './productosWorld.js';

const DAY = 86_400_000;

describe('Productos over HTTP: the kardex', () => {
  let w: ProductosWorld;
  before(async () => {
    w = await startProductosWorld();
  });
  after(async () => w?.close());

  const today = () => w.server.clock.now().toISOString().slice(0, 10);
  /** A movement's answer does not wait for the read models: a read right after one passes its token. */
  const seen = (answer: Answer): string => `minPosition=${encodeURIComponent(answer.headers.get('x-event-position')!)}`;
  const plusDays = (n: number) => new Date(w.server.clock.now().getTime() + n * DAY).toISOString().slice(0, 10);
  const receive = async (productId: string, warehouseId: string, quantity: number, lot?: string, expiry?: string) =>
    expectStatus(
      await w.post(`/productos/${productId}/ingresos`, {
        warehouseId,
        quantity,
        ...(lot ? { lot } : {}),
        ...(expiry ? { expiry } : {}),
        supplier: 'Droguería Sur',
        documentNumber: 'F001-123',
        unitCost: { amount: 10, currency: 'PEN' },
      }),
      201,
    );

  it('20 concurrent issues of the last 10 units: exactly 10 issued, 10 refused with 409, balance 0', async () => {
    const product = await w.product(w.a, {
      lotTracked: false,
      expiryTracked: false,
      category: 'needle',
      minimumStock: 0,
      prescriptionDrug: false,
    });
    const warehouse = await w.warehouse(w.a);
    await receive(product.id as string, warehouse, 10);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => w.post(`/productos/${product.id}/salidas`, { warehouseId: warehouse, quantity: 1 })),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 201).length, 10);
    assert.equal(statuses.filter((s) => s === 409).length, 10);
    assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.type === '/problems/insufficient-stock'));
    // The tokens are opaque (no telling which write came last): one wait for each.
    const tokens = answers.flatMap((a) => a.headers.get('x-event-position') ?? []);
    const readAfterAll = async (path: string) => {
      let read: Answer | undefined;
      for (const token of tokens) read = await w.get(`${path}?minPosition=${encodeURIComponent(token)}`);
      return expectStatus(read!, 200);
    };
    assert.equal((await readAfterAll(`/productos/${product.id}/saldos`)).body.total, 0);
    assert.equal((await readAfterAll(`/productos/${product.id}`)).body.stock, 0);
  });

  it('issues without a lot by FEFO (said in the answer); GET fefo lists the lots in that order', async () => {
    const product = await w.product(w.a, { category: 'saline', unit: 'bag', prescriptionDrug: false });
    const warehouse = await w.warehouse(w.a);
    await receive(product.id as string, warehouse, 5, 'L-LATE', plusDays(300));
    const received = await receive(product.id as string, warehouse, 2, 'L-SOON', plusDays(40));
    const fefo = expectStatus(await w.get(`/productos/${product.id}/fefo?almacenId=${warehouse}&${seen(received)}`), 200);
    assert.deepEqual(
      fefo.body.lots.map((l: { lot: string }) => l.lot),
      ['L-SOON', 'L-LATE'],
    );
    const issued = expectStatus(await w.post(`/productos/${product.id}/salidas`, { warehouseId: warehouse, quantity: 3 }), 201);
    assert.equal(issued.body.fefo, true);
    assert.deepEqual(
      issued.body.lines.map((l: { lot: string; quantity: number; balanceAfter: number }) => [l.lot, l.quantity, l.balanceAfter]),
      [
        ['L-SOON', -2, 5],
        ['L-LATE', -1, 4],
      ],
    );
    const named = expectStatus(
      await w.post(`/productos/${product.id}/salidas`, { warehouseId: warehouse, quantity: 1, lot: 'L-LATE' }),
      201,
    );
    assert.equal(named.body.fefo, false);
    const missingLot = await w.post(`/productos/${product.id}/ingresos`, {
      warehouseId: warehouse,
      quantity: 1,
      supplier: 'S',
      documentNumber: 'D',
    });
    assert.deepEqual(pointers(expectStatus(missingLot, 422, 'validation-failed')), ['/body/lot']);
    const badQuantity = await w.post(`/productos/${product.id}/salidas`, { warehouseId: warehouse, quantity: 0 });
    assert.deepEqual(pointers(expectStatus(badQuantity, 422, 'validation-failed')), ['/body/quantity']);
  });

  it('refuses an expired lot (409 lot-expired), lists it as expiring, and writes it off', async () => {
    const product = await w.product(w.a, { category: 'saline', unit: 'bag', prescriptionDrug: false });
    const warehouse = await w.warehouse(w.a);
    await receive(product.id as string, warehouse, 4, 'L-OLD', today());
    const received = await receive(product.id as string, warehouse, 1, 'L-NEW', plusDays(400));
    const soon = expectStatus(await w.get(`/productos/lotes-por-vencer?dias=10&${seen(received)}`), 200);
    assert.ok(soon.body.items.some((l: { lot: string; expired: boolean }) => l.lot === 'L-OLD' && !l.expired));
    w.server.clock.advance(2 * DAY);
    await w.refreshSessions();
    expectStatus(
      await w.post(`/productos/${product.id}/salidas`, { warehouseId: warehouse, quantity: 1, lot: 'L-OLD' }),
      409,
      'lot-expired',
    );
    expectStatus(await w.post(`/productos/${product.id}/salidas`, { warehouseId: warehouse, quantity: 2 }), 409, 'insufficient-stock');
    const expired = expectStatus(await w.get('/productos/lotes-por-vencer?dias=0'), 200);
    assert.ok(expired.body.items.some((l: { lot: string; expired: boolean }) => l.lot === 'L-OLD' && l.expired));
    const off = expectStatus(
      await w.post(`/productos/${product.id}/bajas`, {
        warehouseId: warehouse,
        kind: 'expiry',
        quantity: 4,
        lot: 'L-OLD',
        reason: 'expired',
      }),
      201,
    );
    assert.equal(off.body.lines[0].lotBalanceAfter, 0);
  });

  it('transfers between warehouses, adjusts after a count, and shows it all in the kardex with running balances, also as CSV', async () => {
    const product = await w.product(w.a, { lotTracked: false, expiryTracked: false, category: 'saline', minimumStock: 100 });
    const main = await w.warehouse(w.a, { kind: 'main' });
    const ward = await w.warehouse(w.a, { kind: 'ward' });
    const id = product.id as string;
    await receive(id, main, 50);
    const moved = expectStatus(
      await w.post(`/productos/${id}/transferencias`, { fromWarehouseId: main, toWarehouseId: ward, quantity: 20 }),
      201,
    );
    assert.deepEqual(
      moved.body.lines.map((l: { warehouseId: string; quantity: number; balanceAfter: number }) => [
        l.warehouseId,
        l.quantity,
        l.balanceAfter,
      ]),
      [
        [main, -20, 30],
        [ward, 20, 20],
      ],
    );
    expectStatus(
      await w.post(`/productos/${id}/transferencias`, { fromWarehouseId: ward, toWarehouseId: main, quantity: 21 }),
      409,
      'insufficient-stock',
    );
    const adjusted = expectStatus(await w.post(`/productos/${id}/ajustes`, { warehouseId: ward, quantity: -2, reason: 'count' }), 201);
    expectStatus(
      await w.post(`/productos/${id}/ajustes`, { warehouseId: ward, quantity: -30, reason: 'count' }),
      409,
      'insufficient-stock',
    );
    const balances = expectStatus(await w.get(`/productos/${id}/saldos?${seen(adjusted)}`), 200);
    assert.equal(balances.body.total, 48);
    const below = expectStatus(await w.get(`/productos/bajo-minimo?limit=200&${seen(adjusted)}`), 200);
    assert.ok(below.body.items.some((p: { id: string; stock: number }) => p.id === id && p.stock === 48));
    const ledger = expectStatus(await w.get(`/productos/${id}/kardex?almacenId=${ward}&desde=${today()}&hasta=${today()}`), 200);
    assert.deepEqual(
      ledger.body.items.map((m: { type: string; balanceAfter: number }) => [m.type, m.balanceAfter]),
      [
        ['StockTransferredIn', 20],
        ['StockAdjusted', 18],
      ],
    );
    const none = expectStatus(await w.get(`/productos/${id}/kardex?hasta=2000-01-01`), 200);
    assert.equal(none.body.items.length, 0);
    const csv = await w.server.request('GET', `/productos/${id}/kardex`, { token: w.a, headers: { accept: 'text/csv' } });
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const [header, ...rows] = String(csv.body)
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    assert.deepEqual(header!.slice(0, 3), ['at', 'type', 'movementId']);
    const col = (name: string) => header!.indexOf(name);
    assert.deepEqual(
      rows.map((r) => [
        r[col('type')],
        r[col('warehouseId')] === main ? 'main' : 'ward',
        Number(r[col('quantity')]),
        Number(r[col('balanceAfter')]),
      ]),
      [
        ['StockReceived', 'main', 50, 50],
        ['StockTransferredOut', 'main', -20, 30],
        ['StockTransferredIn', 'ward', 20, 20],
        ['StockAdjusted', 'ward', -2, 18],
      ],
    );
    assert.equal(rows[0]![col('reference')], 'supplier:Droguería Sur doc:F001-123');
    const viaQuery = await w.server.request('GET', `/productos/${id}/kardex?formato=csv`, { token: w.a });
    assert.equal(viaQuery.body, csv.body);
  });

  it('does not issue twice when an issue is retried with its Idempotency-Key', async () => {
    const product = await w.product(w.a, { lotTracked: false, expiryTracked: false, prescriptionDrug: false });
    const warehouse = await w.warehouse(w.a);
    await receive(product.id as string, warehouse, 5);
    const send = () =>
      w.post(`/productos/${product.id}/salidas`, { warehouseId: warehouse, quantity: 2 }, w.a, { 'idempotency-key': 'issue-once-1' });
    const first = expectStatus(await send(), 201);
    const again = expectStatus(await send(), 201);
    assert.equal(again.body.movementId, first.body.movementId);
    const balances = expectStatus(await w.get(`/productos/${product.id}/saldos?${seen(first)}`), 200);
    assert.equal(balances.body.total, 3);
  });

  it('turns a reusable dialyzer issued to a patient into its serialized dialyzer, assigned to that patient', async () => {
    const product = await w.product(w.a, { category: 'dialyzer', name: 'FX80', reusable: true, prescriptionDrug: false });
    const warehouse = await w.warehouse(w.a);
    const patientId = await w.patient(w.a);
    await receive(product.id as string, warehouse, 3, 'DZ-L1', plusDays(500));
    const path = `/productos/${product.id}/salidas`;
    const noEquipment = await w.post(path, { warehouseId: warehouse, quantity: 1, patientId });
    assert.deepEqual(pointers(expectStatus(noEquipment, 422, 'validation-failed')), ['/body/equipment']);
    const equipment = { serial: 'FX-SER-1', surfaceM2: 1.8, flux: 'high', membrane: 'polysulfone', baselineTcvMl: 120 };
    const issued = expectStatus(await w.post(path, { warehouseId: warehouse, quantity: 1, patientId, equipment }), 201);
    const token = encodeURIComponent(issued.headers.get('x-event-position')!);
    const dialyzer = expectStatus(await w.get(`/filtros-dialisis/${issued.body.dialyzerId}?minPosition=${token}`), 200);
    assert.deepEqual(
      [dialyzer.body.serial, dialyzer.body.patientId, dialyzer.body.status, dialyzer.body.lot],
      ['FX-SER-1', patientId, 'assigned', 'DZ-L1'],
    );
    // The same serial again: the dialyzer is refused, and the stock takes its unit back; the refusal names that write.
    const refused = expectStatus(
      await w.post(path, { warehouseId: warehouse, quantity: 1, patientId, equipment }),
      409,
      'duplicate-serial',
    );
    const givenBack = encodeURIComponent(refused.headers.get('x-event-position') ?? 'none');
    const balances = expectStatus(await w.get(`/productos/${product.id}/saldos?minPosition=${givenBack}`), 200);
    assert.equal(balances.body.total, 2);
  });

  it('consumes a session kit once per (session, product, lot) and reports shortages instead of throwing', async () => {
    const needle = await w.product(w.a, { lotTracked: false, expiryTracked: false, category: 'needle' });
    const heparin = await w.product(w.a, { lotTracked: false, expiryTracked: false, category: 'anticoagulant' });
    const warehouse = await w.warehouse(w.a);
    await receive(needle.id as string, warehouse, 4);
    const { services, admin } = w.server;
    const ctx = {
      tenantId: admin.companyId,
      actor: 'system',
      sessionId: null,
      correlationId: 'test',
      ip: null,
      userAgent: null,
      at: w.server.clock.now().toISOString(),
    };
    const kit = {
      sessionId: 'ses-kit-1',
      warehouseId: warehouse,
      items: [
        { productId: needle.id as string, quantity: 2 },
        { productId: heparin.id as string, quantity: 1 },
      ],
    };
    const first = await consumeForSession(services, ctx, kit);
    assert.deepEqual(
      first.items.map((i) => i.status),
      ['issued', 'shortage'],
    );
    assert.deepEqual(first.items[1], {
      productId: heparin.id,
      quantity: 1,
      status: 'shortage',
      code: 'insufficient-stock',
      message: 'only 0 in stock',
      available: 0,
    });
    const replay = await consumeForSession(services, ctx, kit);
    assert.equal(replay.items[0]!.status, 'issued');
    assert.equal(
      replay.items[0]!.status === 'issued' && replay.items[0]!.movementId,
      first.items[0]!.status === 'issued' && first.items[0]!.movementId,
    );
    // Called here without HTTP, so without a consistency token: wait for the projections as a client would.
    await services.projections.waitFor(await services.events.headPosition());
    const balances = expectStatus(await w.get(`/productos/${needle.id}/saldos`), 200);
    assert.equal(balances.body.total, 2);
    const ledger = expectStatus(await w.get(`/productos/${needle.id}/kardex`), 200);
    assert.deepEqual(ledger.body.items.at(-1).details.reference, { kind: 'session', sessionId: 'ses-kit-1' });
  });
});
