// Issue 21 items 17 and 18 over real HTTP: a blocking contract's unit is reserved at the start (two starts on the last
// unit at once: one 2xx, one 409) and given back by an interruption before treatment; a manual consumption names an
// ended session, once across the patient's authorizations, within the month's cap; an authorization needs coverage;
// the monthly report bills by the rule units are consumed by, and keeps flagged rows out of the amount due.
import assert from 'node:assert/strict';
import { coveredPatient, openPayer } from './payerSteps.js';
import { expectStatus, startDialisisWorld, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { randomUUID } from 'node:crypto';
import { reserveAuthorization } from '../../src/commands/clientes/payerUnitWrites.js';
import { releaseOrphanedSessionClaims } from '../../src/commands/dialisis/session/equipmentClaimsReconciliation.js';
import { reconciliationDeps } from '../../src/facts/dialisis/index.js';
import { LIMITS } from '../../src/limits.js';

/** Retries an assertion on a read model until it holds (the projection follows the write), at most 2 s. */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (err) {
      if (i >= 40) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('Payer rules that span records (issue 21 items 17 and 18)', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const payer = (contract: Json = {}): Promise<string> => openPayer(w, s, contract);
  const covered = (clientId: string): Promise<string> => coveredPatient(w, s, clientId, 'M-21');
  async function authorize(clientId: string, patientId: string, code: string, units: number): Promise<string> {
    const body = { patientId, code, validFrom: w.dateIn(-1), validTo: w.dateIn(30), sessionsAuthorized: units };
    return expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, body), 201).body.id as string;
  }
  const units = async (path: string) => {
    const a = expectStatus(await s.get(path), 200).body;
    return { used: a.used, reserved: a.reserved, remaining: a.remaining };
  };
  /** A session of the patient today in its own shift, checked in and ready, with its own machine. */
  async function ready(patientId: string): Promise<{ path: string; machineId: string }> {
    const id = await s.extraSession(patientId);
    await s.readyToStart(id);
    return { path: s.sessionPath(id), machineId: await s.readyMachine() };
  }

  it('two sessions started at once on the last unit: one 2xx, one 409; an interruption before treatment gives it back', async () => {
    const clientId = await payer({ withoutAuthorization: 'block' });
    const patient = await covered(clientId);
    const authPath = `/clientes/${clientId}/autorizaciones/${await authorize(clientId, patient, 'AUT-LAST', 1)}`;
    const [one, two] = [await ready(patient), await ready(patient)];
    const answers = await Promise.all(
      [one, two].map((r) => s.post(w.nurse.token, `${r.path}/inicio`, { machineId: r.machineId, stationId: w.stationA.stationId })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409], JSON.stringify(answers.map((a) => a.body)));
    const refused = answers.find((a) => a.status === 409)!;
    const loser = answers[0] === refused ? one : two;
    assert.equal(expectStatus(await s.get(`/monitores/${loser.machineId}`), 200).body.status, 'available');
    assert.deepEqual(await units(authPath), { used: 0, reserved: 1, remaining: 0 });

    const winner = answers[0] === refused ? two : one;
    const interrupted = expectStatus(await s.post(w.nurse.token, `${winner.path}/interrupcion`, { reasonCode: 'access-problem' }), 200);
    await s.processed(interrupted);
    assert.deepEqual(await units(authPath), { used: 0, reserved: 0, remaining: 1 });
  });

  it('a start that loses its machine to another releases the unit it reserved; a blocking contract keeps the month cap', async () => {
    const clientId = await payer({ withoutAuthorization: 'block', sessionsPerMonthCap: 1 });
    const patients = [await covered(clientId), await covered(clientId)];
    const auths = await Promise.all(
      patients.map(async (p, i) => `/clientes/${clientId}/autorizaciones/${await authorize(clientId, p, `AUT-M${i}`, 2)}`),
    );
    const sessions = [await s.extraSession(patients[0]!), await s.extraSession(patients[1]!)];
    for (const id of sessions) await s.readyToStart(id);
    const machineId = await s.readyMachine(); // one machine for both
    const answers = await Promise.all(
      sessions.map((id) => s.post(w.nurse.token, `${s.sessionPath(id)}/inicio`, { machineId, stationId: w.stationA.stationId })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    const held = await Promise.all(auths.map(units));
    assert.deepEqual(
      held.map((u) => u.reserved),
      answers.map((a) => (a.status === 200 ? 1 : 0)),
    );

    // The winner's treatment ends: its unit is the month's one, so the next start of that patient is refused.
    const winner = answers[0]!.status === 200 ? 0 : 1;
    await w.advance(60 * MINUTE);
    await s.processed(expectStatus(await s.post(w.nurse.token, `${s.sessionPath(sessions[winner]!)}/fin`), 200));
    const again = await ready(patients[winner]!);
    const refused = await s.post(w.nurse.token, `${again.path}/inicio`, { machineId: again.machineId });
    assert.deepEqual((expectStatus(refused, 409, 'session-may-not-start').body.reasons as Json).payer, ['monthly-cap-reached']);
  });

  it('a reservation whose session never started is released by the reconciliation once the grace has passed', async () => {
    const clientId = await payer({ withoutAuthorization: 'block' });
    const patientId = await covered(clientId);
    const authPath = `/clientes/${clientId}/autorizaciones/${await authorize(clientId, patientId, 'AUT-ORPHAN', 1)}`;
    const sessionId = await s.extraSession(patientId);
    const services = w.server.services;
    const tenantId = w.server.admin.companyId;
    const ctx = { tenantId, actor: 'test-session-start', sessionId: null, correlationId: randomUUID(), ip: null, userAgent: null };
    // What a start does first; the crash comes before its SessionStarted.
    await reserveAuthorization(
      services,
      { ...ctx, at: w.server.clock.now().toISOString() },
      { patientId, clientId, date: s.today(), sessionId },
    );
    await eventually(async () => assert.deepEqual(await units(authPath), { used: 0, reserved: 1, remaining: 0 }));
    const payerClaims = async () =>
      (await releaseOrphanedSessionClaims(reconciliationDeps(services), tenantId)).released.filter((c) => c.kind === 'payer-authorization');
    assert.deepEqual(await payerClaims(), []);
    w.server.clock.advance((LIMITS.sessionClaims.orphanGraceSeconds + 1) * 1000);
    assert.deepEqual(
      (await payerClaims()).map((c) => c.sessionId),
      [sessionId],
    );
    await eventually(async () => assert.deepEqual(await units(authPath), { used: 0, reserved: 0, remaining: 1 }));

    // A reservation left behind by a session later cancelled goes back with the cancellation.
    const cancelled = await s.extraSession(patientId);
    await reserveAuthorization(
      services,
      { ...ctx, at: w.server.clock.now().toISOString() },
      { patientId, clientId, date: s.today(), sessionId: cancelled },
    );
    await s.processed(expectStatus(await s.post(w.a, `${s.sessionPath(cancelled)}/cancelacion`, { reason: 'Hospitalised' }), 200));
    await eventually(async () => assert.deepEqual(await units(authPath), { used: 0, reserved: 0, remaining: 1 }));
  });

  it('a manual consumption names an ended session, is paid once across the authorizations, within the cap', async () => {
    const clientId = await payer({ withoutAuthorization: 'flag', sessionsPerMonthCap: 1 });
    const patient = await covered(clientId);
    const first = await authorize(clientId, patient, 'AUT-A', 5);
    const second = await authorize(clientId, patient, 'AUT-B', 5);
    // The session's own date: the test clock may pass midnight between the session and the consumption.
    const consume = async (authId: string, sessionId: string) => {
      const { date } = expectStatus(await s.get(s.sessionPath(sessionId)), 200).body as { date: string };
      return s.post(w.a, `/clientes/${clientId}/autorizaciones/${authId}/consumos`, { sessionId, date });
    };

    const running = await s.startedSession(patient);
    expectStatus(await consume(second, running.sessionId), 409, 'session-not-ended');
    await w.advance(60 * MINUTE);
    const ended = expectStatus(await s.post(w.nurse.token, `${running.path}/fin`), 200);
    await s.processed(ended); // the process manager consumed a unit of one of the two
    const holder = ((await units(`/clientes/${clientId}/autorizaciones/${first}`)).used as number) === 1 ? first : second;
    const other = holder === first ? second : first;
    expectStatus(await consume(other, running.sessionId), 409, 'session-already-paid');
    expectStatus(await consume(holder, running.sessionId), 200); // the same unit again: nothing more

    const next = await s.treatedSession(patient);
    await s.processed(next.ended);
    expectStatus(await consume(other, next.sessionId), 409, 'monthly-cap-reached');
  });

  it('issues an authorization only for a patient the client covers', async () => {
    const clientId = await payer();
    const uncovered = await s.prescribedPatient();
    const body = { patientId: uncovered, code: 'AUT-NC', validFrom: w.dateIn(-1), validTo: w.dateIn(30), sessionsAuthorized: 3 };
    expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, body), 409, 'patient-not-covered');
  });

  it('bills what the payer pays: interruptions by one rule, unsigned or unauthorized rows flagged and out of the amount due', async () => {
    const clientId = await payer({ withoutAuthorization: 'flag' });
    const patient = await covered(clientId);
    const authPath = `/clientes/${clientId}/autorizaciones/${await authorize(clientId, patient, 'AUT-R', 2)}`;
    const signed = await s.treatedSession(patient);
    expectStatus(await s.post(w.nurse.token, `${signed.path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    await s.processed(signed.ended);
    // Interrupted after 30 minutes of treatment: billed and one unit consumed; before any treatment: neither.
    const treated = await s.startedSession(patient);
    await w.advance(30 * MINUTE);
    const cut = expectStatus(await s.post(w.nurse.token, `${treated.path}/interrupcion`, { reasonCode: 'access-problem' }), 200);
    await s.processed(cut);
    const untreated = await s.startedSession(patient);
    const stopped = expectStatus(await s.post(w.nurse.token, `${untreated.path}/interrupcion`, { reasonCode: 'access-problem' }), 200);
    await s.processed(stopped);
    assert.deepEqual(await units(authPath), { used: 2, reserved: 0, remaining: 0 });
    // The unit is spent: the next session is treated without one.
    const unauthorized = await s.treatedSession(patient);
    await s.processed(unauthorized.ended);

    const month = s.today().slice(0, 7);
    const report = expectStatus(await s.get(`/clientes/${clientId}/reporte-mensual?mes=${month}`), 200).body;
    const rows = new Map((report.rows as Json[]).map((r) => [r.sessionId, r]));
    assert.equal(rows.has(untreated.sessionId), false);
    assert.deepEqual(rows.get(signed.sessionId)!.flags, []);
    assert.deepEqual(rows.get(treated.sessionId)!.flags, ['unsigned']);
    assert.deepEqual(rows.get(unauthorized.sessionId)!.flags, ['no-authorization', 'unsigned']);
    assert.deepEqual(report.totals, [{ currency: 'PEN', sessions: 1, amount: '350.00' }]);
    assert.deepEqual(report.flaggedTotals, [{ currency: 'PEN', sessions: 2, amount: '700.00' }]);
    const csv = await w.server.request('GET', `/clientes/${clientId}/reporte-mensual?mes=${month}&formato=csv`, { token: w.a });
    const lines = String(csv.body).trim().split('\r\n');
    assert.ok(lines[0]!.endsWith(',observaciones'), lines[0]);
    assert.ok(
      lines.some((l) => l.endsWith(',no-authorization;unsigned')),
      String(csv.body),
    );
  });
});
