// The equipment and stock widgets over real HTTP: machines, dialyzers and stock seeded through their own routes, each
// count and item appearing and leaving as the records change, permissions, another company, `days`, a module off.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startMachineUse } from '../../src/commands/monitores/machineWrites.js';
import { expectStatus, startFiltrosWorld, type FiltrosWorld, type Json } from './filtrosWorld.js';
import { dateIn, endedSessionSeeds, sessionSeeds, type EndedSessionOf, type SessionOf } from './referenceSeeds.js';
import { machineBody } from './monitoresWorld.js';
import { productBody } from './productosWorld.js';
import { unique } from './staffWorld.js';

describe('Equipment and stock widgets over HTTP', () => {
  let w: FiltrosWorld;
  let sessionOf: SessionOf;
  let endedOf: EndedSessionOf;
  let stationA: { locationId: string; stationId: string };
  let stationB: { locationId: string; stationId: string };
  let patientA: string;
  before(async () => {
    w = await startFiltrosWorld();
    sessionOf = sessionSeeds(w);
    endedOf = endedSessionSeeds(w, sessionOf);
    stationA = await stationOf(w.a);
    stationB = await stationOf(w.b);
    patientA = await w.patient(w.a);
  });
  after(async () => w?.close());

  async function stationOf(token: string): Promise<{ locationId: string; stationId: string }> {
    const locationId = expectStatus(await w.call(token, 'POST', '/empresas/actual/sedes', { json: { name: unique('Sede ') } }), 201).body
      .id as string;
    const base = `/empresas/actual/sedes/${locationId}`;
    const roomId = expectStatus(await w.call(token, 'POST', `${base}/salas`, { json: { name: 'Sala A' } }), 201).body.createdId as string;
    const stationId = expectStatus(await w.call(token, 'POST', `${base}/puestos`, { json: { code: 'P-01', roomId } }), 201).body
      .createdId as string;
    return { locationId, stationId };
  }
  const post = (path: string, json: unknown = {}, token = w.a) => w.call(token, 'POST', path, { json });
  const today = (): string => w.server.clock.now().toISOString().slice(0, 10);
  /** The widget's data once every projection has every event written so far. */
  async function data(id: string, query = '', token = w.a): Promise<Json> {
    const { services } = w.server;
    await services.projections.waitFor(await services.events.headPosition());
    const answer = expectStatus(await w.call(token, 'GET', `/widgets/${id}/datos${query}`), 200);
    assert.equal(answer.body.widgetId, id);
    return answer.body.data as Json;
  }
  const count = (body: Json, key: string): number => (body.counts as Json[]).find((c) => c.key === key)!.value as number;
  const item = (body: Json, id: string): Json | undefined => (body.items as Json[]).find((i) => i.id === id);
  const machine = async (token: string, overrides: Json = {}): Promise<string> =>
    expectStatus(await post('/monitores', machineBody(token === w.b ? stationB : stationA, overrides), token), 201).body.id as string;
  const maintained = async (id: string) =>
    expectStatus(await post(`/monitores/${id}/mantenimientos-preventivos`, { performedOn: today(), actions: 'Check' }), 200);

  it('machines-attention: PM due within days or overdue, awaiting disinfection, out of service, each leaving when resolved', async () => {
    const before = await data('machines-attention', '?limit=100');
    // The plan is every 180 days: installed 170 days ago, due in 10 days; installed in 2024, long overdue.
    const soon = await machine(w.a, { installDate: dateIn(w, -170) });
    const overdue = await machine(w.a);
    let now = await data('machines-attention', '?limit=100');
    assert.equal(count(now, 'pmDue'), count(before, 'pmDue') + 2);
    assert.deepEqual([item(now, soon)?.severity, item(now, soon)?.date], ['warning', dateIn(w, 10)]);
    assert.equal(item(now, overdue)?.severity, 'critical');
    assert.equal(now.days, 14);
    const week = await data('machines-attention', '?days=7&limit=100');
    assert.equal(item(week, soon), undefined, 'due in 10 days is not within 7');
    assert.equal(count(week, 'pmDue'), count(now, 'pmDue') - 1);
    await maintained(overdue);
    now = await data('machines-attention', '?limit=100');
    assert.equal(item(now, overdue), undefined);

    // A use ends: the machine awaits disinfection until it is disinfected.
    const s1 = await sessionOf(w.a, patientA);
    const ctx = {
      tenantId: w.server.admin.companyId,
      actor: 'test',
      sessionId: null,
      correlationId: randomUUID(),
      ip: null,
      userAgent: null,
    };
    await startMachineUse(w.server.services, { ...ctx, at: w.server.clock.now().toISOString() }, overdue, {
      sessionId: s1,
      patientId: patientA,
    });
    await endedOf(w.a, patientA, { machineId: overdue }, 240, s1);
    expectStatus(await post(`/monitores/${overdue}/fin-uso`, { sessionId: s1 }), 200);
    now = await data('machines-attention', '?limit=100');
    assert.equal(count(now, 'awaitingDisinfection'), count(before, 'awaitingDisinfection') + 1);
    assert.match(item(now, overdue)!.detail as string, /awaiting disinfection/);
    expectStatus(await post(`/monitores/${overdue}/desinfecciones`, { method: 'heat' }), 200);
    now = await data('machines-attention', '?limit=100');
    assert.equal(count(now, 'awaitingDisinfection'), count(before, 'awaitingDisinfection'));
    assert.equal(item(now, overdue), undefined);

    // A fault takes it out of service; the closed ticket with every test passed gives it back.
    const opened = expectStatus(await post(`/monitores/${overdue}/averias`, { severity: 'high', problem: 'Conductivity alarm' }), 200);
    now = await data('machines-attention', '?limit=100');
    assert.equal(count(now, 'outOfService'), count(before, 'outOfService') + 1);
    assert.deepEqual([item(now, overdue)?.severity, (now.items as Json[])[0]!.severity], ['critical', 'critical']);
    const ticket = `/monitores/${overdue}/averias/${opened.body.openTicket.ticketId}`;
    expectStatus(await post(`${ticket}/estado`, { to: 'assigned', assignedTo: 'Tech' }), 200);
    expectStatus(await post(`${ticket}/estado`, { to: 'in-progress' }), 200);
    expectStatus(await post(`${ticket}/reparacion`, { workDone: 'Cell', partsReplaced: [], downtimeHours: 2 }), 200);
    expectStatus(await post(`${ticket}/cierre`, { tests: [{ name: 'alarms', passed: true }] }), 200);
    now = await data('machines-attention', '?limit=100');
    assert.equal(count(now, 'outOfService'), count(before, 'outOfService'));
    assert.equal(item(now, overdue), undefined);
    // Listed for two reasons, a machine is one row: both reasons, the more urgent severity, the date its PM falls due.
    expectStatus(await post(`/monitores/${soon}/averias`, { severity: 'low', problem: 'Display' }), 200);
    now = await data('machines-attention', '?limit=100');
    assert.equal((now.items as Json[]).filter((i) => i.id === soon).length, 1);
    assert.deepEqual(item(now, soon), {
      id: soon,
      label: item(now, soon)!.label,
      detail: `out of service; preventive maintenance due by ${dateIn(w, 10)}`,
      date: dateIn(w, 10),
      severity: 'critical',
    });
  });

  it("never counts another company's machines or products", async () => {
    const [machines, stock] = [await data('machines-attention', '?limit=100'), await data('stock-attention', '?limit=100')];
    const theirs = await machine(w.b);
    expectStatus(await post(`/monitores/${theirs}/averias`, { severity: 'high', problem: 'Leak' }, w.b), 200);
    const product = expectStatus(await post('/productos', productBody({ minimumStock: 50 }), w.b), 201).body.id as string;
    const [afterMachines, afterStock] = [await data('machines-attention', '?limit=100'), await data('stock-attention', '?limit=100')];
    assert.deepEqual(afterMachines.counts, machines.counts);
    assert.deepEqual(afterStock.counts, stock.counts);
    assert.equal(item(afterMachines, theirs), undefined);
    const own = await data('machines-attention', '?limit=100', w.b);
    assert.equal(item(own, theirs)?.severity, 'critical');
    assert.ok(item(await data('stock-attention', '?limit=100', w.b), product));
  });

  it('dialyzers-attention: near the maximum uses of its model, then falling TCV, and gone when discarded', async () => {
    const policy = expectStatus(await w.call(w.a, 'GET', '/empresas/actual/politica'), 200);
    const settings = { dialyzerReuse: { modelOverrides: [{ model: 'FX-W', maxUses: 3 }], tcvThresholdPercent: 80.5 } };
    const headers = { 'if-match': policy.headers.get('etag')! };
    expectStatus(await w.call(w.a, 'PUT', '/empresas/actual/politica', { json: { settings, reason: 'FX-W insert' }, headers }), 200);
    const before = await data('dialyzers-attention', '?limit=100');
    const id = await w.assigned(w.a, patientA, { model: 'FX-W' });
    assert.equal(item(await data('dialyzers-attention', '?limit=100'), id), undefined, 'no use yet: 3 left');
    expectStatus(await w.post(w.a, id, 'usos', { sessionId: await endedOf(w.a, patientA, { dialyzerId: id }), patientId: patientA }), 200);
    let now = await data('dialyzers-attention', '?limit=100');
    assert.equal(count(now, 'nearMaxUses'), count(before, 'nearMaxUses') + 1);
    assert.equal(item(now, id)?.detail, '1 of 3 uses');
    const cycle = (tcvMl: number): Json => ({
      operatorId: 'tech-01',
      reprocessor: { kind: 'machine', name: 'Renatron II' },
      tcvMl,
      pressureLeak: 'pass',
      bloodLeak: 'pass',
      germicide: { name: 'Peracidin', lot: 'G-77', concentrationPercent: 3.5 },
      fillTime: w.server.clock.now().toISOString(),
      storageLocation: 'Rack A-3',
      expiresOn: dateIn(w, 20),
    });
    // 85.2 % is under the threshold 80.5 % + the 5 points of the alerts' margin.
    expectStatus(await w.post(w.a, id, 'reprocesos', cycle(85.2)), 200);
    now = await data('dialyzers-attention', '?limit=100');
    assert.equal(count(now, 'fallingTcv'), count(before, 'fallingTcv') + 1);
    assert.match(item(now, id)!.detail as string, /1 of 3 uses; TCV 85.2 % of baseline \(discarded below 80.5 %\)/);
    expectStatus(await w.post(w.a, id, 'descarte', { reason: 'pressure-leak-failed' }), 200);
    now = await data('dialyzers-attention', '?limit=100');
    assert.deepEqual(now.counts, before.counts);
    assert.equal(item(now, id), undefined);
    expectStatus(await w.call(w.b, 'GET', '/widgets/dialyzers-attention/datos'), 200);
  });

  it('stock-attention: below minimum until stock comes in, lots expiring within days, expired, gone when used up', async () => {
    const warehouse = expectStatus(
      await post('/productos/almacenes', { locationId: stationA.locationId, code: unique('ALM-'), name: 'Farmacia', kind: 'pharmacy' }),
      201,
    ).body.id as string;
    const before = await data('stock-attention', '?limit=100');
    const product = expectStatus(await post('/productos', productBody({ minimumStock: 5, prescriptionDrug: false })), 201).body
      .id as string;
    let now = await data('stock-attention', '?limit=100');
    assert.equal(count(now, 'belowMinimum'), count(before, 'belowMinimum') + 1);
    assert.match(item(now, product)!.detail as string, /stock 0 vial below the minimum 5/);
    const receive = (lot: string, quantity: number, expiry: string) =>
      post(`/productos/${product}/ingresos`, { warehouseId: warehouse, quantity, lot, expiry, supplier: 'S', documentNumber: 'D' });
    expectStatus(await receive('L-SOON', 3, dateIn(w, 30)), 201);
    now = await data('stock-attention', '?limit=100');
    const lotId = (now.items as Json[]).find((i) => (i.detail as string).startsWith('lot L-SOON'))!.id as string;
    assert.deepEqual([item(now, lotId)?.date, item(now, lotId)?.severity], [dateIn(w, 30), 'warning']);
    assert.equal(count(now, 'lotsExpiring'), count(before, 'lotsExpiring') + 1);
    const shorter = await data('stock-attention', '?days=20&limit=100');
    assert.equal(item(shorter, lotId), undefined);
    assert.equal(count(shorter, 'lotsExpiring'), count(now, 'lotsExpiring') - 1);
    expectStatus(await receive('L-LATE', 10, dateIn(w, 400)), 201);
    now = await data('stock-attention', '?limit=100');
    assert.equal(item(now, product), undefined, '13 units: no longer below the minimum 5');
    assert.equal(count(now, 'belowMinimum'), count(before, 'belowMinimum'));
    // Every unit of the lot issued: it leaves the list.
    expectStatus(await post(`/productos/${product}/salidas`, { warehouseId: warehouse, quantity: 3, lot: 'L-SOON' }), 201);
    now = await data('stock-attention', '?limit=100');
    assert.equal(item(now, lotId), undefined);
    assert.equal(count(now, 'lotsExpiring'), count(before, 'lotsExpiring'));
    // A lot left to expire: counted as expired once its day is past.
    expectStatus(await receive('L-OLD', 2, dateIn(w, 1)), 201);
    w.server.clock.advance(3 * 86_400_000);
    await w.refreshSessions();
    now = await data('stock-attention', '?limit=100');
    const old = (now.items as Json[]).find((i) => (i.detail as string).startsWith('lot L-OLD'))!;
    assert.equal(old.severity, 'critical');
    assert.match(old.detail as string, /expired/);
    assert.equal(count(now, 'lotsExpired'), count(before, 'lotsExpired') + 1);
  });

  it('the pharmacist sees stock but not machines (403, not in the catalog); a module switched off answers 403 module-disabled', async () => {
    const pharmacist = await w.withRole('pharmacist');
    expectStatus(await w.call(pharmacist, 'GET', '/widgets/stock-attention/datos'), 200);
    const refused = expectStatus(await w.call(pharmacist, 'GET', '/widgets/machines-attention/datos'), 403);
    assert.match(JSON.stringify(refused.body), /monitores:read/);
    expectStatus(await w.call(pharmacist, 'GET', '/widgets/dialyzers-attention/datos'), 403);
    const catalog = expectStatus(await w.call(pharmacist, 'GET', '/widgets/catalogo'), 200);
    const ids = (catalog.body.items as Json[]).map((i) => i.id);
    assert.ok(ids.includes('stock-attention'));
    assert.ok(!ids.includes('machines-attention') && !ids.includes('dialyzers-attention'));
    expectStatus(await w.call(w.a, 'GET', '/widgets/stock-attention/datos?date=2025-01-01'), 422);

    const company = expectStatus(await w.call(w.a, 'GET', '/empresas/actual'), 200).body;
    const modules = company.modules as string[];
    const off = modules.filter((m) => m !== 'Monitores');
    expectStatus(await w.call(w.a, 'PUT', '/empresas/actual/modulos', { json: { modules: off, reason: 'no machines' } }), 200);
    try {
      const disabled = expectStatus(await w.call(w.a, 'GET', '/widgets/machines-attention/datos'), 403);
      assert.equal(disabled.body.type, '/problems/module-disabled');
      expectStatus(await w.call(w.a, 'GET', '/widgets/stock-attention/datos'), 200);
      const listed = (expectStatus(await w.call(w.a, 'GET', '/widgets/catalogo'), 200).body.items as { id: string }[]).map((i) => i.id);
      assert.ok(!listed.includes('machines-attention') && listed.includes('stock-attention'), listed.join());
    } finally {
      expectStatus(await w.call(w.a, 'PUT', '/empresas/actual/modulos', { json: { modules, reason: 'back' } }), 200);
    }
    expectStatus(await w.call(w.a, 'GET', '/widgets/machines-attention/datos'), 200);
  });
});
