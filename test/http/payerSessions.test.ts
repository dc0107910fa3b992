// Clientes meets the daily record (issue 11 items 6 and 7) over real HTTP: a completed session consumes one unit of
// the patient's authorization, once (also after a rebuild), a cancelled one none; a start without a valid
// authorization is blocked or flagged as the contract says; the monthly payer report lists the session with its amount.
import assert from 'node:assert/strict';
import { CLIENTES_PROJECTION } from '../../src/projections/clientes/clientesProjection.js';
import { clientBody } from './clientesWorld.js';
import { coveredPatient, openPayer } from './payerSteps.js';
import { expectStatus, pointers, startDialisisWorld, type DialisisWorld, type Json } from './dialisisWorld.js';
import { registration } from './pacientesWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Clientes and the daily record: authorizations, the start under the contract, the monthly report', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const payer = (contract: Json = {}): Promise<string> => openPayer(w, s, contract);
  const covered = (clientId: string): Promise<string> => coveredPatient(w, s, clientId, 'M-77');

  it('consumes one unit per completed session, once, and reports the session with its amount', async () => {
    const clientId = await payer();
    const patient = await covered(clientId);
    const authBody = { patientId: patient, code: 'AUT-2026-1', validFrom: w.dateIn(-1), validTo: w.dateIn(30), sessionsAuthorized: 2 };
    const authId = expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, authBody), 201).body.id as string;
    const authPath = `/clientes/${clientId}/autorizaciones/${authId}`;

    const treated = await s.treatedSession(patient, { hours: 4 });
    await s.processed(treated.ended);
    const consequences = (expectStatus(await s.get(treated.path), 200).body.consequences as Json[]).map((c) => [c.kind, c.outcome]);
    assert.deepEqual(
      consequences.find(([kind]) => kind === 'payer-authorization'),
      ['payer-authorization', 'applied'],
    );
    assert.deepEqual(pick(expectStatus(await s.get(authPath), 200).body), [1, 1]);

    // A cancelled session consumes nothing; a rebuild of the read model changes nothing.
    const cancelled = await s.extraSession(patient, { date: w.dateIn(1) });
    expectStatus(await s.post(w.a, `${s.sessionPath(cancelled)}/cancelacion`, { reason: 'Hospitalised' }), 200);
    await w.server.services.projections.rebuild(CLIENTES_PROJECTION);
    assert.deepEqual(pick(expectStatus(await s.get(authPath), 200).body), [1, 1]);

    // Only a signed record is due (issue 21 item 18).
    expectStatus(await s.post(w.nurse.token, `${treated.path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    const month = (treated.recorded.body.date as string).slice(0, 7);
    const report = expectStatus(await s.get(`/clientes/${clientId}/reporte-mensual?mes=${month}`), 200).body;
    const rows = report.rows as Json[];
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.deepEqual(
      [row.sessionId, row.dryWeightKg, row.preWeightKg, row.postWeightKg, row.ufLitres, row.authorizationCode, row.amount, row.currency],
      [treated.sessionId, 62.5, 65.5, 62.5, 3, 'AUT-2026-1', '350.00', 'PEN'],
    );
    assert.ok((row.treatmentHours as number) >= 4 && (row.treatmentHours as number) < 4.5, String(row.treatmentHours));
    assert.deepEqual(report.totals, [{ currency: 'PEN', sessions: 1, amount: '350.00' }]);
    const csv = await w.server.request('GET', `/clientes/${clientId}/reporte-mensual?mes=${month}&formato=csv`, { token: w.a });
    assert.match(csv.headers['content-type'] ?? '', /^text\/csv/);
    const lines = String(csv.body).trim().split('\r\n');
    assert.equal(
      lines[0],
      'paciente,documento,fecha,peso_seco_kg,peso_pre_kg,peso_post_kg,horas_hd,uf_litros,autorizacion,contrato,monto,moneda,observaciones',
    );
    assert.equal(lines.length, 2);
    assert.ok(lines[1]!.endsWith(',AUT-2026-1,' + String(row.contractNumber) + ',350.00,PEN,'), lines[1]);
    expectStatus(await w.call(w.b, 'GET', `/clientes/${clientId}/reporte-mensual?mes=${month}`), 404, 'not-found');
  });

  it('blocks or flags a start without a valid authorization, as the contract says; a flagged session is an alert', async () => {
    const blocking = await payer({ withoutAuthorization: 'block' });
    const blocked = await s.extraSession(await covered(blocking));
    await s.readyToStart(blocked);
    const machineId = await s.readyMachine();
    const refused = await s.post(w.nurse.token, `${s.sessionPath(blocked)}/inicio`, { machineId });
    assert.deepEqual((expectStatus(refused, 409, 'session-may-not-start').body.reasons as Json).payer, ['no-authorization']);
    assert.equal(expectStatus(await s.get(`/monitores/${machineId}`), 200).body.status, 'available');

    const flagging = await payer({ withoutAuthorization: 'flag' });
    const flagged = await s.treatedSession(await covered(flagging));
    assert.ok((flagged.recorded.body.startWarnings as string[]).includes('payer-no-authorization'));
    await s.processed(flagged.ended);
    const session = expectStatus(await s.get(flagged.path), 200).body;
    const payerOutcome = (session.consequences as Json[]).find((c) => c.kind === 'payer-authorization')!;
    assert.deepEqual([payerOutcome.outcome, payerOutcome.code], ['refused', 'no-authorization']);
    const date = session.date as string;
    const alerts = expectStatus(await s.get(`/dialisis/alertas?desde=${date}&hasta=${date}`), 200).body.items as Json[];
    assert.ok(alerts.some((a) => a.kind === 'consequence-refused' && a.sessionId === flagged.sessionId));
  });

  it("refuses a unit beyond the contract's sessions per month, whatever the authorization holds", async () => {
    // Both sessions on one day at whatever hour the suite runs: the test clock moves to early in a fresh day first.
    const day = 86_400_000;
    await w.advance(day - (w.server.clock.now().getTime() % day) + 3_600_000);
    // A flagging contract: the start goes on, the unit is refused at the end (a blocking one refuses the start).
    const clientId = await payer({ sessionsPerMonthCap: 1, withoutAuthorization: 'flag' });
    const patient = await covered(clientId);
    const authBody = { patientId: patient, code: 'AUT-CAP', validFrom: w.dateIn(-1), validTo: w.dateIn(30), sessionsAuthorized: 5 };
    expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, authBody), 201);
    const first = await s.treatedSession(patient);
    await s.processed(first.ended);
    // The second session of the same day, in another shift.
    const second = await s.extraSession(patient, { shiftId: await w.createShift(w.a), date: first.recorded.body.date as string });
    await s.readyToStart(second);
    const machineId = await s.readyMachine();
    expectStatus(await s.post(w.nurse.token, `${s.sessionPath(second)}/inicio`, { machineId }), 200);
    const ended = expectStatus(await s.post(w.nurse.token, `${s.sessionPath(second)}/fin`), 200);
    await s.processed(ended);
    const outcome = (expectStatus(await s.get(s.sessionPath(second)), 200).body.consequences as Json[]).find(
      (c) => c.kind === 'payer-authorization',
    )!;
    assert.deepEqual([outcome.outcome, outcome.code], ['refused', 'monthly-cap-reached']);
  });

  it("accepts a patient's coverage only with a payer of the company, naming the field", async () => {
    const theirs = expectStatus(await s.post(w.b, '/clientes', clientBody()), 201).body.id as string;
    const coverage = { clientId: theirs, memberNumber: 'M-1', validFrom: w.dateIn(-30) };
    const refused = await s.post(w.a, '/pacientes', registration({ coverages: [coverage] }));
    assert.deepEqual(pointers(expectStatus(refused, 422)), ['/body/coverages/0/clientId']);
    assert.equal(refused.body.detail, '/body/coverages/0/clientId: no such client (payer) in this company');
    const ours = await payer();
    const patient = await w.patient(w.a);
    const added = await s.post(w.a, `/pacientes/${patient}/coberturas`, { ...coverage, clientId: theirs });
    assert.deepEqual(pointers(expectStatus(added, 422)), ['/body/clientId']);
    expectStatus(await s.post(w.a, `/pacientes/${patient}/coberturas`, { ...coverage, clientId: ours }), 201);
    const otherPatient = await w.patient(w.b);
    const absent = await s.post(w.a, `/pacientes/${otherPatient}/coberturas`, { ...coverage, clientId: ours });
    assert.equal(expectStatus(absent, 404).body.detail, 'Patient not found');
  });
});

const pick = (auth: Json): [unknown, unknown] => [auth.used, auth.remaining];
