// Facts loaded once (issue 22 item 3): one session start over real HTTP on real stores reads the company policy stream
// once and the patient's stream once, however many claims and rules judge them. Counted in stream reads (a counting
// store), never timed.
import assert from 'node:assert/strict';
import { expectStatus, unique } from './dialisisWorld.js';
import { countedDialisisWorld } from './dialisisReadCounts.js';
import { dialyzerBody } from './filtrosWorld.js';

describe('Dialisis session start: facts loaded once', () => {
  const counted = countedDialisisWorld();

  it('reads the policy stream once and the patient stream once for a start with machine, dialyzer and both lines', async () => {
    const patientId = await counted.s.prescribedPatient();
    // Single use: a reusable one would first need the two-person identity check (issue 21 item 14), not under test here.
    const dialyzerId = expectStatus(await counted.s.post(counted.w.a, '/filtros-dialisis', dialyzerBody({ reusable: false })), 201).body
      .id as string;
    expectStatus(await counted.s.post(counted.w.a, `/filtros-dialisis/${dialyzerId}/asignacion`, { patientId, baselineTcvMl: 100 }), 200);
    const line = async (base: string): Promise<string> => {
      const json = { model: 'AV-Set', lot: 'L1', serial: unique('SER-'), primingVolumeMl: 140, reusable: true, receivedOn: '2025-01-10' };
      const id = expectStatus(await counted.s.post(counted.w.a, base, json), 201).body.id as string;
      expectStatus(await counted.s.post(counted.w.a, `${base}/${id}/asignacion`, { patientId }), 200);
      return id;
    };
    const equipment = { dialyzerId, arterialLineId: await line('/lineas-arteriales'), venousLineId: await line('/lineas-venosas') };
    const sessionId = await counted.s.extraSession(patientId);
    await counted.s.readyToStart(sessionId);
    const machineId = await counted.s.readyMachine();
    await counted.w.server.services.processes.waitFor(await counted.w.server.services.events.headPosition());

    counted.reads.reset();
    const body = { machineId, stationId: counted.w.stationA.stationId, ...equipment };
    expectStatus(await counted.s.post(counted.w.nurse.token, `${counted.s.sessionPath(sessionId)}/inicio`, body), 200);
    const perCategory = counted.readsByCategory();
    console.log('      stream reads in one start:', JSON.stringify(perCategory));
    assert.equal(perCategory.policy, 1, JSON.stringify(perCategory));
    assert.equal(perCategory.patient, 1, JSON.stringify(perCategory));
  });
});
