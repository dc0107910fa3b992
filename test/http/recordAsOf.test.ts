// Any record as it was (issue 23 item 2) over real HTTP: a session read asOf an instant before its amendment shows the
// original value, a version read, the plain answer when the record did not exist yet, and a history entry's changes.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { prescriptionBody } from './prescriptionWorld.js';
import { contractBody, withClients } from './clientesWorld.js';
import { productBody } from './productosWorld.js';
import { unique } from './dialisisWorld.js';

describe('Any record as it was over HTTP: asOf, version and field-level history', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const scaleWeight = (session: Json): unknown => (session.post as Json).scaleWeightKg;
  /** The version and event an as-of answer names (X-Record-Event: version=3, type="…", occurredAt="…", actor="…"). */
  const eventOf = (answer: Answer): Json =>
    Object.fromEntries(
      answer.headers
        .get('x-record-event')!
        .split(', ')
        .map((part) => [part.slice(0, part.indexOf('=')), JSON.parse(part.slice(part.indexOf('=') + 1)) as string | number]),
    );

  it('a session read asOf an instant before its amendment shows the original value, with the version and event that made it', async () => {
    const { path } = await s.treatedSession(await s.prescribedPatient());
    expectStatus(await s.post(w.nurse.token, `${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    const signed = expectStatus(await s.get(path), 200);
    const before = new Date(w.server.clock.now().getTime()).toISOString();
    await w.advance(5 * MINUTE);
    const amend = { block: 'post', changes: { scaleWeightKg: 63.2 }, reason: 'Scale recalibrated', code: await w.stepUpCode(w.nurse) };
    const amended = expectStatus(await s.post(w.nurse.token, `${path}/enmiendas`, amend, { 'If-Match': signed.headers.get('etag')! }), 200);
    assert.equal(scaleWeight(amended.body), 63.2);
    assert.notEqual(scaleWeight(signed.body), 63.2);

    const then = expectStatus(await s.get(`${path}?asOf=${encodeURIComponent(before)}`), 200);
    assert.deepEqual(then.body, signed.body);
    assert.equal(then.headers.get('etag'), signed.headers.get('etag'));
    const made = eventOf(then);
    assert.deepEqual([made.type, made.actor], ['SessionSignedByNurse', w.nurse.userId]);
    assert.ok(Date.parse(made.occurredAt as string) <= Date.parse(before));
    assert.ok(then.headers.get('x-event-position'), 'the event position, sealed');
    // Now (or any instant after the amendment) is the record as it is.
    const now = expectStatus(await s.get(`${path}?asOf=${encodeURIComponent(w.server.clock.now().toISOString())}`), 200);
    assert.equal(scaleWeight(now.body), 63.2);

    // A version read: the version a read at a point names answers the same record.
    const version = String(eventOf(then).version);
    const byVersion = expectStatus(await s.get(`${path}?version=${version}`), 200);
    assert.deepEqual(byVersion.body, signed.body);
    assert.equal(String(eventOf(byVersion).version), version);
    expectStatus(await s.get(`${path}?version=${Number(version) + 50}`), 404, 'not-found');

    // Both at once: a 422 naming both.
    const both = expectStatus(await s.get(`${path}?version=0&asOf=${encodeURIComponent(before)}`), 422, 'validation-failed');
    assert.deepEqual(pointers(both).sort(), ['/query/asOf', '/query/version']);
    // Another company's session is absent, at any instant.
    expectStatus(await s.get(`${path}?asOf=${encodeURIComponent(before)}`, w.b), 404, 'not-found');

    // The history says what the amendment changed, from what to what, who and why.
    const history = expectStatus(await s.get(`${path}/historial?limit=100`), 200).body.items as Json[];
    const entry = history.find((e) => e.type === 'SessionAmended')!;
    assert.equal(entry.actor, w.nurse.userId);
    assert.equal((entry.data as Json).reason, 'Scale recalibrated');
    const changes = entry.changes as Json[];
    assert.deepEqual(
      changes.find((c) => c.field === '/post/scaleWeightKg'),
      { field: '/post/scaleWeightKg', from: scaleWeight(signed.body), to: 63.2 },
    );
    assert.ok(!changes.some((c) => c.field === '/revision' || c.field === '/_position'), 'bookkeeping is not a change');
    const created = history[0]!.changes as Json[];
    assert.ok(
      created.some((c) => c.field === '/patientId' && c.from === null),
      'the first entry sets every field',
    );
  });

  it('says plainly when the record did not exist yet: 404 not-yet-existing naming its first event', async () => {
    const long = new Date(w.server.clock.now().getTime() - 60 * MINUTE).toISOString();
    const patientId = await w.patient(w.a);
    const answer = expectStatus(await s.get(`/pacientes/${patientId}?asOf=${encodeURIComponent(long)}`), 404, 'not-yet-existing');
    const first = expectStatus(await s.get(`/pacientes/${patientId}/historial`), 200).body.items as Json[];
    assert.equal(answer.body.firstEventAt, first[0]!.occurredAt);
    assert.match(answer.body.detail as string, /did not exist yet/);
    // Version 0 is its registration.
    expectStatus(await s.get(`/pacientes/${patientId}?version=0`), 200);
    expectStatus(await s.get(`/pacientes/${patientId}?asOf=not-a-date`), 422, 'validation-failed');
    const registered = first[0]!.changes as Json[];
    assert.ok(registered.length > 0 && registered.every((c) => c.from === null), 'the registration sets every field');
  });

  it('the prescription in force as it stood before a new version, and a nursing note as it was before its amendment', async () => {
    const patientId = await s.prescribedPatient();
    const base = `/dialisis/pacientes/${patientId}/prescripciones`;
    const before = w.server.clock.now().toISOString();
    await w.advance(5 * MINUTE);
    expectStatus(await s.post(w.physician.token, base, prescriptionBody({ qbMlMin: 300 })), 201);
    assert.equal(expectStatus(await s.get(`${base}/vigente`), 200).body.qbMlMin, 300);
    const then = expectStatus(await s.get(`${base}/vigente?asOf=${encodeURIComponent(before)}`), 200);
    assert.deepEqual([then.body.version, then.body.qbMlMin, eventOf(then).type], [1, 350, 'PrescriptionIssued']);
    const long = new Date(Date.parse(before) - 60 * MINUTE).toISOString();
    expectStatus(await s.get(`${base}/vigente?asOf=${encodeURIComponent(long)}`), 404, 'not-yet-existing');
    expectStatus(await s.get(`${base}/vigente?asOf=${encodeURIComponent(before)}`, w.b), 404, 'not-found');

    const notes = `/pacientes/${patientId}/notas`;
    const noteId = expectStatus(await w.call(w.a, 'POST', notes, { json: { noteType: 'general', text: 'First words' } }), 201).body.id;
    const written = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    expectStatus(await w.call(w.a, 'POST', `${notes}/${noteId}/enmiendas`, { json: { text: 'Second words', reason: 'Typo' } }), 201);
    const note = expectStatus(await s.get(`${notes}/${noteId}?asOf=${encodeURIComponent(written)}`), 200).body;
    assert.deepEqual([note.text, (note.versions as Json[]).length], ['First words', 1]);
    assert.equal(expectStatus(await s.get(`${notes}/${noteId}`), 200).body.text, 'Second words');
  });

  it('a contract as it was in its client before its early termination; one signed later did not exist then', async () => {
    const id = (await withClients(w).client(w.a)).body.id as string;
    const contracts = `/clientes/${id}/contratos`;
    const contractId = expectStatus(await w.call(w.a, 'POST', contracts, { json: contractBody() }), 201).body.contractId as string;
    const signed = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const ending = { endsOn: '2025-06-30', reason: 'Rate renegotiated' };
    expectStatus(await w.call(w.a, 'POST', `${contracts}/${contractId}/terminacion`, { json: ending }), 200);
    const then = expectStatus(await s.get(`${contracts}/${contractId}?asOf=${encodeURIComponent(signed)}`), 200);
    assert.deepEqual([then.body.status, then.body.lastDay], ['signed', '2025-12-31']);
    assert.equal(eventOf(then).type, 'ContractSigned');
    assert.equal(expectStatus(await s.get(`${contracts}/${contractId}`), 200).body.status, 'terminated');
    const client = `/clientes/${id}?asOf=${encodeURIComponent(new Date(Date.parse(signed) - 60 * MINUTE).toISOString())}`;
    expectStatus(await s.get(client), 404, 'not-yet-existing');
  });

  it("a product's stock then; a removed patient's kit stays readable as it was, and after its removal says when", async () => {
    const product = { category: 'needle', name: 'Needle 16G', unit: 'unit', lotTracked: false, expiryTracked: false };
    const productId = expectStatus(await s.post(w.a, '/productos', productBody({ minimumStock: 0, ...product })), 201).body.id;
    const store = { locationId: w.stationA.locationId, code: unique('ALM-'), name: 'Almacén de sala', kind: 'ward' };
    const warehouseId = expectStatus(await s.post(w.a, '/productos/almacenes', store), 201).body.id;
    const receipt = { warehouseId, quantity: 10, supplier: 'Droguería Sur', documentNumber: 'F001-9' };
    expectStatus(await s.post(w.a, `/productos/${productId}/ingresos`, receipt), 201);
    const received = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    expectStatus(await s.post(w.a, `/productos/${productId}/ingresos`, { ...receipt, quantity: 5 }), 201);
    // A product as it was: its stock then, from the kardex.
    const stockThen = expectStatus(await s.get(`/productos/${productId}?asOf=${encodeURIComponent(received)}`), 200).body;
    assert.deepEqual([stockThen.stock, expectStatus(await s.get(`/productos/${productId}`), 200).body.stock], [10, 15]);
    const path = `/productos/kits/pacientes/${await w.patient(w.a)}`;
    expectStatus(await w.call(w.a, 'PUT', path, { json: { warehouseId, items: [{ productId, quantity: 2 }] } }), 200);
    const set = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const removed = expectStatus(await w.call(w.a, 'DELETE', path), 204);
    expectStatus(await s.get(`${path}?minPosition=${encodeURIComponent(removed.headers.get('x-event-position')!)}`), 404);
    const then = expectStatus(await s.get(`${path}?asOf=${encodeURIComponent(set)}`), 200);
    assert.deepEqual(
      (then.body.items as Json[]).map((i) => [i.productId, i.quantity]),
      [[productId, 2]],
    );
    const after = expectStatus(await s.get(`${path}?version=1`), 404, 'not-found');
    assert.match(after.body.detail as string, /removed at/);
    const history = expectStatus(await s.get(`${path}/historial`), 200).body.items as Json[];
    assert.ok(
      (history[1]!.changes as Json[]).some((c) => c.field === '/items' && c.to === null),
      'the removal empties the kit',
    );
  });
});
