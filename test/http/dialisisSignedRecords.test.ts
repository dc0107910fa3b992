// Signed dialysis records over real HTTP (issue 20 items 4 and 7): only a person with a clinical staff record and a fresh
// authenticator code amends or adds an addendum, never an API client; only a physician's position validates or prescribes;
// an amendment after validation sends the session back for validation (the view and the sheet keep both); and the
// company's clinical maximums bound every list of the session.
import assert from 'node:assert/strict';
import { clientToken } from './adminWorld.js';
import { clinician, expectStatus, pointers, startDialisisWorld, type Clinician, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { prescriptionBody } from './prescriptionWorld.js';
import { allText, open } from './pdfRead.js';

describe('Dialisis signed records over HTTP: who changes them, who validates, and how much a session holds', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  /** A licensed nurse's staff record (not a physician's position) on a member holding the built-in physician role. */
  let nurseWithPhysicianRole: Clinician;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
    nurseWithPhysicianRole = await clinician(w, 'physician', {});
  });
  after(async () => w?.close());

  const code = (who: Clinician): Promise<string> => w.stepUpCode(who);
  const etagOf = async (path: string): Promise<string> => expectStatus(await s.get(path), 200).headers.get('etag')!;
  const amendment = (kg: number, extra: Json = {}): Json => ({
    block: 'post',
    changes: { scaleWeightKg: kg },
    reason: 'Scale recalibrated',
    ...extra,
  });

  /** A treated session the nurse signed: its path. */
  async function signedSession(): Promise<string> {
    const { path } = await s.treatedSession(await s.prescribedPatient());
    expectStatus(await s.post(w.nurse.token, `${path}/firma`, { code: await code(w.nurse) }), 200);
    return path;
  }

  it('an API client holding the permission never amends nor adds an addendum to a signed session (403 people-only)', async () => {
    const path = await signedSession();
    const created = expectStatus(await s.post(w.a, '/integraciones', { name: 'Monitor gateway', roles: ['nurse'] }), 201).body;
    const issued = await clientToken(w.server, (created.client as Json).id as string, created.clientSecret as string);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const program = (issued.body as Json).access_token as string;
    const amended = await s.post(program, `${path}/enmiendas`, amendment(63.2, { code: '123456' }), { 'If-Match': await etagOf(path) });
    expectStatus(amended, 403, 'people-only');
    const added = await s.post(program, `${path}/adendas`, { text: 'From the gateway', reason: 'sync', code: '123456' });
    expectStatus(added, 403, 'people-only');
    const session = expectStatus(await s.get(path), 200).body;
    assert.deepEqual([session.amendments, session.addenda], [[], []]);
  });

  it('a person needs a fresh authenticator code, used once, and a clinical staff record allowed to sign', async () => {
    const path = await signedSession();
    const addendum = { text: 'Patient called: dizziness at home', reason: 'Follow-up call' };
    assert.deepEqual(pointers(expectStatus(await s.post(w.nurse.token, `${path}/adendas`, addendum), 422)), ['/body/code']);
    const noCode = await s.post(w.nurse.token, `${path}/enmiendas`, amendment(63.2), { 'If-Match': await etagOf(path) });
    expectStatus(noCode, 422, 'validation-failed');
    const right = await code(w.nurse);
    const wrong = `${right.slice(0, 5)}${(Number(right[5]) + 5) % 10}`;
    const refused = await s.post(w.nurse.token, `${path}/adendas`, { ...addendum, code: wrong });
    assert.deepEqual(pointers(expectStatus(refused, 422, 'validation-failed')), ['/body/code']);
    expectStatus(await s.post(w.nurse.token, `${path}/adendas`, { ...addendum, code: right }), 200);
    // The same code again is not fresh.
    const replayed = await s.post(w.nurse.token, `${path}/enmiendas`, amendment(63.2, { code: right }), { 'If-Match': await etagOf(path) });
    assert.deepEqual(pointers(expectStatus(replayed, 422, 'validation-failed')), ['/body/code']);
    // The permission without a staff record is not enough.
    const unlinked = await w.withRoles(['nurse']);
    const stranger = expectStatus(await s.post(unlinked, `${path}/adendas`, { ...addendum, code: '123456' }), 409, 'signer-may-not-sign');
    assert.deepEqual(stranger.body.reasons, ['no-staff-record']);
    const session = expectStatus(await s.get(path), 200).body;
    assert.equal((session.addenda as Json[]).length, 1);
    assert.deepEqual((session.addenda as Json[])[0]!.addedBy, { userId: w.nurse.userId, staffId: w.nurse.staffId });
    assert.deepEqual(session.amendments, []);
  });

  it("validates, prescribes and discontinues only from a physician's position: a licensed nurse with the physician role may not", async () => {
    const path = await signedSession();
    // The world's clock moved on (treated sessions last an hour): sign in again.
    nurseWithPhysicianRole.token = await w.server.signInAndSelect(nurseWithPhysicianRole.account);
    const validation = await s.post(nurseWithPhysicianRole.token, `${path}/validacion`, { code: await code(nurseWithPhysicianRole) });
    assert.deepEqual(expectStatus(validation, 409, 'signer-may-not-sign').body.reasons, ['position-not-physician']);
    const patientId = await w.patient(w.a);
    const prescription = await s.post(nurseWithPhysicianRole.token, `/dialisis/pacientes/${patientId}/prescripciones`, prescriptionBody());
    assert.deepEqual(expectStatus(prescription, 403, 'prescriber-may-not-sign').body.reasons, ['position-not-physician']);
    expectStatus(await s.post(w.physician.token, `/dialisis/pacientes/${patientId}/prescripciones`, prescriptionBody()), 201);
    const validated = expectStatus(await s.post(w.physician.token, `${path}/validacion`, { code: await code(w.physician) }), 200);
    assert.equal(validated.body.status, 'validated');
    // Discontinuing a prescription is prescribing too: only from a physician's position.
    const stop = `/dialisis/pacientes/${patientId}/prescripciones/suspension`;
    const refusedStop = await s.post(nurseWithPhysicianRole.token, stop, { reason: 'Transplanted' });
    assert.deepEqual(expectStatus(refusedStop, 403, 'prescriber-may-not-sign').body.reasons, ['position-not-physician']);
    const stopped = expectStatus(await s.post(w.physician.token, stop, { reason: 'Transplanted' }), 200);
    assert.deepEqual(stopped.body.discontinued.by, { userId: w.physician.userId, staffId: w.physician.staffId });
  });

  it('an amendment after validation sends the session back for validation; the view and the sheet show both', async () => {
    const path = await signedSession();
    const first = expectStatus(await s.post(w.physician.token, `${path}/validacion`, { code: await code(w.physician) }), 200).body;
    const firstMark = first.physicianValidation as Json;
    const amend = amendment(63.2, { code: await code(w.nurse) });
    // A stale If-Match is refused before the code is spent: the same code then amends.
    expectStatus(await s.post(w.nurse.token, `${path}/enmiendas`, amend, { 'If-Match': 'W/"0"' }), 412);
    const amended = expectStatus(await s.post(w.nurse.token, `${path}/enmiendas`, amend, { 'If-Match': await etagOf(path) }), 200).body;
    assert.equal(amended.status, 'signed');
    assert.equal(amended.physicianValidation, null);
    assert.deepEqual(amended.earlierValidations, [firstMark]);
    const kept = (amended.amendments as Json[])[0]!;
    assert.deepEqual([kept.returnsToValidation, kept.amendedBy], [true, { userId: w.nurse.userId, staffId: w.nurse.staffId }]);

    const sheet = await fetch(`${w.server.url}${path}/hoja`, { headers: { authorization: `Bearer ${w.a}` } });
    assert.equal(sheet.status, 200);
    const text = await allText(await open(Buffer.from(await sheet.arrayBuffer())));
    for (const expected of ['Validación médica', '(anterior)', 'Retirada por una enmienda posterior', 'Scale recalibrated']) {
      assert.ok(text.includes(expected), `the sheet shows "${expected}"`);
    }

    const again = expectStatus(await s.post(w.physician.token, `${path}/validacion`, { code: await code(w.physician) }), 200).body;
    assert.equal(again.status, 'validated');
    assert.deepEqual(again.earlierValidations, [firstMark]);
    assert.notDeepEqual(again.physicianValidation, firstMark);
  });

  it("bounds a session's entries by the company policy: one more answers 409 session-limit-reached naming the limit", async () => {
    const settings = { sessionLimits: { readings: 2, addenda: 1 } };
    const policy = await w.call(w.a, 'PUT', '/empresas/actual/politica', {
      json: { settings, reason: 'Test limits' },
      headers: { 'if-match': 'W/"-1"' },
    });
    const revision = expectStatus(policy, 200).body.revision;
    const { path } = await s.startedSession(await s.prescribedPatient());
    await w.advance(60 * MINUTE);
    expectStatus(await s.post(w.nurse.token, `${path}/lecturas`, s.reading(30)), 200);
    expectStatus(await s.post(w.nurse.token, `${path}/lecturas`, s.reading(20)), 200);
    const third = expectStatus(await s.post(w.nurse.token, `${path}/lecturas`, s.reading(10)), 409, 'session-limit-reached');
    assert.deepEqual([third.body.limit, third.body.max, third.body.policyRevision], ['readings', 2, revision]);
    assert.equal((expectStatus(await s.get(path), 200).body.readings as Json[]).length, 2);

    const signed = await signedSession();
    const note = { text: 'Lab results reviewed', reason: 'Follow-up' };
    expectStatus(await s.post(w.nurse.token, `${signed}/adendas`, { ...note, code: await code(w.nurse) }), 200);
    const more = await s.post(w.nurse.token, `${signed}/adendas`, { ...note, code: await code(w.nurse) });
    assert.equal(expectStatus(more, 409, 'session-limit-reached').body.limit, 'addenda');
  });
});
