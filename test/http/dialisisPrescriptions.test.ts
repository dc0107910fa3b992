// Dialysis prescriptions end to end over real HTTP: a licensed physician issues versions that supersede each other from
// their validFrom, the list and the version in force on a day, discontinuation, the session start's read from the
// stream, tenancy, permissions, the prescriber's licence and field rules.
import assert from 'node:assert/strict';
import { prescriptionInForce } from '../../src/commands/dialisis/prescription/prescriptionWrites.js';
import {
  expectStatus,
  pointers,
  prescriptionBody,
  startPrescriptionWorld,
  type Json,
  type PrescriptionWorld,
} from './prescriptionWorld.js';

describe('Dialisis prescriptions over HTTP', () => {
  let w: PrescriptionWorld;
  let doctor: { userId: string; token: string };
  before(async () => {
    w = await startPrescriptionWorld();
    doctor = await w.physician();
  });
  after(async () => w?.close());

  const base = (patientId: string) => `/dialisis/pacientes/${patientId}/prescripciones`;
  const issue = (patientId: string, overrides: Json = {}, token = doctor.token, headers: Record<string, string> = {}) =>
    w.call(token, 'POST', base(patientId), { json: prescriptionBody(overrides), headers });

  it('issues version 1 with the caller as prescriber, ETag and position; reads it in force and in the list', async () => {
    const patientId = await w.patient(w.a);
    const created = expectStatus(await issue(patientId), 201);
    assert.equal(created.headers.get('etag'), 'W/"0"');
    assert.ok(created.headers.get('x-event-position'));
    assert.equal(created.headers.get('location'), base(patientId));
    const body = created.body;
    assert.deepEqual([body.version, body.supersedes, body.supersededBy, body.modality], [1, null, null, 'HDF-post']);
    assert.equal(body.prescribedBy.userId, doctor.userId);
    assert.ok(body.prescribedBy.staffId);
    assert.deepEqual([body.effectiveFrom, body.effectiveTo, body.validTo, body.discontinued], ['2025-03-01', null, null, null]);
    const minPosition = encodeURIComponent(created.headers.get('x-event-position')!);
    const current = expectStatus(await w.call(w.a, 'GET', `${base(patientId)}/vigente?fecha=2025-06-01&minPosition=${minPosition}`), 200);
    assert.equal(current.body.version, 1);
    assert.equal(current.headers.get('etag'), 'W/"0"');
    expectStatus(await w.call(w.a, 'GET', `${base(patientId)}/vigente?fecha=2025-02-28`), 404, 'not-found');
  });

  it('supersedes from the new validFrom: the old version ends the day before and stays listed, newest first', async () => {
    const patientId = await w.patient(w.a);
    expectStatus(await issue(patientId), 201);
    const second = expectStatus(
      await issue(patientId, { validFrom: '2025-04-01', dryWeightKg: 61.5 }, doctor.token, { 'if-match': 'W/"0"' }),
      201,
    );
    assert.deepEqual([second.body.version, second.body.supersedes, second.headers.get('etag')], [2, 1, 'W/"1"']);
    const list = expectStatus(
      await w.call(w.a, 'GET', `${base(patientId)}?minPosition=${encodeURIComponent(second.headers.get('x-event-position')!)}`),
      200,
    );
    assert.deepEqual(
      list.body.items.map((v: Json) => [v.version, v.effectiveFrom, v.effectiveTo, v.supersededBy]),
      [
        [2, '2025-04-01', null, null],
        [1, '2025-03-01', '2025-03-31', 2],
      ],
    );
    assert.equal(list.headers.get('etag'), 'W/"1"');
    const march = expectStatus(await w.call(w.a, 'GET', `${base(patientId)}/vigente?fecha=2025-03-31`), 200);
    const april = expectStatus(await w.call(w.a, 'GET', `${base(patientId)}/vigente?fecha=2025-04-01`), 200);
    assert.deepEqual([march.body.version, april.body.version, april.body.dryWeightKg], [1, 2, 61.5]);
    // The session start reads the stream itself: the snapshot of the version in force that day.
    const snapshot = await prescriptionInForce(w.server.services, w.server.admin.companyId, patientId, '2025-03-15');
    // No dry weight of its own: the session takes the patient's in force (issue 21 item 4).
    assert.deepEqual([snapshot?.version, snapshot?.durationMinutes, snapshot?.dryWeightKg], [1, 240, undefined]);
    assert.equal(await prescriptionInForce(w.server.services, w.server.admin.companyId, patientId, '2025-01-01'), null);
    expectStatus(await issue(patientId, { validFrom: '2025-03-15' }), 409, 'valid-from-before-previous-version');
    expectStatus(await issue(patientId, { validFrom: '2025-05-01' }, doctor.token, { 'if-match': 'W/"0"' }), 412);
  });

  it('discontinues from a day: nothing in force from then on; twice is refused', async () => {
    const patientId = await w.patient(w.a);
    expectStatus(await issue(patientId), 201);
    const url = `${base(patientId)}/suspension`;
    expectStatus(await w.call(doctor.token, 'POST', url, { json: { reason: 'x', from: '2025-02-01' } }), 422);
    const stopped = expectStatus(await w.call(doctor.token, 'POST', url, { json: { reason: 'transplanted', from: '2025-05-01' } }), 200);
    assert.deepEqual(
      [stopped.body.effectiveTo, stopped.body.discontinued.from, stopped.body.discontinued.reason],
      ['2025-04-30', '2025-05-01', 'transplanted'],
    );
    const minPosition = encodeURIComponent(stopped.headers.get('x-event-position')!);
    expectStatus(await w.call(w.a, 'GET', `${base(patientId)}/vigente?fecha=2025-05-01&minPosition=${minPosition}`), 404);
    expectStatus(await w.call(w.a, 'GET', `${base(patientId)}/vigente?fecha=2025-04-30`), 200);
    expectStatus(await w.call(doctor.token, 'POST', url, { json: { reason: 'again' } }), 409, 'prescription-discontinued');
    const other = await w.patient(w.a);
    expectStatus(await w.call(doctor.token, 'POST', `${base(other)}/suspension`, { json: { reason: 'none yet' } }), 409, 'no-prescription');
  });

  it('a retried issue with the same Idempotency-Key records one version', async () => {
    const patientId = await w.patient(w.a);
    const headers = { 'idempotency-key': `rx-${patientId}` };
    const first = expectStatus(await issue(patientId, {}, doctor.token, headers), 201);
    const again = expectStatus(await issue(patientId, {}, doctor.token, headers), 201);
    assert.deepEqual([first.body.version, again.body.version, again.headers.get('idempotent-replayed')], [1, 1, 'true']);
    const list = expectStatus(
      await w.call(w.a, 'GET', `${base(patientId)}?minPosition=${encodeURIComponent(first.headers.get('x-event-position')!)}`),
      200,
    );
    assert.equal(list.body.items.length, 1);
  });

  it("answers 404 for another company's patient, on every route", async () => {
    const foreign = await w.patient(w.b);
    expectStatus(await issue(foreign), 404);
    expectStatus(await w.call(w.a, 'GET', base(foreign)), 404);
    expectStatus(await w.call(w.a, 'GET', `${base(foreign)}/vigente?fecha=2025-06-01`), 404);
    expectStatus(await w.call(doctor.token, 'POST', `${base(foreign)}/suspension`, { json: { reason: 'x' } }), 404);
  });

  it('refuses a nurse (403 forbidden) and a caller with no staff record allowed to sign (403 prescriber-may-not-sign)', async () => {
    const patientId = await w.patient(w.a);
    const nurse = await w.withRole('nurse');
    expectStatus(await issue(patientId, {}, nurse.token), 403, 'forbidden');
    expectStatus(await w.call(nurse.token, 'POST', `${base(patientId)}/suspension`, { json: { reason: 'x' } }), 403, 'forbidden');
    expectStatus(await w.call(nurse.token, 'GET', base(patientId)), 200);
    const unlinked = await w.withRole('physician');
    const refused = expectStatus(await issue(patientId, {}, unlinked.token), 403, 'prescriber-may-not-sign');
    assert.deepEqual(refused.body.reasons, ['no-staff-record']);
  });

  it('refuses a deceased patient (409 patient-deceased)', async () => {
    const patientId = await w.patient(w.a);
    expectStatus(
      await w.call(w.a, 'POST', `/pacientes/${patientId}/estado`, { json: { status: 'deceased', reason: 'cardiac arrest' } }),
      200,
    );
    expectStatus(await issue(patientId), 409, 'patient-deceased');
  });

  it('answers 422 naming the field: hard ranges in the schema, rules between fields in the decider', async () => {
    const patientId = await w.patient(w.a);
    const ranges = expectStatus(
      await issue(patientId, {
        qbMlMin: 700,
        durationMinutes: 30,
        dialysate: { ...(prescriptionBody().dialysate as Json), sodiumMmolL: 150 },
        needles: { arterialGauge: 13, venousGauge: 15, cannulationTechnique: 'rope-ladder' },
      }),
      422,
      'validation-failed',
    );
    assert.deepEqual(pointers(ranges), [
      '/body/dialysate/sodiumMmolL',
      '/body/durationMinutes',
      '/body/needles/arterialGauge',
      '/body/qbMlMin',
    ]);
    const rules = expectStatus(
      await issue(patientId, { validTo: '2025-02-01', dryWeightKg: 62.55, anticoagulation: { kind: 'none' } }),
      422,
      'validation-failed',
    );
    assert.deepEqual(pointers(rules), ['/body/anticoagulation/reason', '/body/dryWeightKg', '/body/validTo']);
    const none = expectStatus(
      await issue(patientId, { anticoagulation: { kind: 'none', reason: 'active bleeding' }, needles: undefined }),
      201,
    );
    assert.deepEqual(none.body.anticoagulation, { kind: 'none', reason: 'active bleeding' });
  });
});
