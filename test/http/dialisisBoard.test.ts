// The day board served from a board prepared once per change of the company's sessions or patients: the same answer
// until a reading or a patient's correction changes it (then in the writer's next board), every read audited with the
// patients shown, and one company's board never answered to another for the same date.
import assert from 'node:assert/strict';
import { accessLogStream, RECORD_ACCESSED } from '../../src/http/accessAudit.js';
import { expectStatus, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Dialisis day board over HTTP: prepared once per change', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const board = async (token: string, date: string, query = '', headers: Record<string, string> = {}): Promise<Answer> =>
    expectStatus(await w.call(token, 'GET', `/dialisis/agenda?date=${date}${query}`, { headers }), 200);
  const sessionsOf = (answer: Answer): Json[] => (answer.body.shifts as Json[]).flatMap((shift) => shift.sessions as Json[]);
  const sessionIn = (answer: Answer, id: string): Json => sessionsOf(answer).find((x) => x.id === id)!;
  const seen = (answer: Answer): string => `&minPosition=${encodeURIComponent(answer.headers.get('x-event-position')!)}`;

  /** The board reads of a date company A's access log of today counts (identical reads are counted in one entry), by the patients named. */
  async function auditedBoardReads(date: string): Promise<Map<string, number>> {
    await w.server.flushAccessAudit();
    const events = await w.server.services.events.readStream(
      accessLogStream(w.server.admin.companyId, w.server.services.now().toISOString()),
    );
    const reads = new Map<string, number>();
    for (const e of events) {
      if (e.type !== RECORD_ACCESSED || e.data.recordType !== 'dialysisDayBoard' || e.data.recordId !== date) continue;
      const named = JSON.stringify([...(e.data.patientIds as string[])].sort());
      reads.set(named, (reads.get(named) ?? 0) + ((e.data.count as number | undefined) ?? 1));
    }
    return reads;
  }

  it("never answers one company with another's board for the same date, before or after either changes", async () => {
    const date = w.dateIn(3);
    const patientA = await s.prescribedPatient({ familyNames: 'Tablero Empresa A' });
    const sessionA = await s.extraSession(patientA, { date });
    const shiftB = await w.createShift(w.b);
    const patientB = await w.patient(w.b, { familyNames: 'Tablero Empresa B' });
    await w.createPlan(w.b, patientB, shiftB, [1, 2, 3, 4, 5, 6, 7]);
    const sessionB = (expectStatus(await w.generate(w.b, date), 200).body.sessions as { sessionId: string }[])[0]!.sessionId;

    const ids = (answer: Answer): unknown[] => sessionsOf(answer).map((x) => x.id);
    const patients = (answer: Answer): unknown[] => sessionsOf(answer).map((x) => (x.patient as Json).id);
    let boardA: Answer | null = null;
    for (let round = 0; round < 3; round++) {
      const a = await board(w.a, date);
      const b = await board(w.b, date);
      assert.deepEqual([ids(a), patients(a)], [[sessionA], [patientA]]);
      assert.deepEqual([ids(b), patients(b)], [[sessionB], [patientB]]);
      boardA = a;
    }

    // Company B cancels its session: its board shows it, A's is the very same.
    const cancelled = expectStatus(
      await w.call(w.b, 'POST', `/dialisis/sesiones/${sessionB}/cancelacion`, { json: { reason: 'Patient hospitalised' } }),
      200,
    );
    assert.equal(sessionIn(await board(w.b, date, seen(cancelled)), sessionB).status, 'cancelled');
    const a = await board(w.a, date);
    assert.deepEqual(a.body, boardA!.body);
    assert.equal(a.headers.get('etag'), boardA!.headers.get('etag'));
  });

  it('answers the same board until a reading or a patient correction changes it, each in the writer’s next board', async () => {
    const patientId = await s.prescribedPatient({ givenNames: 'Eulalia', familyNames: 'Tablero Primera' });
    const { sessionId, path } = await s.startedSession(patientId);
    const today = w.dateIn(0);

    const first = await board(w.a, today);
    const again = await board(w.a, today);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('etag'), first.headers.get('etag'));
    const before = sessionIn(first, sessionId);
    assert.equal(before.readingCount, 0);

    // A reading: the writer's next board counts it, and only that session's count and revision changed.
    await w.advance(30 * MINUTE);
    const recorded = expectStatus(await s.post(w.nurse.token, `${path}/lecturas`, s.reading(10)), 200);
    const after = await board(w.a, today, seen(recorded));
    const changed = sessionIn(after, sessionId);
    assert.equal(changed.readingCount, 1);
    assert.ok((changed.revision as number) > (before.revision as number));
    const expected = structuredClone(first.body);
    Object.assign(sessionIn({ ...first, body: expected }, sessionId), { readingCount: 1, revision: changed.revision });
    assert.deepEqual(after.body, expected);
    assert.notEqual(after.headers.get('etag'), first.headers.get('etag'));
    assert.deepEqual((await board(w.a, today)).body, after.body);

    // A correction of the patient's name: the board names her anew (its sessions did not change).
    const etag = expectStatus(await w.call(w.a, 'GET', `/pacientes/${patientId}`), 200).headers.get('etag')!;
    const correction = { givenNames: 'Eulogia', reason: 'typo in the admission form' };
    const corrected = expectStatus(
      await w.call(w.a, 'PATCH', `/pacientes/${patientId}`, { json: correction, headers: { 'if-match': etag } }),
      200,
    );
    const renamed = await board(w.a, today, seen(corrected));
    assert.equal((sessionIn(renamed, sessionId).patient as Json).givenNames, 'Eulogia');
    assert.equal(sessionIn(renamed, sessionId).readingCount, 1);

    // Every read is audited with the patients it showed, served from a kept board or not.
    for (let n = 0; n < 2; n++) {
      const shown = JSON.stringify([...new Set(sessionsOf(await board(w.a, today)).map((x) => (x.patient as Json).id))].sort());
      assert.ok(shown.includes(patientId));
      const before = (await auditedBoardReads(today)).get(shown) ?? 0;
      await board(w.a, today);
      assert.equal((await auditedBoardReads(today)).get(shown), before + 1, `read ${n} audited with ${shown}`);
    }
  });
});
