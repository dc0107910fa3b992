// Back-entry of a past session (issue 21 item 1) on a machine that runs another patient now: the past session starts,
// ends and is signed without the machine's live claim; the live session keeps the machine, and the machine's hours and
// session count take the past session once, as history.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startDialisisWorld, type DialisisWorld, type Json } from './dialisisWorld.js';
import { postBlock, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { dialyzerBody } from './filtrosWorld.js';

describe('Back-entry of a past session on a machine in use now, over HTTP', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const nurse = (path: string, json: unknown = {}) => s.post(w.nurse.token, path, json);
  const machine = async (id: string): Promise<Json> => expectStatus(await s.get(`/monitores/${id}`), 200).body;

  /** Another patient's session running now on a fresh machine, started 30 minutes ago: its path, id and machine. */
  async function running(): Promise<{ path: string; sessionId: string; machineId: string }> {
    const sessionId = await s.extraSession(await s.prescribedPatient());
    await s.readyToStart(sessionId);
    const machineId = await s.readyMachine();
    const path = s.sessionPath(sessionId);
    expectStatus(await nurse(`${path}/inicio`, { machineId, stationId: w.stationA.stationId, startedAt: s.at(30) }), 200);
    return { path, sessionId, machineId };
  }

  /** Charts a session from `fromMinutesAgo` to `toMinutesAgo` on the machine; ends, records the post block and signs it. */
  async function chartedOn(sessionId: string, machineId: string, fromMinutesAgo: number, toMinutesAgo: number, more: Json = {}) {
    const path = s.sessionPath(sessionId);
    await s.readyToStart(sessionId);
    const start = { machineId, stationId: w.stationA.stationId, startedAt: s.at(fromMinutesAgo), ...more };
    expectStatus(await nurse(`${path}/inicio`, start), 200);
    expectStatus(await nurse(`${path}/lecturas`, s.reading(fromMinutesAgo - 60)), 200);
    // Its end is charted too: the clock's now is not when a past treatment ended.
    expectStatus(await nurse(`${path}/fin`), 422, 'validation-failed');
    // Nor after the machine's current patient began (30 minutes ago): one patient per machine.
    assert.deepEqual(pointers(expectStatus(await nurse(`${path}/fin`, { endedAt: s.at(10) }), 422)), ['/body/endedAt']);
    const ended = expectStatus(await nurse(`${path}/fin`, { endedAt: s.at(toMinutesAgo) }), 200);
    await s.processed(ended);
    expectStatus(await nurse(`${path}/post-dialisis`, postBlock()), 200);
    const signed = expectStatus(await nurse(`${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    return { path, signed };
  }

  /** The live session still holds the machine, and the machine counted `hours` and `sessions` more than before. */
  async function holdsAndCounted(live: { sessionId: string; machineId: string }, before: Json, hours: number, sessions: number) {
    const now = await machine(live.machineId);
    assert.equal(now.status, 'in-use');
    assert.equal((now.currentSession as Json).sessionId, live.sessionId);
    assert.equal(now.hourMeter, Math.round(((before.hourMeter as number) + hours) * 100) / 100);
    assert.equal(now.sessionCount, (before.sessionCount as number) + sessions);
  }

  it('a session of yesterday charted with a reason on a machine running another patient starts, ends and is signed; the machine counts it once', async () => {
    const live = await running();
    const before = await machine(live.machineId);
    const patientId = await s.prescribedPatient();
    const shiftId = await w.createShift(w.a);
    const body = { patientId, date: w.dateIn(-1), shiftId, kind: 'extra', reason: 'Downtime', requestedBy: w.physician.staffId };
    const created = expectStatus(await w.extraSession(w.a, { ...body, lateEntryReason: 'Charted after a system downtime' }), 201);
    const pastId = created.body.sessionId as string;
    const { signed } = await chartedOn(pastId, live.machineId, 26 * 60, 22 * 60);
    assert.deepEqual([signed.body.status, signed.body.backEntry], ['signed', true]);
    assert.equal(expectStatus(await s.get(live.path), 200).body.backEntry, false);
    await holdsAndCounted(live, before, 4, 1);
    // Recorded again by hand, the past session's use is not counted twice.
    const again = await s.post(w.a, `/monitores/${live.machineId}/usos`, { sessionId: pastId, patientId });
    assert.ok(again.status < 500, JSON.stringify(again.body));
    await holdsAndCounted(live, before, 4, 1);
    // The live session ends as usual, and frees the machine.
    await s.processed(expectStatus(await nurse(`${live.path}/fin`), 200));
    const after = await machine(live.machineId);
    assert.notEqual(after.status, 'in-use');
    assert.equal(after.sessionCount, (before.sessionCount as number) + 2);
  });

  it("a session of today stated to have begun before the machine's current patient is charted as history", async () => {
    const live = await running();
    const before = await machine(live.machineId);
    const sessionId = await s.extraSession(await s.prescribedPatient());
    await chartedOn(sessionId, live.machineId, 5 * 60, 3 * 60);
    await holdsAndCounted(live, before, 2, 1);
  });

  it("a back-entered session's dialyzer gets its use once, as history", async () => {
    const live = await running();
    const patientId = await s.prescribedPatient();
    const dialyzerId = expectStatus(await s.post(w.a, '/filtros-dialisis', dialyzerBody()), 201).body.id as string;
    expectStatus(await s.post(w.a, `/filtros-dialisis/${dialyzerId}/asignacion`, { patientId, baselineTcvMl: 100 }), 200);
    w.server.nextTotpStep();
    const identityConfirmations = [
      { userId: w.nurse.userId, code: await w.server.totpCode(w.nurse.account.totpSecret) },
      { userId: w.physician.userId, code: await w.server.totpCode(w.physician.account.totpSecret) },
    ];
    expectStatus(await s.post(w.a, `/filtros-dialisis/${dialyzerId}/controles-previos`, { patientId, identityConfirmations }), 200);
    const sessionId = await s.extraSession(patientId);
    await chartedOn(sessionId, live.machineId, 5 * 60, 3 * 60, { dialyzerId });
    const used = expectStatus(await s.get(`/filtros-dialisis/${dialyzerId}`), 200).body;
    assert.equal(used.uses, 1);
    const again = await s.post(w.a, `/filtros-dialisis/${dialyzerId}/usos`, { sessionId, patientId });
    assert.ok(again.status < 500, JSON.stringify(again.body));
    assert.equal(expectStatus(await s.get(`/filtros-dialisis/${dialyzerId}`), 200).body.uses, 1);
  });
});
