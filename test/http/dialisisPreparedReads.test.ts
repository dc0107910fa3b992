// A session by id, the month's adequacy and the alerts served from answers prepared once per change (issue 29 item 3):
// the same answer until a write changes what it is made of (the session, the patient, the company's policy), then in the
// writer's next read; every read audited; and one company's answer never served to another.
import assert from 'node:assert/strict';
import { accessLogStream, RECORD_ACCESSED } from '../../src/http/accessAudit.js';
import { expectStatus, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, postBlock, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Dialisis session, adequacy and alerts over HTTP: prepared once per change', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const read = async (path: string, token = w.a): Promise<Answer> => expectStatus(await w.call(token, 'GET', path), 200);
  const seen = (answer: Answer): string => `minPosition=${encodeURIComponent(answer.headers.get('x-event-position')!)}`;
  const flags = (answer: Answer): string[] => ((answer.body.clinical as Json).flags as Json[]).map((f) => f.code as string);
  const rowOf = (answer: Answer, patientId: string): Json | undefined =>
    (answer.body.patients as Json[]).find((r) => r.patientId === patientId);
  const alertKinds = (answer: Answer, sessionId: string): string[] =>
    (answer.body.items as Json[]).filter((a) => a.sessionId === sessionId).map((a) => a.kind as string);
  const patientsNamed = (answer: Answer): string[] => JSON.stringify(answer.body).match(/"patientId":"[^"]+"|"id":"[^"]+"/g) ?? [];

  /** Company A's audited reads of today of one record type, counted (identical reads share an entry with a count). */
  async function audited(recordType: string): Promise<number> {
    await w.server.flushAccessAudit();
    const stream = accessLogStream(w.server.admin.companyId, w.server.services.now().toISOString());
    let count = 0;
    for (const e of await w.server.services.events.readStream(stream))
      if (e.type === RECORD_ACCESSED && e.data.recordType === recordType) count += (e.data.count as number | undefined) ?? 1;
    return count;
  }

  it("never answers one company with another's session, adequacy or alerts, before or after either changes", async () => {
    const shiftB = await w.createShift(w.b);
    const patientB = await w.patient(w.b, { familyNames: 'Aislada Empresa B' });
    await w.createPlan(w.b, patientB, shiftB, [1, 2, 3, 4, 5, 6, 7]);
    const sessionB = (expectStatus(await w.generate(w.b, w.dateIn(0)), 200).body.sessions as { sessionId: string }[])[0]!.sessionId;
    const patientA = await s.prescribedPatient({ familyNames: 'Aislada Empresa A' });
    const sessionA = (await s.treatedSession(patientA)).sessionId;
    const month = w.dateIn(0).slice(0, 7);
    const reports = [`/dialisis/adecuacion?month=${month}`, `/dialisis/alertas?from=${w.dateIn(-1)}&to=${w.dateIn(1)}`];

    for (let round = 0; round < 2; round++) {
      await read(`/dialisis/sesiones/${sessionA}`);
      await read(`/dialisis/sesiones/${sessionB}`, w.b);
      expectStatus(await w.call(w.b, 'GET', `/dialisis/sesiones/${sessionA}`), 404);
      expectStatus(await w.call(w.a, 'GET', `/dialisis/sesiones/${sessionB}`), 404);
      for (const path of reports) {
        const a = patientsNamed(await read(path));
        const b = patientsNamed(await read(path, w.b));
        assert.ok(!a.some((x) => x.includes(patientB)) && !b.some((x) => x.includes(patientA)), `${path}: ${a.join()} / ${b.join()}`);
      }
      // Company B cancels its session: A's answers are untouched, B's never A's.
      if (round === 0)
        expectStatus(await w.call(w.b, 'POST', `/dialisis/sesiones/${sessionB}/cancelacion`, { json: { reason: 'Hospitalised' } }), 200);
    }
    assert.ok(rowOf(await read(reports[0]!), patientA));
  });

  it('answers the same until the session, its patient or the policy changes, each in the writer’s next read', async () => {
    const patientId = await s.prescribedPatient({ givenNames: 'Eulalia', familyNames: 'Preparada Primera' });
    const treated = await s.treatedSession(patientId, { hours: 4, post: postBlock({ postBunMgDl: 45 }) });
    const month = w.dateIn(0).slice(0, 7);
    const sessionPath = `/dialisis/sesiones/${treated.sessionId}`;
    const adequacyPath = `/dialisis/adecuacion?month=${month}`;
    const alertsPath = `/dialisis/alertas?from=${w.dateIn(-1)}&to=${w.dateIn(1)}`;

    const session = await read(`${sessionPath}?${seen(treated.recorded)}`);
    const adequacy = await read(`${adequacyPath}&${seen(treated.recorded)}`);
    const alerts = await read(`${alertsPath}&${seen(treated.recorded)}`);
    for (const [path, first] of [
      [sessionPath, session],
      [adequacyPath, adequacy],
      [alertsPath, alerts],
    ] as const) {
      const again = await read(path);
      assert.deepEqual(again.body, first.body, path);
      assert.equal(again.headers.get('etag'), first.headers.get('etag'), path);
    }
    assert.equal(rowOf(adequacy, patientId)?.sessions, 1);
    assert.ok(!flags(session).includes('uf-rate-above-maximum'), flags(session).join(', '));

    // Every read is audited, from a kept answer or not.
    const before = await audited('dialysisSession');
    await read(sessionPath);
    await read(sessionPath);
    assert.equal(await audited('dialysisSession'), before + 2);

    // The policy (another collection): a UF rate maximum under this session's flags it, in the session and the alerts,
    // and the adequacy answers the new targets.
    const stricter = { settings: { adequacy: { ufRateThresholdMlKgH: 5, ktvMinimum: 1.1 } }, reason: 'Stricter UF rate' };
    const policy = expectStatus(
      await w.call(w.a, 'PUT', '/empresas/actual/politica', { json: stricter, headers: { 'if-match': 'W/"-1"' } }),
      200,
    );
    assert.ok(flags(await read(`${sessionPath}?${seen(policy)}`)).includes('uf-rate-above-maximum'));
    assert.ok(alertKinds(await read(`${alertsPath}&${seen(policy)}`), treated.sessionId).includes('uf-rate-above-maximum'));
    assert.equal(((await read(`${adequacyPath}&${seen(policy)}`)).body.targets as Json).ktvMinimum, 1.1);

    // The patient (another collection): a corrected name shows in the adequacy and the alerts.
    const etag = (await read(`/pacientes/${patientId}`)).headers.get('etag')!;
    const correction = { givenNames: 'Eulogia', reason: 'typo in the admission form' };
    const corrected = expectStatus(
      await w.call(w.a, 'PATCH', `/pacientes/${patientId}`, { json: correction, headers: { 'if-match': etag } }),
      200,
    );
    assert.equal((rowOf(await read(`${adequacyPath}&${seen(corrected)}`), patientId)?.patient as Json).givenNames, 'Eulogia');
    const named = (await read(`${alertsPath}&${seen(corrected)}`)).body.items as Json[];
    assert.ok(named.length > 0 && named.every((a) => (a.patient as Json).givenNames === 'Eulogia'), JSON.stringify(named));

    // The sessions: a second treated session counts in the month, a reading shows in its session's next read.
    const second = await s.treatedSession(patientId);
    assert.equal(rowOf(await read(`${adequacyPath}&${seen(second.recorded)}`), patientId)?.sessions, 2);
    const running = await s.startedSession(patientId);
    const readings = ((await read(running.path)).body.readings as Json[]).length;
    await w.advance(30 * MINUTE);
    const recorded = expectStatus(await s.post(w.nurse.token, `${running.path}/lecturas`, s.reading(10)), 200);
    const after = await read(`${running.path}?${seen(recorded)}`);
    assert.equal((after.body.readings as Json[]).length, readings + 1);
    assert.equal(after.headers.get('etag'), recorded.headers.get('etag'));
  });
});
