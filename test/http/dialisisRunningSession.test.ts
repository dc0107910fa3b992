// One patient, one running session (issue 21 item 9) over real HTTP on real stores: a second shift of the same day does
// not start while the first runs, its end or interruption frees the patient, and two starts at once let exactly one in.
import assert from 'node:assert/strict';
import { expectStatus, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Dialisis sessions: one running session per patient over HTTP', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const start = (sessionId: string, machineId: string): Promise<Answer> =>
    s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, { machineId, stationId: w.stationA.stationId });
  const refusedAsRunning = (answer: Answer): void => {
    const body = expectStatus(answer, 409, 'session-may-not-start').body;
    assert.deepEqual((body.reasons as Json).session, ['patient-session-in-progress'], JSON.stringify(body));
  };
  const machineStatus = async (machineId: string): Promise<unknown> =>
    expectStatus(await s.get(`/monitores/${machineId}`), 200).body.status;

  /** Another session of the patient today, on its own shift, checked in and ready to start. */
  async function secondShift(patientId: string): Promise<string> {
    const sessionId = await s.extraSession(patientId);
    await s.readyToStart(sessionId);
    return sessionId;
  }

  it("refuses a second shift's start while the first runs, and starts it once the first has ended", async () => {
    const patient = await s.prescribedPatient();
    const first = await s.startedSession(patient);
    const second = await secondShift(patient);
    const machineId = await s.readyMachine();

    refusedAsRunning(await start(second, machineId));
    assert.equal(await machineStatus(machineId), 'available');
    await w.advance(30 * MINUTE);
    expectStatus(await s.post(w.nurse.token, `${first.path}/pausa`, { reason: 'Cramps' }), 200);
    refusedAsRunning(await start(second, machineId));

    expectStatus(await s.post(w.nurse.token, `${first.path}/reanudacion`), 200);
    expectStatus(await s.post(w.nurse.token, `${first.path}/fin`), 200);
    expectStatus(await start(second, machineId), 200);
    // Another patient is never held by this one's session.
    await s.startedSession(await s.prescribedPatient());
  });

  it('frees the patient when the running session is interrupted', async () => {
    const patient = await s.prescribedPatient();
    const first = await s.startedSession(patient);
    const second = await secondShift(patient);
    const machineId = await s.readyMachine();
    refusedAsRunning(await start(second, machineId));
    await w.advance(20 * MINUTE);
    expectStatus(await s.post(w.nurse.token, `${first.path}/interrupcion`, { reasonCode: 'access-problem' }), 200);
    expectStatus(await start(second, machineId), 200);
  });

  it('lets exactly one of two concurrent starts of the same patient in; the other holds nothing', async () => {
    const patient = await s.prescribedPatient();
    const sessions = [await secondShift(patient), await secondShift(patient)];
    const machines = [await s.readyMachine(), await s.readyMachine()];
    const answers = await Promise.all(sessions.map((id, i) => start(id, machines[i]!)));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 409], answers.map((a) => JSON.stringify(a.body)).join('\n'));
    const loser = answers.findIndex((a) => a.status === 409);
    refusedAsRunning(answers[loser]!);
    assert.equal(await machineStatus(machines[loser]!), 'available');
    assert.equal(expectStatus(await s.get(s.sessionPath(sessions[loser]!)), 200).body.status, 'checked-in');
  });
});
