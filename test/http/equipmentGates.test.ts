// What gates equipment at a session start over real HTTP on real stores (issue 21, items 12 and 13): a failed
// calibration keeps the machine out of service, a back-dated preventive maintenance does not forgive the hours run
// since, and the dialyzer must be the one the prescription in force orders.
import assert from 'node:assert/strict';
import { startDialisisWorld, type DialisisWorld } from './dialisisWorld.js';
import { postBlock, sessionSteps, type SessionSteps, MINUTE } from './dialisisSessionSteps.js';
import { dialyzerBody } from './filtrosWorld.js';
import { expectStatus, type Json } from './monitoresWorld.js';

describe('Equipment gates at the session start', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const startBody = (machineId: string, extra: Json = {}): Json => ({ machineId, stationId: w.stationA.stationId, ...extra });
  const machineOf = async (id: string): Promise<Json> => expectStatus(await s.get(`/monitores/${id}`), 200).body;

  it('a failed calibration refuses a start on that machine until a passing one', async () => {
    const patientId = await s.prescribedPatient();
    const sessionId = await s.extraSession(patientId);
    await s.readyToStart(sessionId);
    const machineId = await s.readyMachine();
    const calibration = { parameter: 'conductivity', reference: 14, measured: 15.3, unit: 'mS/cm', passed: false };
    const failed = expectStatus(await s.post(w.a, `/monitores/${machineId}/calibraciones`, calibration), 200);
    assert.deepEqual([failed.body.status, failed.body.failedCalibrations], ['out-of-service', ['conductivity']]);
    const start = await s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, startBody(machineId));
    const refused = expectStatus(start, 409, 'session-may-not-start');
    assert.ok((refused.body.reasons.machine as string[]).includes('calibration-failed'), JSON.stringify(refused.body));
    const passed = expectStatus(
      await s.post(w.a, `/monitores/${machineId}/calibraciones`, { ...calibration, measured: 14.05, passed: true }),
      200,
    );
    assert.deepEqual([passed.body.status, passed.body.failedCalibrations], ['available', []]);
    expectStatus(await s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, startBody(machineId)), 200);
  });

  it('shows when the next calibration is due under the policy', async () => {
    const machineId = await s.readyMachine();
    const machine = await machineOf(machineId);
    assert.deepEqual(machine.calibration, { everyDays: 30, dueDate: w.dateIn(30), overdue: false });
  });

  it('a back-dated preventive maintenance does not forgive the hours run since its date', async () => {
    const patientId = await s.prescribedPatient();
    const sessionId = await s.extraSession(patientId);
    await s.readyToStart(sessionId);
    // Installed three days ago: nothing is due, and a maintenance may be dated any day since.
    const machineId = (await w.register(w.a, { installDate: w.dateIn(-3) })).body.id as string;
    expectStatus(await s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, startBody(machineId)), 200);
    await w.advance(120 * MINUTE);
    const ended = expectStatus(await s.post(w.nurse.token, `${s.sessionPath(sessionId)}/fin`), 200);
    await s.processed(ended);
    expectStatus(await s.post(w.nurse.token, `${s.sessionPath(sessionId)}/post-dialisis`, postBlock()), 200);
    const used = await machineOf(machineId);
    assert.ok((used.hourMeter as number) >= 2, JSON.stringify(used));
    expectStatus(await s.post(w.a, `/monitores/${machineId}/desinfecciones`, { method: 'heat' }), 200);
    const pm = { performedOn: w.dateIn(-1), actions: '500 h kit', tests: [{ name: 'conductivity vs meter', passed: true }] };
    const recorded = expectStatus(await s.post(w.a, `/monitores/${machineId}/mantenimientos-preventivos`, pm), 200);
    const maintenance = recorded.body.maintenance as Json;
    // The session ran after the date performed: its hours still count against the plan.
    assert.equal(maintenance.hoursLeft, 1500 - (used.hourMeter as number));
    assert.deepEqual(recorded.body.lastPreventiveMaintenance, { performedOn: w.dateIn(-1), hourMeter: 0 });
  });

  it('refuses a start with a dialyzer of another model, flux or surface than the prescription in force (409)', async () => {
    const patientId = await s.prescribedPatient(); // prescribed: FX80, high flux, 1.8 m²
    const sessionId = await s.extraSession(patientId);
    await s.readyToStart(sessionId);
    const machineId = await s.readyMachine();
    const other = dialyzerBody({ model: 'FX60', flux: 'low', surfaceM2: 1.4, reusable: false });
    const dialyzerId = expectStatus(await s.post(w.a, '/filtros-dialisis', other), 201).body.id as string;
    expectStatus(await s.post(w.a, `/filtros-dialisis/${dialyzerId}/asignacion`, { patientId, baselineTcvMl: 100 }), 200);
    const refused = expectStatus(
      await s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, startBody(machineId, { dialyzerId })),
      409,
      'session-may-not-start',
    );
    assert.deepEqual(refused.body.reasons, {
      dialyzer: ['dialyzer-model-not-prescribed', 'dialyzer-flux-not-prescribed', 'dialyzer-surface-not-prescribed'],
    });
    // Nothing was claimed: the machine is still available.
    assert.equal((await machineOf(machineId)).status, 'available');
    const prescribed = dialyzerBody({ reusable: false });
    const rightId = expectStatus(await s.post(w.a, '/filtros-dialisis', prescribed), 201).body.id as string;
    expectStatus(await s.post(w.a, `/filtros-dialisis/${rightId}/asignacion`, { patientId, baselineTcvMl: 100 }), 200);
    expectStatus(await s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, startBody(machineId, { dialyzerId: rightId })), 200);
  });
});
