// Reads of patient data leave an access audit entry naming the patients, over real HTTP and stores, and so do refused
// reads, with their outcome: a 404 on another company's session in the reader's own log, a 403 for want of the
// permission (issue 20 item 6).
import assert from 'node:assert/strict';
import { accessLogStream, RECORD_ACCESSED } from '../../src/http/accessAudit.js';
import { clientBody, contractBody } from './clientesWorld.js';
import { expectStatus, startDialisisWorld, unique, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Access audit over HTTP: reads naming a patient, and refused reads', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  /** A read with its own correlation id, to find its entries in the log. */
  async function read(token: string, path: string): Promise<{ answer: Answer; correlationId: string }> {
    const correlationId = unique('audit-read-');
    const answer = await w.call(token, 'GET', path, { headers: { 'x-request-id': correlationId } });
    return { answer, correlationId };
  }

  /** The entries of one request in a company's access log of today (server clock). */
  async function entriesOf(tenantId: string, correlationId: string): Promise<Json[]> {
    await w.server.flushAccessAudit();
    const stream = accessLogStream(tenantId, w.server.services.now().toISOString());
    const events = await w.server.services.events.readStream(stream);
    return events
      .filter((e) => e.type === RECORD_ACCESSED && e.metadata.correlationId === correlationId)
      .map((e) => ({ ...e.data, actor: e.metadata.actor }));
  }

  const companyA = () => w.server.admin.companyId;
  const what = (e: Json) => [e.recordType, e.recordId, e.route, e.status, e.outcome, e.patientIds];

  it('a session and its sheet leave an entry each naming the patient', async () => {
    const patientId = await s.prescribedPatient();
    const sessionId = await s.extraSession(patientId);

    const session = await read(w.a, s.sessionPath(sessionId));
    expectStatus(session.answer, 200);
    const [entry, ...more] = await entriesOf(companyA(), session.correlationId);
    assert.equal(more.length, 0);
    assert.deepEqual(what(entry!), ['dialysisSession', sessionId, '/dialisis/sesiones/{id}', 200, 'allowed', [patientId]]);
    assert.equal(entry!.actor, w.server.admin.userId);

    const sheet = await read(w.a, `${s.sessionPath(sessionId)}/hoja`);
    expectStatus(sheet.answer, 200);
    assert.deepEqual((await entriesOf(companyA(), sheet.correlationId)).map(what), [
      ['dialysisSessionSheet', sessionId, '/dialisis/sesiones/{id}/hoja', 200, 'allowed', [patientId]],
    ]);

    const dialyzers = await read(w.a, `/filtros-dialisis?pacienteId=${patientId}`);
    expectStatus(dialyzers.answer, 200);
    assert.deepEqual(
      (await entriesOf(companyA(), dialyzers.correlationId)).map((e) => [e.recordType, e.recordId, e.outcome]),
      [['dialyzerList', patientId, 'allowed']],
    );
  });

  it("the monthly payer report, JSON or CSV, leaves an entry naming the report's patients", async () => {
    const clientId = expectStatus(await s.post(w.a, '/clientes', clientBody()), 201).body.id as string;
    const terms = { ...contractBody({ validFrom: w.dateIn(-365) }) };
    delete terms.validTo;
    expectStatus(await s.post(w.a, `/clientes/${clientId}/contratos`, terms), 201);
    const patientId = await s.prescribedPatient({ coverages: [{ clientId, memberNumber: 'M-91', validFrom: w.dateIn(-365) }] });
    const authorization = { patientId, code: 'AUT-91', validFrom: w.dateIn(-1), validTo: w.dateIn(30), sessionsAuthorized: 2 };
    expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, authorization), 201);
    const treated = await s.treatedSession(patientId);
    await s.processed(treated.ended);
    const month = (treated.recorded.body.date as string).slice(0, 7);

    for (const format of ['json', 'csv']) {
      const report = await read(w.a, `/clientes/${clientId}/reporte-mensual?mes=${month}&formato=${format}`);
      expectStatus(report.answer, 200);
      assert.deepEqual((await entriesOf(companyA(), report.correlationId)).map(what), [
        ['payerMonthlyReport', clientId, '/clientes/{id}/reporte-mensual', 200, 'allowed', [patientId]],
      ]);
    }
  });

  it("another company's session answers 404 and leaves an entry with outcome not-found in the reader's log only", async () => {
    const sessionId = await s.extraSession(await s.prescribedPatient());
    const companyB = expectStatus(await w.call(w.b, 'GET', '/empresas/actual'), 200).body.id as string;
    const actorB = expectStatus(await w.call(w.b, 'GET', '/auth/me'), 200).body.id as string;

    const refused = await read(w.b, s.sessionPath(sessionId));
    expectStatus(refused.answer, 404);
    const entries = await entriesOf(companyB, refused.correlationId);
    assert.deepEqual(entries.map(what), [['dialysisSession', sessionId, '/dialisis/sesiones/{id}', 404, 'not-found', undefined]]);
    assert.equal(entries[0]!.actor, actorB);
    assert.deepEqual(await entriesOf(companyA(), refused.correlationId), [], "nothing of B's read reaches company A's log");
  });

  it('a read refused for want of the permission leaves an entry with outcome denied', async () => {
    const sessionId = await s.extraSession(await s.prescribedPatient());
    const member = await w.memberWith(['pacientes:read']);
    const refused = await read(member.token, s.sessionPath(sessionId));
    expectStatus(refused.answer, 403);
    const entries = await entriesOf(companyA(), refused.correlationId);
    assert.deepEqual(entries.map(what), [['dialysisSession', sessionId, '/dialisis/sesiones/{id}', 403, 'denied', undefined]]);
    assert.equal(entries[0]!.actor, member.userId);
  });

  it('a refused read names the patient the request named, under its old query name too (issue 22 item 6)', async () => {
    const patientId = await s.prescribedPatient();
    const member = await w.memberWith(['pacientes:read']);
    const refused = await read(member.token, `/dialisis/alertas?desde=${w.dateIn(0)}&hasta=${w.dateIn(1)}&pacienteId=${patientId}`);
    expectStatus(refused.answer, 403);
    const entries = await entriesOf(companyA(), refused.correlationId);
    assert.deepEqual(entries.map(what), [['dialysisAlertList', patientId, '/dialisis/alertas', 403, 'denied', undefined]]);
  });

  it('a widget listing patients leaves an entry naming them; a widget of counts leaves none', async () => {
    const patientId = await s.prescribedPatient();
    const { recorded } = await s.treatedSession(patientId);
    const minPosition = encodeURIComponent(recorded.headers.get('x-event-position')!);
    const awaiting = await read(w.nurse.token, `/widgets/sessions-awaiting/datos?limit=100&minPosition=${minPosition}`);
    expectStatus(awaiting.answer, 200);
    const [entry, ...more] = await entriesOf(companyA(), awaiting.correlationId);
    assert.equal(more.length, 0);
    assert.deepEqual(what(entry!).slice(0, 5), ['widget', 'sessions-awaiting', '/widgets/{id}/datos', 200, 'allowed']);
    assert.ok((entry!.patientIds as string[]).includes(patientId));

    const census = await read(w.nurse.token, '/widgets/patient-census/datos');
    expectStatus(census.answer, 200);
    assert.deepEqual(await entriesOf(companyA(), census.correlationId), []);
  });
});
