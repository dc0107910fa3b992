// One dry weight, over real HTTP (issue 21 item 4): the session uses the patient's dry weight in force on its date
// (/pacientes/{id}/peso-seco) and records the value it used; a prescription keeps no copy of its own: a dry weight sent
// with it is recorded on the patient from its validFrom, and its view reads the patient's record.
import assert from 'node:assert/strict';
import { prescriptionBody } from './prescriptionWorld.js';
import { expectStatus, pointers, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Dialisis: one dry weight, the patient’s, over HTTP', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const prescribe = (patientId: string, overrides: Json): Promise<Answer> =>
    s.post(w.physician.token, `/dialisis/pacientes/${patientId}/prescripciones`, prescriptionBody(overrides));
  const start = async (patientId: string): Promise<Answer> => {
    const sessionId = await s.extraSession(patientId);
    await s.readyToStart(sessionId);
    const machineId = await s.readyMachine();
    return s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, { machineId, stationId: w.stationA.stationId });
  };

  it("starts with the patient's dry weight in force on the session's date, not the prescription's, and records it", async () => {
    // Registered at 62.5 kg, prescribed (validFrom 2025-03-01) with the same 62.5: then 60.5 kg from yesterday on /peso-seco.
    const patient = await w.patient(w.a);
    expectStatus(await prescribe(patient, {}), 201);
    expectStatus(await s.post(w.a, `/pacientes/${patient}/peso-seco`, { dryWeightKg: 60.5, effectiveDate: w.dateIn(-1) }), 201);
    const started = expectStatus(await start(patient), 200);
    assert.deepEqual(started.body.dryWeight, { dryWeightKg: 60.5, effectiveDate: w.dateIn(-1) });
    assert.equal((started.body.prescription as Json).dryWeightKg, 60.5);
    // The UF goal counts from it: net pre-weight 66 - 0.5 = 65.5 kg, less 60.5 kg = 5.0 L (62.5 would have given 3.0).
    assert.equal(((started.body.clinical as Json).derived as Json).ufGoalL, 5);
  });

  it("records a dry weight sent with a prescription on the patient, from validFrom; the prescription's view reads it", async () => {
    const patient = await w.patient(w.a);
    expectStatus(await prescribe(patient, {}), 201);
    const issued = expectStatus(await prescribe(patient, { validFrom: w.dateIn(0), dryWeightKg: 61 }), 201);
    assert.equal(issued.body.dryWeightKg, 61);
    const record = expectStatus(
      await s.get(`/pacientes/${patient}?${'minPosition=' + encodeURIComponent(issued.headers.get('x-event-position')!)}`),
      200,
    ).body;
    const history = record.dryWeightHistory as Json[];
    assert.deepEqual([history.at(-1)!.dryWeightKg, history.at(-1)!.effectiveDate, record.dryWeightKg], [61, w.dateIn(0), 61]);
    // The earlier version shows the dry weight in force from its own start: the patient's 62.5 of then.
    const march = expectStatus(await s.get(`/dialisis/pacientes/${patient}/prescripciones/vigente?fecha=2025-03-15`), 200).body;
    assert.equal(march.dryWeightKg, 62.5);
    // Without a dry weight the prescription is issued, and nothing is added to the patient's record.
    expectStatus(await prescribe(patient, { validFrom: w.dateIn(0), dryWeightKg: undefined }), 201);
    const started = expectStatus(await start(patient), 200);
    assert.deepEqual(started.body.dryWeight, { dryWeightKg: 61, effectiveDate: w.dateIn(0) });
    // A dry weight cannot take effect on a day that has not come: 422 naming it.
    const future = await prescribe(patient, { validFrom: w.dateIn(3), dryWeightKg: 60 });
    assert.deepEqual(pointers(expectStatus(future, 422, 'validation-failed')), ['/body/dryWeightKg']);
  });

  it("a back-dated dry weight (a prescription's validFrom) does not become the patient's current one over a later one", async () => {
    const patient = await w.patient(w.a);
    expectStatus(await s.post(w.a, `/pacientes/${patient}/peso-seco`, { dryWeightKg: 60.5, effectiveDate: w.dateIn(-1) }), 201);
    const issued = expectStatus(await prescribe(patient, { validFrom: '2025-03-01', dryWeightKg: 63 }), 201);
    assert.equal(issued.body.dryWeightKg, 63);
    const seen = 'minPosition=' + encodeURIComponent(issued.headers.get('x-event-position')!);
    const record = expectStatus(await s.get(`/pacientes/${patient}?${seen}`), 200).body;
    assert.deepEqual([record.dryWeightKg, (record.dryWeightHistory as Json[]).map((h) => h.dryWeightKg)], [60.5, [62.5, 60.5, 63]]);
    assert.deepEqual(expectStatus(await start(patient), 200).body.dryWeight, { dryWeightKg: 60.5, effectiveDate: w.dateIn(-1) });
  });

  it('refuses to start a patient without a dry weight in force on the date', async () => {
    const patient = await w.patient(w.a, { dryWeightKg: undefined });
    expectStatus(await prescribe(patient, { dryWeightKg: undefined }), 201);
    const refused = expectStatus(await start(patient), 409, 'session-may-not-start');
    assert.deepEqual((refused.body.reasons as Json).session, ['no-dry-weight-in-force']);
  });
});
