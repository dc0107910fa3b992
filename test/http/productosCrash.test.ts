// Transfers and serialized issues that stopped in the middle (issue 21 item 16): each writes two streams, and a crash
// after the first write left the units out of the source and nowhere else. The first event is the intent; the stock
// process managers complete it (into the destination, or the serialized item) or give the units back, once.
import assert from 'node:assert/strict';
import { runStock } from '../../src/commands/productos/stockWrites.js';
import { completeTransfer } from '../../src/commands/productos/transferWrites.js';
import { productFacts } from '../../src/commands/productos/stockFactWrites.js';
import { uuidV5 } from '../../src/commands/eventIds.js';
import { expectStatus, startProductosWorld, type ProductosWorld } from './productosWorld.js';
import { commandContextFor } from './staleClaimsSupport.js';

const DAY = 86_400_000;

describe('Productos: a transfer or a serialized issue that stopped in the middle', () => {
  let w: ProductosWorld;
  before(async () => {
    w = await startProductosWorld();
  });
  after(async () => w?.close());

  const plusDays = (n: number) => new Date(w.server.clock.now().getTime() + n * DAY).toISOString().slice(0, 10);
  const ctx = () => commandContextFor(w.server, w.server.admin.companyId);
  const facts = async (productId: string) => (await productFacts(w.server.services, ctx(), productId)).facts;
  const receive = (productId: string, warehouseId: string, quantity: number, lot: string, expiry: string) =>
    w.post(`/productos/${productId}/ingresos`, { warehouseId, quantity, lot, expiry, supplier: 'S', documentNumber: 'D-1' });
  /** Waits until the process managers, then the projections, have seen everything written so far. */
  const settle = async () => {
    const { services } = w.server;
    assert.ok(await services.processes.waitFor(await services.events.headPosition()));
    assert.ok(await services.projections.waitFor(await services.events.headPosition()));
  };
  const quantities = async (productId: string) => {
    const body = expectStatus(await w.get(`/productos/${productId}/saldos`), 200).body as {
      total: number;
      warehouses: { warehouseId: string; quantity: number; lots: { expiry: string }[] }[];
    };
    return { total: body.total, by: new Map(body.warehouses.map((x) => [x.warehouseId, x])) };
  };

  it('a transfer whose in-event never came is completed: the units are in the destination, never lost', async () => {
    const product = await w.product(w.a);
    const id = product.id as string;
    const main = await w.warehouse(w.a, { kind: 'main' });
    const ward = await w.warehouse(w.a, { kind: 'ward' });
    expectStatus(await receive(id, main, 10, 'L-CRASH', plusDays(90)), 201);
    // The first half only: out of the source, then the process stopped.
    await runStock(w.server.services, ctx(), 'TransferStockOut', {
      ...(await facts(id)),
      movementId: uuidV5('crash-transfer-1'),
      productId: id,
      warehouseId: main,
      toWarehouseId: ward,
      quantity: 4,
    });
    await settle();
    const after = await quantities(id);
    assert.deepEqual([after.total, after.by.get(main)?.quantity, after.by.get(ward)?.quantity], [10, 6, 4]);
    assert.equal(after.by.get(ward)?.lots[0]?.expiry, plusDays(90));
    // Completed again (a replay from a lost checkpoint): nothing moves twice.
    const intent = {
      movementId: uuidV5('crash-transfer-1'),
      productId: id,
      fromWarehouseId: main,
      toWarehouseId: ward,
      portions: [{ lot: 'L-CRASH', expiry: plusDays(90), quantity: 4 }],
    };
    await completeTransfer(w.server.services, ctx(), intent);
    await settle();
    const again = await quantities(id);
    assert.deepEqual([again.total, again.by.get(main)?.quantity, again.by.get(ward)?.quantity], [10, 6, 4]);
  });

  it('a transfer the destination refuses is given back to the source', async () => {
    const product = await w.product(w.a);
    const id = product.id as string;
    const main = await w.warehouse(w.a, { kind: 'main' });
    const ward = await w.warehouse(w.a, { kind: 'ward' });
    expectStatus(await receive(id, main, 5, 'L-OLD', plusDays(15)), 201);
    // The ward holds the same lot with a later date, as it could before lots had one expiry company-wide.
    await runStock(w.server.services, ctx(), 'ReceiveStock', {
      ...(await facts(id)),
      movementId: uuidV5('legacy-receipt'),
      productId: id,
      warehouseId: ward,
      quantity: 2,
      lot: 'L-OLD',
      expiry: plusDays(300),
      supplier: 'S',
      documentNumber: 'D-0',
    });
    await runStock(w.server.services, ctx(), 'TransferStockOut', {
      ...(await facts(id)),
      movementId: uuidV5('crash-transfer-2'),
      productId: id,
      warehouseId: main,
      toWarehouseId: ward,
      quantity: 5,
      lot: 'L-OLD',
    });
    await settle();
    const after = await quantities(id);
    assert.deepEqual([after.total, after.by.get(main)?.quantity, after.by.get(ward)?.quantity], [7, 5, 2]);
    const ledger = expectStatus(await w.get(`/productos/${id}/kardex?almacenId=${main}`), 200);
    assert.deepEqual(
      ledger.body.items.map((m: { type: string }) => m.type),
      ['StockReceived', 'StockTransferredOut', 'StockTransferReverted'],
    );
  });

  it('a serialized issue whose dialyzer was never created gets it, assigned to the patient', async () => {
    const product = await w.product(w.a, { category: 'dialyzer', name: 'FX60', reusable: true, prescriptionDrug: false });
    const id = product.id as string;
    const warehouse = await w.warehouse(w.a);
    const patientId = await w.patient(w.a);
    expectStatus(await receive(id, warehouse, 2, 'DZ-CRASH', plusDays(400)), 201);
    const equipment = { serial: 'FX-CRASH-1', surfaceM2: 1.4, flux: 'high', membrane: 'polysulfone', baselineTcvMl: 110 };
    // The unit left the stock for the patient, then the process stopped before the dialyzer was created.
    await runStock(w.server.services, ctx(), 'IssueStock', {
      ...(await facts(id)),
      movementId: uuidV5('crash-issue-1'),
      productId: id,
      warehouseId: warehouse,
      quantity: 1,
      reference: { kind: 'patient', patientId },
      equipment,
    } as never);
    await settle();
    const dialyzerId = uuidV5(`dialyzer\u0000serialize\u0000${uuidV5('crash-issue-1')}`);
    const dialyzer = expectStatus(await w.get(`/filtros-dialisis/${dialyzerId}`), 200);
    assert.deepEqual(
      [dialyzer.body.serial, dialyzer.body.patientId, dialyzer.body.status, dialyzer.body.lot],
      ['FX-CRASH-1', patientId, 'assigned', 'DZ-CRASH'],
    );
    assert.equal((await quantities(id)).total, 1);
  });

  it('a serialized issue whose item is refused (a serial already in use) gives the unit back', async () => {
    const product = await w.product(w.a, { category: 'dialyzer', name: 'FX60', reusable: true, prescriptionDrug: false });
    const id = product.id as string;
    const warehouse = await w.warehouse(w.a);
    const patientId = await w.patient(w.a);
    expectStatus(await receive(id, warehouse, 2, 'DZ-DUP', plusDays(400)), 201);
    const equipment = { serial: 'FX-DUP-1', surfaceM2: 1.4, flux: 'high', membrane: 'polysulfone', baselineTcvMl: 110 };
    expectStatus(await w.post(`/productos/${id}/salidas`, { warehouseId: warehouse, quantity: 1, patientId, equipment }), 201);
    await runStock(w.server.services, ctx(), 'IssueStock', {
      ...(await facts(id)),
      movementId: uuidV5('crash-issue-2'),
      productId: id,
      warehouseId: warehouse,
      quantity: 1,
      reference: { kind: 'patient', patientId },
      equipment,
    } as never);
    await settle();
    assert.equal((await quantities(id)).total, 1);
  });
});
