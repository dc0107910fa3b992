// A session with more readings than a snapshot holds back (every aggregate loads from a snapshot once 100 events are
// folded): the nurse's sign-off judges the values on the whole record, not on the events after the latest snapshot.
import assert from 'node:assert/strict';
import { expectStatus, startDialisisWorld, type DialisisWorld } from './dialisisWorld.js';
import { postBlock, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { DEFAULT_SNAPSHOT_EVERY, snapshotStreamOf } from '../../src/commands/snapshots.js';
import { streamName } from '../../src/stores/eventStore.js';

const MINUTE = 60_000;

describe('HTTP: a session longer than a snapshot is signed on its whole record', function () {
  this.timeout(180_000);
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  it('signs a session of 130 readings, loaded from a snapshot, with the values judged on every reading', async () => {
    const patientId = await s.prescribedPatient();
    const session = await s.startedSession(patientId);
    const readings = DEFAULT_SNAPSHOT_EVERY + 30;
    await w.advance(3 * readings * MINUTE);
    for (let i = 0; i < readings; i++) {
      // Every 2 minutes since the start; the first is the low one: only a judge that sees the whole record flags it.
      const low = i === 0 ? { bloodPressure: { systolic: 80, diastolic: 50 } } : {};
      expectStatus(await s.post(w.nurse.token, `${session.path}/lecturas`, s.reading(2 * (readings - i), low)), 200);
    }
    expectStatus(await s.post(w.nurse.token, `${session.path}/fin`), 200);
    expectStatus(await s.post(w.nurse.token, `${session.path}/post-dialisis`, postBlock()), 200);
    const stream = streamName(w.server.admin.companyId, 'dialysisSession', session.sessionId);
    assert.ok((await w.server.services.events.readStream(snapshotStreamOf(stream))).length > 0, 'the session was snapshotted');

    const code = await w.stepUpCode(w.nurse);
    expectStatus(await s.post(w.nurse.token, `${session.path}/firma`, { code }), 200);
    const [signed] = await w.server.services.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    assert.equal(signed!.type, 'SessionSignedByNurse');
    const judged = (signed!.data as { judged: { flags: { code?: string; field?: string }[] } }).judged;
    const onFirst = judged.flags.filter((f) => f.field === 'readings/0/bloodPressure/systolic').map((f) => f.code);
    assert.ok(onFirst.includes('systolic-low'), `the low first reading is judged: ${JSON.stringify(judged.flags)}`);
  });
});
