// Facts loaded once for the signed commands (issue 22 item 3): the nurse's sign-off and an amendment over real HTTP on
// real stores read the company policy stream once (the amendment read it twice: for its window and for the judged values)
// and the session stream once before appending (the judged values read it again). Counted in stream reads, never timed.
import assert from 'node:assert/strict';
import { expectStatus } from './dialisisWorld.js';
import { countedDialisisWorld } from './dialisisReadCounts.js';

describe('Dialisis signed records: facts loaded once', () => {
  const counted = countedDialisisWorld();

  /** The policy stream once; the session stream once for the facts and once by the append. */
  const assertReadOnce = (what: string): void => {
    const perCategory = counted.readsByCategory();
    console.log(`      stream reads in one ${what}:`, JSON.stringify(perCategory));
    assert.equal(perCategory.policy, 1, JSON.stringify(perCategory));
    assert.equal(perCategory.dialysisSession, 2, JSON.stringify(perCategory));
  };

  it('a sign-off and an amendment each read the policy stream once and the session stream once before appending', async () => {
    const { path } = await counted.s.treatedSession(await counted.s.prescribedPatient());
    const signCode = await counted.w.stepUpCode(counted.w.nurse);
    await counted.w.server.services.processes.waitFor(await counted.w.server.services.events.headPosition());

    counted.reads.reset();
    expectStatus(await counted.s.post(counted.w.nurse.token, `${path}/firma`, { code: signCode }), 200);
    assertReadOnce('sign-off');

    const amendment = {
      block: 'post',
      changes: { scaleWeightKg: 63.2 },
      reason: 'Scale recalibrated',
      code: await counted.w.stepUpCode(counted.w.nurse),
    };
    await counted.w.server.services.processes.waitFor(await counted.w.server.services.events.headPosition());
    const etag = expectStatus(await counted.s.get(path), 200).headers.get('etag')!;
    counted.reads.reset();
    const amended = await counted.s.post(counted.w.nurse.token, `${path}/enmiendas`, amendment, { 'If-Match': etag });
    assert.equal((expectStatus(amended, 200).body.amendments as unknown[]).length, 1);
    assertReadOnce('amendment');
  });
});
