// Facts loaded once for the signed commands (issue 22 item 3): the nurse's sign-off and an amendment over real HTTP on
// real stores read the company policy stream once (the amendment read it twice: for its window and for the judged values)
// and the session stream once before appending (the judged values read it again). Counted in stream reads, never timed.
import assert from 'node:assert/strict';
import { countingEventStore, type ReadCounts } from '../support/countingEventStore.js';
import { categoryOfStream } from '../../src/stores/eventStore.js';
import { expectStatus, startDialisisWorld, type DialisisWorld } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Dialisis signed records: facts loaded once', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  let reads: ReadCounts;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
    const counting = countingEventStore(w.server.services.events);
    w.server.services.events = counting.store;
    reads = counting.reads;
  });
  after(async () => w?.close());

  /** Reads per stream category since the last reset. */
  const readsByCategory = (): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const [stream, calls] of reads.callsByStream) out[categoryOfStream(stream)] = (out[categoryOfStream(stream)] ?? 0) + calls;
    return out;
  };

  /** The policy stream once; the session stream once for the facts and once by the append. */
  const assertReadOnce = (what: string): void => {
    const counted = readsByCategory();
    console.log(`      stream reads in one ${what}:`, JSON.stringify(counted));
    assert.equal(counted.policy, 1, JSON.stringify(counted));
    assert.equal(counted.dialysisSession, 2, JSON.stringify(counted));
  };

  it('a sign-off and an amendment each read the policy stream once and the session stream once before appending', async () => {
    const { path } = await s.treatedSession(await s.prescribedPatient());
    const signCode = await w.stepUpCode(w.nurse);
    await w.server.services.processes.waitFor(await w.server.services.events.headPosition());

    reads.reset();
    expectStatus(await s.post(w.nurse.token, `${path}/firma`, { code: signCode }), 200);
    assertReadOnce('sign-off');

    const amendment = { block: 'post', changes: { scaleWeightKg: 63.2 }, reason: 'Scale recalibrated', code: await w.stepUpCode(w.nurse) };
    await w.server.services.processes.waitFor(await w.server.services.events.headPosition());
    const etag = expectStatus(await s.get(path), 200).headers.get('etag')!;
    reads.reset();
    const amended = await s.post(w.nurse.token, `${path}/enmiendas`, amendment, { 'If-Match': etag });
    assert.equal((expectStatus(amended, 200).body.amendments as unknown[]).length, 1);
    assertReadOnce('amendment');
  });
});
