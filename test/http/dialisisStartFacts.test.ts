// Facts loaded once (issue 22 item 3): one session start over real HTTP on real stores reads the company policy stream
// once and the patient's stream once, however many claims and rules judge them. Counted in stream reads (a counting
// store), never timed.
import assert from 'node:assert/strict';
import { countingEventStore, type ReadCounts } from '../support/countingEventStore.js';
import { categoryOfStream } from '../../src/stores/eventStore.js';
import { expectStatus, startDialisisWorld, unique, type DialisisWorld } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { dialyzerBody } from './filtrosWorld.js';

describe('Dialisis session start: facts loaded once', () => {
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

  it('reads the policy stream once and the patient stream once for a start with machine, dialyzer and both lines', async () => {
    const patientId = await s.prescribedPatient();
    // Single use: a reusable one would first need the two-person identity check (issue 21 item 14), not under test here.
    const dialyzerId = expectStatus(await s.post(w.a, '/filtros-dialisis', dialyzerBody({ reusable: false })), 201).body.id as string;
    expectStatus(await s.post(w.a, `/filtros-dialisis/${dialyzerId}/asignacion`, { patientId, baselineTcvMl: 100 }), 200);
    const line = async (base: string): Promise<string> => {
      const json = { model: 'AV-Set', lot: 'L1', serial: unique('SER-'), primingVolumeMl: 140, reusable: true, receivedOn: '2025-01-10' };
      const id = expectStatus(await s.post(w.a, base, json), 201).body.id as string;
      expectStatus(await s.post(w.a, `${base}/${id}/asignacion`, { patientId }), 200);
      return id;
    };
    const equipment = { dialyzerId, arterialLineId: await line('/lineas-arteriales'), venousLineId: await line('/lineas-venosas') };
    const sessionId = await s.extraSession(patientId);
    await s.readyToStart(sessionId);
    const machineId = await s.readyMachine();
    await w.server.services.processes.waitFor(await w.server.services.events.headPosition());

    reads.reset();
    const body = { machineId, stationId: w.stationA.stationId, ...equipment };
    expectStatus(await s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, body), 200);
    const counted = readsByCategory();
    console.log('      stream reads in one start:', JSON.stringify(counted));
    assert.equal(counted.policy, 1, JSON.stringify(counted));
    assert.equal(counted.patient, 1, JSON.stringify(counted));
  });
});
