// The rules around a dialysis session over real HTTP: the start's interlocks (each refusal named, nothing held after
// one), the monthly adequacy against the company targets, the alerts of a date range (UF rate, low spKt/V, three
// missed sessions in a row for the payer) and another company's session, which does not exist for company A.
import assert from 'node:assert/strict';
import { dialyzerBody } from './filtrosWorld.js';
import { expectStatus, pointers, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { postBlock, preBlock, safetyChecks, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

const DAY = 86_400_000;

describe('Dialisis sessions: start interlocks, adequacy, alerts and tenancy over HTTP', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const start = (sessionId: string, body: Json): Promise<Answer> => s.post(w.nurse.token, `${s.sessionPath(sessionId)}/inicio`, body);
  const refusedFor = async (sessionId: string, body: Json): Promise<Json> =>
    expectStatus(await start(sessionId, body), 409, 'session-may-not-start').body.reasons as Json;
  const seen = (answer: Answer): string => `minPosition=${encodeURIComponent(answer.headers.get('x-event-position')!)}`;

  it('refuses a start naming every failed interlock and holds nothing after a refusal', async () => {
    const machineId = await s.readyMachine();
    const patient = await s.prescribedPatient();
    const sessionId = await s.extraSession(patient);
    const path = s.sessionPath(sessionId);
    assert.deepEqual(await refusedFor(sessionId, { machineId }), {
      session: ['session-not-checked-in', 'pre-dialysis-missing', 'safety-checks-missing'],
    });
    expectStatus(await s.post(w.nurse.token, `${path}/llegada`), 200);
    expectStatus(await s.post(w.nurse.token, `${path}/pre-dialisis`, preBlock()), 200);
    assert.deepEqual(await refusedFor(sessionId, { machineId }), { session: ['safety-checks-missing'] });
    const failed = safetyChecks({ residualDisinfectantAbsent: false });
    expectStatus(await s.post(w.nurse.token, `${path}/controles-seguridad`, failed), 200);
    assert.deepEqual(await refusedFor(sessionId, { machineId }), { session: ['safety-checks-failed'] });

    const unprescribed = await w.patient(w.a);
    const bare = await s.extraSession(unprescribed);
    await s.readyToStart(bare);
    assert.deepEqual(await refusedFor(bare, { machineId }), { session: ['no-prescription-in-force'] });

    // A dialyzer of another patient: refused naming the dialyzer's reason; neither the machine nor the dialyzer is held.
    const other = await s.prescribedPatient();
    const dialyzerId = expectStatus(await s.post(w.a, '/filtros-dialisis', dialyzerBody()), 201).body.id as string;
    expectStatus(await s.post(w.a, `/filtros-dialisis/${dialyzerId}/asignacion`, { patientId: other, baselineTcvMl: 100 }), 200);
    const ready = await s.extraSession(await s.prescribedPatient());
    await s.readyToStart(ready);
    assert.deepEqual(await refusedFor(ready, { machineId, dialyzerId }), { dialyzer: ['patient-mismatch'] });
    assert.equal(expectStatus(await s.get(`/monitores/${machineId}`), 200).body.status, 'available');
    assert.notEqual(expectStatus(await s.get(`/filtros-dialisis/${dialyzerId}`), 200).body.status, 'in-use');
    assert.equal(expectStatus(await s.get(s.sessionPath(ready)), 200).body.status, 'checked-in');

    // A machine of company B does not exist for company A: 422 naming machineId.
    const foreign = (await w.register(w.b)).body.id as string;
    assert.deepEqual(pointers(expectStatus(await start(ready, { machineId: foreign }), 422, 'validation-failed')), ['/body/machineId']);

    // A station of company B (not of the session's location) was once recorded on the session: now 422 naming stationId.
    const elsewhere = await start(ready, { machineId, stationId: w.stationB.stationId });
    assert.deepEqual(pointers(expectStatus(elsewhere, 422, 'validation-failed')), ['/body/stationId']);

    // The refusals held nothing: the same machine starts the ready session.
    expectStatus(await start(ready, { machineId, stationId: w.stationA.stationId }), 200);
    assert.equal(expectStatus(await s.get(`/monitores/${machineId}`), 200).body.status, 'in-use');
  });

  it('shows the monthly adequacy: the measured spKt/V and URR against the targets, measured false without a BUN pair', async () => {
    const rosa = await s.prescribedPatient();
    const measured = await s.treatedSession(rosa, { hours: 4 });
    const unmeasured = await s.prescribedPatient();
    const unpaired = await s.treatedSession(unmeasured, { post: postBlock({ postBunMgDl: undefined }) });
    const month = (measured.recorded.body.date as string).slice(0, 7);
    const report = expectStatus(await s.get(`/dialisis/adecuacion?mes=${month}&${seen(unpaired.recorded)}`), 200).body;
    const targets = report.targets as Json;
    assert.deepEqual(targets, { ktvMinimum: 1.2, ktvTarget: 1.4, urrMinimumPercent: 65, stdKtVMinimum: 2.1, stdKtVTarget: 2.3 });
    const rows = report.patients as Json[];

    const derived = (measured.recorded.body.clinical as Json).derived as Json;
    assert.ok(typeof derived.spKtV === 'number' && typeof derived.urrPercent === 'number', JSON.stringify(derived));
    const row = rows.find((r) => r.patientId === rosa)!;
    // Four hours, BUN 70 -> 25 (as in dialisisDay): spKt/V 1.26, above the minimum 1.2 and below the target 1.4.
    assert.deepEqual([derived.spKtV, row.belowMinimum, row.belowTarget], [1.26, false, true]);
    assert.deepEqual(
      [row.measured, row.measuredOn, row.sessions, row.sessionsWithBunPair, row.spKtV, row.urrPercent],
      [true, measured.recorded.body.date, 1, 1, derived.spKtV, derived.urrPercent],
    );
    assert.equal(row.belowMinimum, derived.spKtV < targets.ktvMinimum);
    assert.equal(row.belowTarget, derived.spKtV < targets.ktvTarget);
    assert.equal(row.urrBelowMinimum, derived.urrPercent < targets.urrMinimumPercent);
    assert.equal((row.patient as Json).id, rosa);

    const none = rows.find((r) => r.patientId === unmeasured)!;
    assert.deepEqual([none.measured, none.spKtV, none.urrPercent, none.belowMinimum, none.sessions], [false, null, null, null, 1]);
    const filtered = expectStatus(await s.get(`/dialisis/adecuacion?mes=${month}&pacienteId=${rosa}`), 200).body.patients as Json[];
    assert.deepEqual(
      filtered.map((r) => r.patientId),
      [rosa],
    );
  });

  it('raises alerts: UF rate above the maximum, spKt/V below 1.2, three missed sessions in a row for the payer', async () => {
    // Two hours' treatment (the policy's minimum for kinetics) removing 3 L with BUN 70 -> 45: UF rate far above
    // 13 mL/kg/h and a short dose.
    const patient = await s.prescribedPatient();
    const short = await s.treatedSession(patient, { hours: 2, post: postBlock({ postBunMgDl: 45 }) });
    const spKtV = ((short.recorded.body.clinical as Json).derived as Json).spKtV as number;
    assert.ok(spKtV < 1.2, `spKt/V ${spKtV}`);
    const range = `desde=${w.dateIn(-1)}&hasta=${w.dateIn(6)}`;
    const items = expectStatus(await s.get(`/dialisis/alertas?${range}&pacienteId=${patient}&${seen(short.recorded)}`), 200).body
      .items as Json[];
    const kinds = items.filter((a) => a.sessionId === short.sessionId).map((a) => a.kind);
    assert.ok(kinds.includes('uf-rate-above-maximum') && kinds.includes('ktv-below-minimum'), kinds.join(', '));
    const ktv = items.find((a) => a.kind === 'ktv-below-minimum')!;
    assert.deepEqual([ktv.value, ktv.threshold, ktv.notifyPayer], [spKtV, 1.2, false]);

    const missing = await w.patient(w.a);
    // Three sessions on the next three days, each missed once its day has come.
    const dates = [1, 2, 3].map((days) => w.dateIn(days));
    const missed: string[] = [];
    for (const date of dates) missed.push(await s.extraSession(missing, { date }));
    for (const id of missed) {
      await w.advance(DAY);
      const marked = expectStatus(await s.post(w.a, `${s.sessionPath(id)}/inasistencia`, { note: 'Did not come' }), 200);
      assert.equal(marked.body.status, 'no-show');
      if (id === missed.at(-1)) {
        const alerts = expectStatus(await s.get(`/dialisis/alertas?${range}&${seen(marked)}`), 200).body.items as Json[];
        const runs = alerts.filter((a) => a.kind === 'missed-sessions');
        assert.equal(runs.length, 1, JSON.stringify(runs));
        assert.deepEqual(
          [(runs[0]!.patient as Json).id, runs[0]!.date, runs[0]!.sessions, runs[0]!.notifyPayer],
          [missing, dates[2], missed, true],
        );
      }
    }

    const tooLong = await s.get(`/dialisis/alertas?desde=${w.dateIn(0)}&hasta=${w.dateIn(93)}`);
    assert.deepEqual(pointers(expectStatus(tooLong, 422, 'validation-failed')), ['/query/to']);
    expectStatus(await s.get(`/dialisis/alertas?desde=${w.dateIn(0)}&hasta=${w.dateIn(92)}`), 200);
  });

  it("answers 404 for another company's session on every read and write", async () => {
    const { sessionId, path, recorded } = await s.treatedSession(await s.prescribedPatient());
    for (const read of [path, `${path}/historial`, `${path}/hoja`]) {
      expectStatus(await w.call(w.b, 'GET', read), 404, 'not-found');
    }
    expectStatus(await w.call(w.b, 'POST', `${path}/adendas`, { json: { text: 'x', reason: 'y', code: '123456' } }), 404, 'not-found');
    expectStatus(await w.call(w.b, 'POST', `${path}/inasistencia`, { json: {} }), 404, 'not-found');
    expectStatus(await w.call(w.b, 'POST', `${path}/lecturas`, { json: s.reading(5) }), 404, 'not-found');
    const board = expectStatus(await w.call(w.b, 'GET', `/dialisis/agenda?fecha=${recorded.body.date as string}`), 200).body
      .shifts as Json[];
    assert.ok(!board.flatMap((shift) => shift.sessions as Json[]).some((x) => x.id === sessionId));
  });
});
