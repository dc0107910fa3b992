// FiltrosDialisis over real HTTP: the done-when (TCV 78 % discarded by the reprocessing, maximum uses, patient
// exclusivity, HBsAg+ under the default policy), the reuse cycle with its checks, the floor queries, the label, company
// isolation and permissions.
import assert from 'node:assert/strict';
import { expectStatus, pdfText, pointers, startFiltrosWorld, type Confirmer, type FiltrosWorld, type Json } from './filtrosWorld.js';
import { endedSessionSeeds, type EndedSessionOf } from './referenceSeeds.js';

describe('FiltrosDialisis: dialyzers and their reuse', () => {
  let w: FiltrosWorld;
  let patientA: string;
  let patientB: string;
  let nurses: [Confirmer, Confirmer];
  let endedOf: EndedSessionOf;
  before(async () => {
    w = await startFiltrosWorld();
    endedOf = endedSessionSeeds(w);
    patientA = await w.patient(w.a, { givenNames: 'Rosa Elena', familyNames: 'Mamani Quispe' });
    patientB = await w.patient(w.a);
    nurses = await w.nurses();
  });
  after(async () => w?.close());

  const hoursAgo = (hours: number): string => new Date(w.server.clock.now().getTime() - hours * 3600_000).toISOString();
  const cycle = (overrides: Json = {}): Json => ({
    operatorId: 'tech-01',
    reprocessor: { kind: 'machine', name: 'Renatron II' },
    tcvMl: 92,
    pressureLeak: 'pass',
    bloodLeak: 'pass',
    germicide: { name: 'Peracidin', lot: 'G-77', concentrationPercent: 3.5 },
    fillTime: hoursAgo(0),
    storageLocation: 'Rack A-3',
    expiresOn: hoursAgo(-24 * 20).slice(0, 10),
    ...overrides,
  });
  // Two people confirm the patient, each with a fresh code of their own authenticator.
  const checks = async (patientId: string, overrides: Json = {}): Promise<Json> => ({
    patientId,
    germicidePotency: 'pass',
    residualTest: 'negative',
    identityConfirmations: await w.confirmations(nurses),
    ...overrides,
  });
  // The germicide's minimum dwell (11 h for peracetic acid) passes: the sessions it outlived are signed in again.
  const afterDwell = async (): Promise<void> => {
    w.server.clock.advance(11 * 3600_000 + 60_000);
    await w.refreshSessions();
  };
  // A use by hand names an ended session of the patient that used this dialyzer (issue 20 item 8, issue 21 item 10).
  const use = async (id: string, patientId: string, token = w.a) =>
    w.post(token, id, 'usos', { sessionId: await endedOf(token, patientId, { dialyzerId: id }), patientId });

  it('receives a dialyzer in stock, assigns it to its patient, and keeps serials unique within the company', async () => {
    const received = await w.receive(w.a, { serial: ' SN-UNIQUE-1 ' });
    const id = received.body.id as string;
    assert.equal(received.headers.get('location'), `/filtros-dialisis/${id}`);
    assert.equal(received.headers.get('etag'), 'W/"0"');
    assert.equal(received.body.status, 'in-stock');
    assert.equal(received.body.serial, 'SN-UNIQUE-1');
    const duplicate = await w.call(w.a, 'POST', '/filtros-dialisis', {
      json: { model: 'FX80', surfaceM2: 1.8, flux: 'high', membrane: 'Helixone', lot: 'L1', serial: 'sn-unique-1', reusable: true },
    });
    expectStatus(duplicate, 409, 'duplicate-serial');
    // Company B may use the same serial: uniqueness is per company.
    await w.receive(w.b, { serial: 'SN-UNIQUE-1' });

    const assigned = expectStatus(await w.post(w.a, id, 'asignacion', { patientId: patientA, baselineTcvMl: 105 }), 200);
    assert.equal(assigned.body.status, 'assigned');
    assert.equal(assigned.body.patientId, patientA);
    assert.equal(assigned.body.baselineTcvMl, 105);
    expectStatus(await w.post(w.a, id, 'asignacion', { patientId: patientB, baselineTcvMl: 105 }), 409, 'patient-mismatch');

    const listed = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis?pacienteId=${patientA}&estado=assigned`), 200);
    assert.ok((listed.body.items as Json[]).some((d) => d.id === id));
    const none = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis?pacienteId=${patientB}&estado=assigned`), 200);
    assert.ok(!(none.body.items as Json[]).some((d) => d.id === id));
  });

  it('discards a dialyzer whose TCV falls to 78 % of baseline in the reprocessing itself', async () => {
    const id = await w.assigned(w.a, patientA);
    expectStatus(await use(id, patientA), 200);
    const answer = expectStatus(await w.post(w.a, id, 'reprocesos', cycle({ tcvMl: 78 })), 200);
    assert.equal(answer.body.status, 'discarded');
    assert.equal(answer.body.discardReason, 'tcv-below-threshold');
    assert.equal(answer.body.lastTcvPercent, 78);
    const history = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/${id}/historial`), 200);
    const types = (history.body.items as Json[]).map((e) => e.type);
    assert.deepEqual(types, [
      'DialyzerReceived',
      'DialyzerAssignedToPatient',
      'PreUseChecksRecorded',
      'DialyzerUsed',
      'DialyzerReprocessed',
      'DialyzerDiscarded',
    ]);
    const discarded = (history.body.items as Json[])[5]!;
    assert.deepEqual(discarded.data, { reason: 'tcv-below-threshold', policyRevision: -1 });
    expectStatus(await use(id, patientA), 409, 'dialyzer-discarded');
  });

  it('runs a reuse cycle: reprocessing, pre-use checks by two staff members, readiness, use, label', async () => {
    const id = await w.assigned(w.a, patientA);
    expectStatus(await use(id, patientA), 200);
    const stored = expectStatus(await w.post(w.a, id, 'reprocesos', cycle()), 200);
    assert.equal(stored.body.status, 'stored');
    assert.equal(stored.body.lastTcvPercent, 92);

    const early = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/${id}/aptitud?pacienteId=${patientA}`), 200);
    assert.deepEqual(early.body, { ready: false, reasons: ['pre-use-checks-missing', 'dwell-time-too-short'] });
    await afterDwell();
    const notYet = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/${id}/aptitud?pacienteId=${patientA}`), 200);
    assert.deepEqual(notYet.body, { ready: false, reasons: ['pre-use-checks-missing'] });

    const [first] = await w.confirmations([nurses[0]]);
    const same = await w.post(w.a, id, 'controles-previos', await checks(patientA, { identityConfirmations: [first, first] }));
    assert.deepEqual(pointers(expectStatus(same, 422, 'validation-failed')), ['/body/identityConfirmations']);
    const admin = { userId: w.server.admin.userId, code: '000000' };
    const notStaff = await w.post(w.a, id, 'controles-previos', await checks(patientA, { identityConfirmations: [first, admin] }));
    assert.deepEqual(pointers(expectStatus(notStaff, 422, 'validation-failed')), ['/body/identityConfirmations/1/userId']);
    expectStatus(await w.post(w.a, id, 'controles-previos', await checks(patientA)), 200);

    const ready = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/${id}/aptitud?pacienteId=${patientA}`), 200);
    assert.deepEqual(ready.body, { ready: true, reasons: [] });
    const list = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/listos?pacienteId=${patientA}`), 200);
    const mine = (list.body.items as Json[]).find((i) => (i.dialyzer as Json).id === id)!;
    assert.equal(mine.ready, true);

    const used = expectStatus(await use(id, patientA), 200);
    assert.equal(used.body.uses, 2);
    assert.equal(used.body.status, 'used');

    const label = await w.server.request('GET', `/filtros-dialisis/${id}/etiqueta`, { token: w.a });
    assert.equal(label.status, 200);
    assert.match(label.headers['content-type'] ?? '', /^application\/pdf/);
    const pdf = String(label.body);
    assert.ok(pdf.startsWith('%PDF'));
    const text = pdfText(pdf);
    assert.ok(text.includes('Rosa Elena Mamani Quispe'), text);
    assert.ok(text.includes('Uses: 2'), text);
    assert.ok(text.includes('Baseline TCV: 100 mL'), text);
  });

  it('refuses a dialyzer of patient A for patient B', async () => {
    const id = await w.assigned(w.a, patientA);
    const refused = expectStatus(await use(id, patientB), 409, 'patient-mismatch');
    assert.deepEqual(refused.body.reasons, ['patient-mismatch']);
    const verdict = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/${id}/aptitud?pacienteId=${patientB}`), 200);
    assert.deepEqual(verdict.body, { ready: false, reasons: ['patient-mismatch'] });
  });

  it('refuses a dialyzer at its maximum uses for the next use, and lists it near its maximum', async () => {
    const policy = expectStatus(await w.call(w.a, 'GET', '/empresas/actual/politica'), 200);
    const settings = { dialyzerReuse: { modelOverrides: [{ model: 'FX-MAX', maxUses: 2 }] } };
    const etag = policy.headers.get('etag')!;
    expectStatus(
      await w.call(w.a, 'PUT', '/empresas/actual/politica', { json: { settings, reason: 'FX-MAX insert' }, headers: { 'if-match': etag } }),
      200,
    );

    const id = await w.assigned(w.a, patientA, { model: 'FX-MAX' });
    expectStatus(await use(id, patientA), 200);
    expectStatus(await w.post(w.a, id, 'reprocesos', cycle()), 200);
    await afterDwell();
    const alerts = expectStatus(await w.call(w.a, 'GET', '/filtros-dialisis/alertas'), 200);
    const item = (alerts.body.items as Json[]).find((i) => (i.dialyzer as Json).id === id)!;
    assert.deepEqual(item.alerts, ['near-max-uses']);
    assert.equal(item.maxUses, 2);
    expectStatus(await w.post(w.a, id, 'controles-previos', await checks(patientA)), 200);
    // The use that reaches the maximum takes it out of service by itself (issue 21 item 14).
    const last = expectStatus(await use(id, patientA), 200);
    assert.deepEqual([last.body.uses, last.body.status, last.body.discardReason], [2, 'discarded', 'max-uses-reached']);

    const refused = expectStatus(await use(id, patientA), 409, 'dialyzer-discarded');
    assert.deepEqual(refused.body.reasons, ['dialyzer-discarded']);
    expectStatus(await w.post(w.a, id, 'reprocesos', cycle()), 409, 'dialyzer-discarded');
  });

  it('lists a falling TCV, keeps a dialyzer with a failed pre-use check from use, and honours If-Match', async () => {
    const id = await w.assigned(w.a, patientA);
    const used = expectStatus(await use(id, patientA), 200);
    expectStatus(await w.call(w.a, 'POST', `/filtros-dialisis/${id}/reprocesos`, { json: cycle(), headers: { 'if-match': 'W/"0"' } }), 412);
    const etag = used.headers.get('etag')!;
    const stored = await w.call(w.a, 'POST', `/filtros-dialisis/${id}/reprocesos`, {
      json: cycle({ tcvMl: 83 }),
      headers: { 'if-match': etag },
    });
    assert.equal(expectStatus(stored, 200).body.lastTcvPercent, 83);
    const alerts = expectStatus(await w.call(w.a, 'GET', '/filtros-dialisis/alertas'), 200);
    const item = (alerts.body.items as Json[]).find((i) => (i.dialyzer as Json).id === id)!;
    assert.deepEqual(item.alerts, ['falling-tcv']);

    await afterDwell();
    const failing = await checks(patientA, { germicidePotency: 'fail', residualTest: 'positive' });
    expectStatus(await w.post(w.a, id, 'controles-previos', failing), 200);
    const verdict = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/${id}/aptitud?pacienteId=${patientA}`), 200);
    assert.deepEqual(verdict.body, { ready: false, reasons: ['germicide-potency-failed', 'residual-test-positive'] });
    expectStatus(await use(id, patientA), 409, 'germicide-potency-failed');
  });

  it('refuses a germicide fill time before the last use, naming the field', async () => {
    const id = await w.assigned(w.a, patientA);
    expectStatus(await use(id, patientA), 200);
    const refused = expectStatus(await w.post(w.a, id, 'reprocesos', cycle({ fillTime: hoursAgo(12) })), 422, 'validation-failed');
    assert.deepEqual(pointers(refused), ['/body/fillTime']);
    const after = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/${id}`), 200);
    assert.equal(after.body.status, 'used');
  });

  it("holds a formaldehyde-filled dialyzer for the germicide's 24 h, not the general 11 h", async () => {
    const id = await w.assigned(w.a, patientA);
    expectStatus(await use(id, patientA), 200);
    const formaldehyde = { name: 'Formaldehyde 4 %', lot: 'F-1', concentrationPercent: 4 };
    const stored = expectStatus(await w.post(w.a, id, 'reprocesos', cycle({ germicide: formaldehyde })), 200);
    assert.equal(stored.body.lastGermicide, 'Formaldehyde 4 %');
    await afterDwell();
    expectStatus(await w.post(w.a, id, 'controles-previos', await checks(patientA)), 200);
    const verdict = expectStatus(await w.call(w.a, 'GET', `/filtros-dialisis/${id}/aptitud?pacienteId=${patientA}`), 200);
    assert.deepEqual(verdict.body, { ready: false, reasons: ['dwell-time-too-short'] });
    expectStatus(await use(id, patientA), 409, 'dwell-time-too-short');
  });

  it('discards a single-use dialyzer after its use', async () => {
    const id = await w.assigned(w.a, patientA, { reusable: false });
    const used = expectStatus(await use(id, patientA), 200);
    assert.equal(used.body.status, 'discarded');
    assert.equal(used.body.discardReason, 'single-use');
  });

  it("cannot reprocess an HBsAg+ patient's dialyzer under the default policy", async () => {
    const positive = await w.patient(w.a, { serology: [{ test: 'HBsAg', result: 'positive', sampleDate: '2025-01-15' }] });
    const id = await w.assigned(w.a, positive);
    expectStatus(await use(id, positive), 200);
    expectStatus(await w.post(w.a, id, 'reprocesos', cycle()), 409, 'hbsag-positive-no-reuse');
  });

  it("answers 404 for another company's dialyzer, and 422 for another company's patient", async () => {
    const id = await w.assigned(w.a, patientA);
    expectStatus(await w.call(w.b, 'GET', `/filtros-dialisis/${id}`), 404, 'not-found');
    expectStatus(await w.call(w.b, 'GET', `/filtros-dialisis/${id}/etiqueta`), 404, 'not-found');
    expectStatus(await w.call(w.b, 'GET', `/filtros-dialisis/${id}/historial`), 404, 'not-found');
    expectStatus(await w.post(w.b, id, 'reprocesos', cycle()), 404, 'not-found');
    expectStatus(await w.post(w.b, id, 'descarte', { reason: 'housing-damaged' }), 404, 'not-found');
    const theirs = (await w.receive(w.b)).body.id as string;
    const refused = expectStatus(await w.post(w.b, theirs, 'asignacion', { patientId: patientA, baselineTcvMl: 100 }), 422);
    assert.deepEqual(pointers(refused), ['/body/patientId']);
  });

  it('lets a reprocessing technician record a reprocessing, never a receptionist (403)', async () => {
    const id = await w.assigned(w.a, patientA);
    expectStatus(await use(id, patientA), 200);
    const receptionist = await w.withRole('receptionist');
    expectStatus(await w.post(receptionist, id, 'reprocesos', cycle()), 403);
    const technician = await w.withRole('reprocessing-technician');
    expectStatus(await w.post(technician, id, 'reprocesos', cycle()), 200);
    expectStatus(await w.call(receptionist, 'POST', '/filtros-dialisis', { json: { serial: 'x' } }), 403);
  });

  it('discards with a reason from the list; discarded is final', async () => {
    const id = await w.assigned(w.a, patientA);
    const discarded = expectStatus(await w.post(w.a, id, 'descarte', { reason: 'housing-damaged', note: 'cracked header' }), 200);
    assert.equal(discarded.body.status, 'discarded');
    expectStatus(await w.post(w.a, id, 'descarte', { reason: 'label-illegible' }), 409, 'dialyzer-discarded');
    expectStatus(await w.post(w.a, id, 'descarte', { reason: 'lost' }), 422);
  });
});
