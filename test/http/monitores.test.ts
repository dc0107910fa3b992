// Monitores end to end over real HTTP: registration with unique code and serial, list, read, corrections with If-Match,
// the lifecycle of use, disinfection, maintenance and tickets, the may-start verdict, tenancy and permissions.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startMonitoresWorld, unique, type Json, type MonitoresWorld, machineBody } from './monitoresWorld.js';
import { randomUUID } from 'node:crypto';
import { startMachineUse } from '../../src/commands/monitores/machineWrites.js';
import { endedSessionSeeds, sessionSeeds, type EndedSessionOf, type SessionOf } from './referenceSeeds.js';

describe('Monitores over HTTP', () => {
  let w: MonitoresWorld;
  let sessionOf: SessionOf;
  let endedOf: EndedSessionOf;
  before(async () => {
    w = await startMonitoresWorld();
    sessionOf = sessionSeeds(w);
    endedOf = endedSessionSeeds(w, sessionOf);
  });
  after(async () => w?.close());

  const post = (path: string, json: unknown = {}, token = w.a) => w.call(token, 'POST', path, { json });

  it('registers a machine and reads it back with ETag, Location, status and its next preventive maintenance', async () => {
    const created = await w.register(w.a, { code: ' M-ALFA ' });
    const id = created.body.id as string;
    assert.equal(created.headers.get('location'), `/monitores/${id}`);
    assert.equal(created.headers.get('etag'), 'W/"0"');
    assert.ok(created.headers.get('x-event-position'));
    assert.equal(created.body.code, 'M-ALFA');
    assert.equal(created.body.status, 'available');
    assert.deepEqual([created.body.hourMeter, created.body.sessionCount], [0, 0]);
    assert.deepEqual(created.body.maintenance, { hoursLeft: 1500, dueDate: '2024-11-28', overdue: true, everyHours: 1500, everyDays: 180 });
    const read = expectStatus(await w.call(w.a, 'GET', `/monitores/${id}`), 200);
    assert.equal(read.headers.get('etag'), 'W/"0"');
    const list = expectStatus(await w.call(w.a, 'GET', '/monitores?estado=available&limit=200'), 200);
    assert.ok(list.body.items.some((m: Json) => m.id === id));
  });

  it('refuses a station that is not of the company (422 naming stationId)', async () => {
    const answer = await w.call(w.a, 'POST', '/monitores', { json: machineBody(w.stationB) });
    assert.deepEqual(pointers(expectStatus(answer, 422, 'validation-failed')), ['/body/stationId']);
  });

  it("a correction that moves the machine names a station of the company: 404 for another company's machine, then 422, then 412", async () => {
    const created = await w.register(w.a);
    const path = `/monitores/${created.body.id}`;
    const move = (station: { locationId: string; stationId: string }, etag: string, token = w.a) =>
      w.call(token, 'PATCH', path, { json: { ...station, reason: 'moved' }, headers: { 'if-match': etag } });
    const absent = expectStatus(await move(w.stationB, 'W/"0"', w.b), 404, 'not-found');
    assert.equal(absent.body.detail, 'Machine not found');
    const refused = expectStatus(await move(w.stationB, 'W/"7"'), 422, 'validation-failed');
    assert.deepEqual(pointers(refused), ['/body/stationId']);
    assert.equal(refused.body.detail, 'stationId: no such station at that location of this company');
    expectStatus(await move(w.stationA, 'W/"7"'), 412);
    expectStatus(await move(w.stationA, 'W/"0"'), 200);
  });

  it('keeps code and serial unique within a company, also under concurrent registrations (409); another company may reuse them', async () => {
    const first = await w.register(w.a);
    const again = await w.call(w.a, 'POST', '/monitores', {
      json: machineBody(w.stationA, { code: ` ${String(first.body.code).toLowerCase()} ` }),
    });
    expectStatus(again, 409, 'duplicate-code');
    const serial = await w.call(w.a, 'POST', '/monitores', { json: machineBody(w.stationA, { serial: first.body.serial }) });
    expectStatus(serial, 409, 'duplicate-serial');
    await w.register(w.b, { code: first.body.code, serial: first.body.serial });
    const racing = machineBody(w.stationA);
    const answers = await Promise.all([0, 1].map(() => w.call(w.a, 'POST', '/monitores', { json: racing })));
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 409]);
  });

  it('corrects with If-Match and a reason: 428 without it, 412 when stale; a new code frees the old one', async () => {
    const created = await w.register(w.a);
    const path = `/monitores/${created.body.id}`;
    expectStatus(await w.call(w.a, 'PATCH', path, { json: { model: '5008S', reason: 'typo' } }), 428, 'precondition-required');
    const newCode = unique('M-NEW-');
    const fixed = expectStatus(
      await w.call(w.a, 'PATCH', path, { json: { model: '5008S', code: newCode, reason: 'typo' }, headers: { 'if-match': 'W/"0"' } }),
      200,
    );
    assert.deepEqual([fixed.body.model, fixed.body.code, fixed.headers.get('etag')], ['5008S', newCode, 'W/"1"']);
    expectStatus(await w.call(w.a, 'PATCH', path, { json: { model: 'x', reason: 'x' }, headers: { 'if-match': 'W/"0"' } }), 412);
    await w.register(w.a, { code: created.body.code });
  });

  it('runs a use, awaits disinfection, disinfects, and tells it all in the history', async () => {
    const id = (await w.register(w.a, { installDate: '2025-01-01' })).body.id as string;
    const patientId = await w.patient(w.a);
    // The test clock starts years after install: record a maintenance so the plan is not overdue by days.
    expectStatus(await post(`/monitores/${id}/mantenimientos-preventivos`, { performedOn: today(), actions: 'Initial check' }), 200);
    // The session's start claims the machine (as POST .../inicio does); a session that has not ended records no use by hand.
    const [s1, s2] = [await sessionOf(w.a, patientId), await sessionOf(w.a, patientId)];
    const claimed = await startMachineUse(w.server.services, startCtx(), id, { sessionId: s1, patientId });
    assert.equal(claimed.state.status, 'in-use');
    expectStatus(await post(`/monitores/${id}/usos`, { sessionId: s2, patientId }), 409, 'session-not-ended');
    expectStatus(await post(`/monitores/${id}/fin-uso`, { sessionId: s1 }), 409, 'session-not-ended');
    // Another session of the patient that ended on it (charted after a downtime): its 1 h 30 min count, the holder keeps it.
    const earlier = await endedOf(w.a, patientId, { machineId: id }, 90);
    const counted = expectStatus(await post(`/monitores/${id}/usos`, { sessionId: earlier, patientId }), 200);
    assert.deepEqual([counted.body.status, counted.body.hourMeter, counted.body.sessionCount], ['in-use', 1.5, 1]);
    // Once the holder has ended (4 h 30 min), fin-uso gives the machine back as its end does, with its hours.
    await endedOf(w.a, patientId, { machineId: id }, 270, s1);
    const ended = expectStatus(await post(`/monitores/${id}/fin-uso`, { sessionId: s1 }), 200);
    assert.deepEqual([ended.body.status, ended.body.hourMeter, ended.body.sessionCount], ['awaiting-disinfection', 6, 2]);
    const verdict = expectStatus(await w.call(w.a, 'GET', `/monitores/${id}/puede-iniciar?pacienteId=${patientId}`), 200);
    assert.deepEqual(
      verdict.body.reasons.map((r: Json) => r.code),
      ['awaiting-disinfection'],
    );
    const clean = expectStatus(
      await post(`/monitores/${id}/desinfecciones`, { method: 'heat + citric acid', chemical: 'citric acid', lot: 'L-1' }),
      200,
    );
    assert.equal(clean.body.status, 'available');
    assert.equal(clean.body.lastDisinfection.afterSessionId, s1);
    const calibrated = expectStatus(
      await post(`/monitores/${id}/calibraciones`, {
        parameter: 'conductivity',
        reference: 14,
        measured: 14.1,
        unit: 'mS/cm',
        passed: true,
      }),
      200,
    );
    assert.equal(calibrated.body.lastCalibration.passed, true);
    const ok = expectStatus(await w.call(w.a, 'GET', `/monitores/${id}/puede-iniciar?pacienteId=${patientId}`), 200);
    assert.deepEqual(ok.body, { allowed: true, reasons: [], warnings: [] });
    const history = expectStatus(await w.call(w.a, 'GET', `/monitores/${id}/historial`), 200);
    assert.deepEqual(
      history.body.items.map((e: Json) => e.type),
      [
        'MachineRegistered',
        'PreventiveMaintenancePerformed',
        'MachineUseStarted',
        'MachineUseEnded',
        'MachineUseEnded',
        'MachineDisinfected',
        'MachineCalibrated',
      ],
    );
  });

  it('a machine past its PM hours answers may not start, with the reason', async () => {
    const model = unique('Model-');
    const policy = expectStatus(await w.call(w.a, 'GET', '/empresas/actual/politica'), 200);
    const settings = {
      maintenance: { modelOverrides: [{ model, preventiveEveryHours: 50, preventiveEveryDays: 365 }] },
      disinfection: { requiredBetweenPatients: false },
    };
    expectStatus(
      await w.call(w.a, 'PUT', '/empresas/actual/politica', {
        json: { settings, reason: 'manufacturer plan' },
        headers: { 'if-match': policy.headers.get('etag')! },
      }),
      200,
    );
    const id = (await w.register(w.a, { model })).body.id as string;
    const patientId = await w.patient(w.a);
    expectStatus(await post(`/monitores/${id}/mantenimientos-preventivos`, { performedOn: today(), actions: 'Initial check' }), 200);
    for (let i = 0; i < 3; i++) {
      const session = await endedOf(w.a, patientId, { machineId: id }, 20 * 60);
      expectStatus(await post(`/monitores/${id}/usos`, { sessionId: session, patientId }), 200);
    }
    const machine = expectStatus(await w.call(w.a, 'GET', `/monitores/${id}`), 200);
    assert.deepEqual([machine.body.status, machine.body.maintenance.hoursLeft, machine.body.maintenance.overdue], ['available', -10, true]);
    const verdict = expectStatus(await w.call(w.a, 'GET', `/monitores/${id}/puede-iniciar?pacienteId=${patientId}`), 200);
    assert.equal(verdict.body.allowed, false);
    assert.deepEqual(
      verdict.body.reasons.map((r: Json) => r.code),
      ['maintenance-overdue'],
    );
    assert.match(verdict.body.reasons[0].message, /10 operating hours/);
    const fourth = await sessionOf(w.a, patientId);
    const refused = startMachineUse(w.server.services, startCtx(), id, { sessionId: fourth, patientId });
    await assert.rejects(refused, (err: Error & { code?: string }) => err.code === 'may-not-start' && err.message.includes('overdue'));
    const fresh = (await w.register(w.a)).body.id as string;
    expectStatus(await post(`/monitores/${fresh}/mantenimientos-preventivos`, { performedOn: today(), actions: 'Initial check' }), 200);
    const due = expectStatus(await w.call(w.a, 'GET', '/monitores?pmVenceEnDias=7'), 200);
    assert.ok(due.body.items.some((m: Json) => m.id === id));
    assert.ok(!due.body.items.some((m: Json) => m.id === fresh));
    assert.equal(due.body.nextCursor, null);
  });

  it('refuses a patient of another isolation either way', async () => {
    const hbvMachine = (await w.register(w.a, { isolation: 'HBV' })).body.id as string;
    const patientId = await w.patient(w.a);
    const verdict = expectStatus(await w.call(w.a, 'GET', `/monitores/${hbvMachine}/puede-iniciar?pacienteId=${patientId}`), 200);
    assert.ok(verdict.body.reasons.some((r: Json) => r.code === 'isolation-machine'));
    const hbvPatient = await w.patient(w.a, { serology: [{ test: 'HBsAg', result: 'positive', sampleDate: '2025-01-15' }] });
    const plain = (await w.register(w.a)).body.id as string;
    const other = expectStatus(await w.call(w.a, 'GET', `/monitores/${plain}/puede-iniciar?pacienteId=${hbvPatient}`), 200);
    assert.ok(other.body.reasons.some((r: Json) => r.code === 'isolation-patient'));
    const foreign = await w.patient(w.b);
    expectStatus(await w.call(w.a, 'GET', `/monitores/${plain}/puede-iniciar?pacienteId=${foreign}`), 422, 'validation-failed');
  });

  it('isolation as sets: a patient co-infected with HBV and HCV on a machine serving both; HCV machines are company policy', async () => {
    const serology = (tests: string[]) => tests.map((test) => ({ test, result: 'positive', sampleDate: '2025-01-15' }));
    const coInfected = await w.patient(w.a, { serology: serology(['HBsAg', 'antiHCV']) });
    const hbvOnly = await w.patient(w.a, { serology: serology(['HBsAg']) });
    const both = (await w.register(w.a, { isolation: ['HCV', 'HBV'] })).body;
    const hbv = (await w.register(w.a, { isolation: 'HBV' })).body.id as string;
    const isolationCodes = async (machine: string, patient: string): Promise<string[]> => {
      const verdict = expectStatus(await w.call(w.a, 'GET', `/monitores/${machine}/puede-iniciar?pacienteId=${patient}`), 200);
      return verdict.body.reasons.map((r: Json) => r.code as string).filter((c: string) => c.startsWith('isolation'));
    };
    assert.deepEqual(await isolationCodes(both.id, coInfected), []);
    // By default only HBV needs a machine of its own (shared/domain.md): the co-infected patient may use an HBV machine.
    assert.deepEqual(await isolationCodes(hbv, coInfected), []);
    // A machine that serves HCV never takes a patient without HCV.
    assert.deepEqual(await isolationCodes(both.id, hbvOnly), ['isolation-machine']);
    // The company dedicates machines to HCV too: now the co-infected patient needs a machine serving HCV.
    const policy = expectStatus(await w.call(w.a, 'GET', '/empresas/actual/politica'), 200);
    const settings = { isolation: { dedicatedMachineFor: ['HBV', 'HCV'] } };
    const put = await w.call(w.a, 'PUT', '/empresas/actual/politica', {
      json: { settings, reason: 'HCV machines' },
      headers: { 'if-match': policy.headers.get('etag')! },
    });
    expectStatus(put, 200);
    assert.deepEqual(await isolationCodes(hbv, coInfected), ['isolation-patient']);
    assert.deepEqual(await isolationCodes(both.id, coInfected), []);
    const read = expectStatus(await w.call(w.a, 'GET', `/monitores/${both.id}`), 200);
    assert.deepEqual(read.body.isolation, ['HBV', 'HCV']);
  });

  it('a corrective ticket closed with a failed test leaves the machine out of service; all passed restores the status', async () => {
    const id = (await w.register(w.a)).body.id as string;
    const opened = expectStatus(await post(`/monitores/${id}/averias`, { severity: 'high', problem: 'Conductivity alarm' }), 200);
    assert.equal(opened.body.status, 'corrective-maintenance');
    const ticket = `/monitores/${id}/averias/${opened.body.openTicket.ticketId}`;
    expectStatus(await post(`${ticket}/cierre`, { tests: [{ name: 'alarms', passed: true }] }), 409, 'ticket-transition');
    expectStatus(await post(`${ticket}/estado`, { to: 'assigned', assignedTo: 'Biomedical tech' }), 200);
    expectStatus(await post(`${ticket}/estado`, { to: 'in-progress' }), 200);
    expectStatus(await post(`${ticket}/estado`, { to: 'waiting-for-part', part: 'conductivity cell' }), 200);
    expectStatus(await post(`${ticket}/estado`, { to: 'in-progress' }), 200);
    const repair = {
      workDone: 'Cell replaced',
      partsReplaced: [{ name: 'conductivity cell', quantity: 1 }],
      cost: { amount: 350, currency: 'PEN' },
      downtimeHours: 30,
    };
    expectStatus(await post(`${ticket}/reparacion`, repair), 200);
    const failed = expectStatus(
      await post(`${ticket}/cierre`, {
        tests: [
          { name: 'conductivity', passed: true },
          { name: 'alarms', passed: false },
        ],
      }),
      200,
    );
    assert.deepEqual([failed.body.status, failed.body.openTicket], ['out-of-service', null]);
    // A second ticket, this time passing, gives back what the machine was before the first fault.
    const second = expectStatus(await post(`/monitores/${id}/averias`, { severity: 'medium', problem: 'Alarm still failing' }), 200);
    const again = `/monitores/${id}/averias/${second.body.openTicket.ticketId}`;
    expectStatus(await post(`${again}/estado`, { to: 'assigned', assignedTo: 'Tech' }), 200);
    expectStatus(await post(`${again}/estado`, { to: 'in-progress' }), 200);
    expectStatus(await post(`${again}/reparacion`, { workDone: 'Speaker', partsReplaced: [], downtimeHours: 2 }), 200);
    const passed = expectStatus(await post(`${again}/cierre`, { tests: [{ name: 'alarms', passed: true }] }), 200);
    assert.equal(passed.body.status, 'available');
  });

  it('retires a machine for good', async () => {
    const id = (await w.register(w.a)).body.id as string;
    const retired = expectStatus(await post(`/monitores/${id}/baja`, { reason: 'End of life' }), 200);
    assert.deepEqual([retired.body.status, retired.body.retireReason, retired.body.maintenance], ['retired', 'End of life', null]);
    expectStatus(await post(`/monitores/${id}/baja`, { reason: 'again' }), 409, 'machine-retired');
  });

  it("answers 404 for another company's machine on every route with an id", async () => {
    const other = (await w.register(w.b)).body.id as string;
    const patientId = await w.patient(w.a);
    const path = `/monitores/${other}`;
    for (const [method, p, json, headers] of [
      ['GET', path, undefined, {}],
      ['PATCH', path, { model: 'x', reason: 'x' }, { 'if-match': 'W/"0"' }],
      ['GET', `${path}/historial`, undefined, {}],
      ['GET', `${path}/puede-iniciar?pacienteId=${patientId}`, undefined, {}],
      ['POST', `${path}/usos`, { sessionId: 'S-1', patientId }, {}],
      ['POST', `${path}/desinfecciones`, { method: 'heat' }, {}],
      ['POST', `${path}/averias`, { severity: 'low', problem: 'x' }, {}],
      ['POST', `${path}/baja`, { reason: 'x' }, {}],
    ] as const) {
      expectStatus(await w.call(w.a, method, p, { json, headers }), 404, 'not-found');
    }
  });

  it('a receptionist reads but may not write (403); a biomedical technician writes', async () => {
    const receptionist = await w.withRoles(['receptionist']);
    const id = (await w.register(w.a)).body.id as string;
    expectStatus(await w.call(receptionist, 'POST', '/monitores', { json: machineBody(w.stationA) }), 403);
    expectStatus(await w.call(receptionist, 'POST', `/monitores/${id}/desinfecciones`, { json: { method: 'heat' } }), 403);
    const technician = await w.withRoles(['biomedical-technician']);
    expectStatus(
      await w.call(technician, 'POST', `/monitores/${id}/calibraciones`, {
        json: { parameter: 'temperature', reference: 37, measured: 37.1, passed: true },
      }),
      200,
    );
  });

  const today = (): string => w.server.clock.now().toISOString().slice(0, 10);
  /** The context of the session start's claim (POST /dialisis/sesiones/{id}/inicio claims the machine this way). */
  const startCtx = () => ({
    tenantId: w.server.admin.companyId,
    actor: 'test-session-start',
    sessionId: null,
    correlationId: randomUUID(),
    ip: null,
    userAgent: null,
    at: w.server.clock.now().toISOString(),
  });
});
