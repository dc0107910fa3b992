// The supplies of a session over real HTTP (issue 11 item 3): a patient's kit and a medication given with its product
// and lot leave stock once when the session ends - not again on a replay of the process manager from the start, nor
// after a rebuild of the Productos read model; a shortage is a refused consequence and an alert, never a negative
// balance; the kit routes (If-Match on replacement, 422 naming the field, history, the company default as fallback).
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { startProcessManagers } from '../../src/processes/processRunner.js';
import { sessionSupplies } from '../../src/processes/sessionSupplies.js';
import { productBody } from './productosWorld.js';
import { expectStatus, pointers, startDialisisWorld, unique, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Productos and Dialisis: the supplies of a session', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const put = (path: string, json: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
    w.call(w.a, 'PUT', path, { json, headers });
  const plusDays = (n: number): string => w.dateIn(n);

  const product = async (overrides: Json): Promise<string> =>
    expectStatus(await s.post(w.a, '/productos', productBody({ minimumStock: 0, ...overrides })), 201).body.id as string;
  const supply = (category: string, name: string) =>
    product({ category, name, unit: 'unit', lotTracked: false, expiryTracked: false, prescriptionDrug: false });
  const warehouse = async (): Promise<string> => {
    const json = { locationId: w.stationA.locationId, code: unique('ALM-'), name: 'Almacén de sala', kind: 'ward' };
    return expectStatus(await s.post(w.a, '/productos/almacenes', json), 201).body.id as string;
  };
  const receive = async (productId: string, warehouseId: string, quantity: number, lot?: string) => {
    const json = {
      warehouseId,
      quantity,
      supplier: 'Droguería Sur',
      documentNumber: 'F001-9',
      ...(lot ? { lot, expiry: plusDays(300) } : {}),
    };
    expectStatus(await s.post(w.a, `/productos/${productId}/ingresos`, json), 201);
    // The balances are a read model: the reads below pass no minPosition, so the receipt must be projected first.
    const { events, projections } = w.server.services;
    assert.ok(await projections.waitFor(await events.headPosition()), 'the read models reach the log head');
  };
  const total = async (productId: string): Promise<number> => expectStatus(await s.get(`/productos/${productId}/saldos`), 200).body.total;
  const sessionIssues = async (productId: string, sessionId: string): Promise<Json[]> =>
    (expectStatus(await s.get(`/productos/${productId}/kardex`), 200).body.items as Json[]).filter(
      (line) => line.type === 'StockIssued' && (line.details.reference as Json | undefined)?.sessionId === sessionId,
    );
  const supplies = async (sessionId: string): Promise<Json[]> =>
    (expectStatus(await s.get(s.sessionPath(sessionId)), 200).body.consequences as Json[]).filter((c) => c.kind === 'supply');

  /** Replays the supplies process manager over the whole log, as after a lost checkpoint (its own, fresh). */
  async function replaySupplies(): Promise<void> {
    const { events, reads, logger } = w.server.services;
    const services = w.server.services;
    const replay = startProcessManagers({ events, reads, logger, services: () => services }, [
      { ...sessionSupplies, name: unique('session-supplies-replay-') },
    ]);
    try {
      assert.equal(await replay.waitFor(await events.headPosition(), 20_000), true);
    } finally {
      await replay.stop();
    }
  }

  it("consumes the patient's kit and the medications given with a product once: not again on a replay nor after a rebuild", async () => {
    const needles = await supply('needle', 'Fistula needle 15G');
    const saline = await supply('saline', 'Saline 0.9 % 1 L');
    const iron = await product({ category: 'iron', name: 'Iron sucrose 100 mg', unit: 'vial' });
    const store = await warehouse();
    await receive(needles, store, 10);
    await receive(saline, store, 5);
    await receive(iron, store, 3, 'FE-1');
    await receive(iron, store, 4, 'FE-2');

    const patientId = await s.prescribedPatient();
    const kitPath = `/productos/kits/pacientes/${patientId}`;
    const items = [
      { productId: needles, quantity: 2 },
      { productId: saline, quantity: 1 },
    ];
    const kit = expectStatus(await put(kitPath, { warehouseId: store, items }), 200);
    assert.equal(kit.headers.get('etag'), 'W/"0"');
    assert.deepEqual(
      (kit.body.items as Json[]).map((i) => [i.productId, i.quantity, i.name]),
      [
        [needles, 2, 'Fistula needle 15G'],
        [saline, 1, 'Saline 0.9 % 1 L'],
      ],
    );

    const session = await s.startedSession(patientId);
    const medication = { drug: 'Iron sucrose', dose: 100, unit: 'mg', route: 'iv-venous-line', at: s.at(0), given: true };
    expectStatus(await s.post(w.nurse.token, `${session.path}/medicaciones`, { ...medication, lot: 'FE-1', productId: iron }), 200);
    const refused = await s.post(w.nurse.token, `${session.path}/medicaciones`, { ...medication, productId: randomUUID() });
    assert.deepEqual(pointers(expectStatus(refused, 422, 'validation-failed')), ['/body/productId']);
    const notGiven = { ...medication, given: false, reasonNotGiven: 'hypotension', productId: iron, stockQuantity: 2 };
    expectStatus(await s.post(w.nurse.token, `${session.path}/medicaciones`, notGiven), 200);
    const ended = expectStatus(await s.post(w.nurse.token, `${session.path}/fin`), 200);
    await s.processed(ended);

    const expectOnce = async () => {
      assert.equal(await total(needles), 8);
      assert.equal(await total(saline), 4);
      assert.equal(await total(iron), 6);
      const lots = expectStatus(await s.get(`/productos/${iron}/saldos`), 200).body.warehouses[0].lots as Json[];
      assert.deepEqual(lots.map((l) => [l.lot, l.quantity]).sort(), [
        ['FE-1', 2],
        ['FE-2', 4],
      ]);
      for (const [productId, quantity] of [
        [needles, -2],
        [saline, -1],
        [iron, -1],
      ] as const) {
        const issues = await sessionIssues(productId, session.sessionId);
        assert.deepEqual(
          issues.map((i) => i.quantity),
          [quantity],
        );
      }
      const recorded = await supplies(session.sessionId);
      assert.deepEqual(
        recorded.map((c) => [c.itemId, c.outcome]).sort(),
        [
          [`${iron}:FE-1`, 'applied'],
          [needles, 'applied'],
          [saline, 'applied'],
        ].sort(),
      );
    };
    await expectOnce();

    await replaySupplies();
    await expectOnce();

    await w.server.services.projections.rebuild('productos');
    await expectOnce();
  });

  it('a shortage is a refused supply and an alert, the balance untouched; the company default kit serves a patient without one', async () => {
    const gauze = await supply('dressing', 'Gauze pack');
    const store = await warehouse();
    await receive(gauze, store, 2);
    const path = '/productos/kits/predeterminado';
    expectStatus(await put(path, { warehouseId: store, items: [{ productId: gauze, quantity: 5 }] }), 200);

    const patientId = await s.prescribedPatient();
    const session = await s.startedSession(patientId);
    const interrupted = expectStatus(await s.post(w.nurse.token, `${session.path}/interrupcion`, { reasonCode: 'access-problem' }), 200);
    await s.processed(interrupted);

    const [consequence] = await supplies(session.sessionId);
    assert.equal(consequence!.itemId, gauze);
    assert.equal(consequence!.outcome, 'refused');
    assert.equal(consequence!.code, 'insufficient-stock');
    assert.equal(await total(gauze), 2);
    assert.deepEqual(await sessionIssues(gauze, session.sessionId), []);
    const alerts = expectStatus(await s.get(`/dialisis/alertas?desde=${s.today()}&hasta=${s.today()}&pacienteId=${patientId}`), 200);
    const alert = (alerts.body.items as Json[]).find((a) => a.kind === 'consequence-refused' && a.sessionId === session.sessionId);
    assert.ok(alert, JSON.stringify(alerts.body));
    assert.equal(alert.field, 'supply');

    // Stock arriving later does not make a replay consume what was refused at the end.
    await receive(gauze, store, 10);
    await replaySupplies();
    assert.equal(await total(gauze), 12);
    assert.equal((await supplies(session.sessionId)).length, 1);
  });

  it('kit routes: If-Match on replacement, 422 naming the field, 404 for another company, history, removal', async () => {
    const needles = await supply('needle', 'Needle 16G');
    const saline = await supply('saline', 'Saline 500 mL');
    const store = await warehouse();
    const patientId = await s.prescribedPatient();
    const path = `/productos/kits/pacientes/${patientId}`;
    expectStatus(await s.get(path), 404);
    const body = { warehouseId: store, items: [{ productId: needles, quantity: 2 }] };
    expectStatus(await put(path, body), 200);
    const replacement = { warehouseId: store, items: [{ productId: saline, quantity: 1 }], reason: 'New protocol' };
    expectStatus(await put(path, replacement), 428);
    expectStatus(await put(path, replacement, { 'If-Match': 'W/"7"' }), 412);
    const replaced = expectStatus(await put(path, replacement, { 'If-Match': 'W/"0"' }), 200);
    assert.equal(replaced.headers.get('etag'), 'W/"1"');
    const read = expectStatus(await s.get(path), 200);
    assert.equal(read.headers.get('etag'), 'W/"1"');
    assert.deepEqual(read.body.items, [
      { productId: saline, quantity: 1, code: read.body.items[0].code, name: 'Saline 500 mL', unit: 'unit' },
    ]);

    const invalid = {
      warehouseId: patientId,
      items: [
        { productId: saline, quantity: 1 },
        { productId: saline, quantity: 2 },
        { productId: store, quantity: 1 },
      ],
    };
    const refused = expectStatus(await put(path, invalid, { 'If-Match': 'W/"1"' }), 422, 'validation-failed');
    assert.deepEqual(pointers(refused), ['/body/items/1/productId', '/body/items/2/productId', '/body/warehouseId']);
    expectStatus(await s.post(w.a, `/productos/${saline}/desactivacion`, { reason: 'Discontinued' }), 200);
    const inactive = expectStatus(await put(path, replacement, { 'If-Match': 'W/"1"' }), 422, 'validation-failed');
    assert.deepEqual(pointers(inactive), ['/body/items/0/productId']);
    const again = expectStatus(
      await put(path, { ...replacement, items: [{ productId: needles, quantity: 2 }] }, { 'If-Match': 'W/"1"' }),
      200,
    );
    expectStatus(await put(path, { ...replacement, items: [{ productId: needles, quantity: 2 }] }, { 'If-Match': 'W/"2"' }), 200);
    assert.equal(again.headers.get('etag'), 'W/"2"');

    const otherCompanys = await w.patient(w.b);
    expectStatus(await put(`/productos/kits/pacientes/${otherCompanys}`, body), 404);
    expectStatus(await w.call(w.b, 'GET', path), 404);

    const history = expectStatus(await s.get(`${path}/historial`), 200);
    assert.deepEqual(
      (history.body.items as Json[]).map((e) => [e.type, e.reason]),
      [
        ['SupplyKitSet', null],
        ['SupplyKitSet', 'New protocol'],
        ['SupplyKitSet', 'New protocol'],
      ],
    );
    const removed = expectStatus(await w.call(w.a, 'DELETE', path), 204);
    expectStatus(await s.get(`${path}?minPosition=${encodeURIComponent(removed.headers.get('x-event-position')!)}`), 404);
    expectStatus(await s.get(`${path}/historial`), 200);
    expectStatus(await w.call(w.a, 'DELETE', path), 404);
    expectStatus(await put(path, body), 200);
  });
});
