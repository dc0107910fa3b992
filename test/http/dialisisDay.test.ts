// The Dialisis done-when over real HTTP: a patient scheduled from a standing plan is checked in, started on an available
// machine with her own reprocessed dialyzer, gets readings, ends, has URR and spKt/V computed, is signed and validated;
// the machine then shows the hours and awaits disinfection, the dialyzer one more use; another patient on that machine
// is refused with the reason; an HBsAg+ patient on a non-isolation machine is refused; an amendment keeps the original.
import assert from 'node:assert/strict';
import { consistencyTokens } from '../../src/http/consistencyToken.js';
import { allText, open, writePng } from './pdfRead.js';
import { dialyzerBody } from './filtrosWorld.js';
import { prescriptionBody } from './prescriptionWorld.js';
import { expectStatus, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { endedSessionSeeds } from './referenceSeeds.js';

const MINUTE = 60_000;

describe('Dialisis: a day from the standing plan to the validated session', () => {
  let w: DialisisWorld;
  before(async () => {
    w = await startDialisisWorld();
  });
  after(async () => w?.close());

  const post = (token: string, path: string, json: unknown = {}, headers: Record<string, string> = {}): Promise<Answer> =>
    w.call(token, 'POST', path, { json, headers });
  const get = (path: string): Promise<Answer> => w.call(w.a, 'GET', path);
  const today = (): string => w.dateIn(0);
  const at = (minutesAgo: number): string => new Date(w.server.clock.now().getTime() - minutesAgo * MINUTE).toISOString();

  /** A machine of company A's station, with a preventive maintenance done today (the test clock is years after install). */
  async function readyMachine(overrides: Json = {}): Promise<string> {
    const id = (await w.register(w.a, overrides)).body.id as string;
    expectStatus(await post(w.a, `/monitores/${id}/mantenimientos-preventivos`, { performedOn: today(), actions: 'Initial check' }), 200);
    return id;
  }

  async function prescribe(patientId: string): Promise<void> {
    expectStatus(await post(w.physician.token, `/dialisis/pacientes/${patientId}/prescripciones`, prescriptionBody()), 201);
  }

  /** Check-in, pre block and passed safety checks of a session. */
  async function readyToStart(sessionId: string, token = w.nurse.token): Promise<void> {
    const path = `/dialisis/sesiones/${sessionId}`;
    expectStatus(await post(token, `${path}/llegada`), 200);
    const pre = {
      scaleWeightKg: 66,
      clothesKg: 0.5,
      bloodPressure: { systolic: 150, diastolic: 85 },
      pulse: 78,
      temperatureC: 36.6,
      preBunMgDl: 70,
    };
    expectStatus(await post(token, `${path}/pre-dialisis`, pre), 200);
    const checks = {
      conductivityMsCm: 14,
      conductivityTargetMsCm: 14,
      dialysatePh: 7.2,
      dialysateTemperatureC: 36.5,
      residualDisinfectantAbsent: true,
      airDetectorTested: true,
      bloodLeakDetectorArmed: true,
      alarmsTested: true,
      checkedBy: 'RMQ',
    };
    expectStatus(await post(token, `${path}/controles-seguridad`, checks), 200);
  }

  async function extraSession(patientId: string, shiftId: string): Promise<string> {
    const body = { patientId, date: today(), shiftId, kind: 'extra', reason: 'Recovery session', requestedBy: w.physician.staffId };
    return expectStatus(await w.extraSession(w.a, body), 201).body.sessionId as string;
  }

  it('runs the day and keeps every interlock', async () => {
    const rosa = await w.patient(w.a, { givenNames: 'Rosa Elena', familyNames: 'Mamani Quispe' });
    const other = await w.patient(w.a);
    const hbv = await w.patient(w.a, { serology: [{ test: 'HBsAg', result: 'positive', sampleDate: '2025-01-15' }] });

    // Rosa's own dialyzer, used once and reprocessed with peracetic acid; its dwell (11 h) passes, two staff confirm her.
    const dialyzer = expectStatus(await post(w.a, '/filtros-dialisis', dialyzerBody()), 201).body.id as string;
    const filter = `/filtros-dialisis/${dialyzer}`;
    expectStatus(await post(w.a, `${filter}/asignacion`, { patientId: rosa, baselineTcvMl: 100 }), 200);
    // Two people confirm her, each with their own authenticator code, before the first use and before each reuse.
    const confirmations = async () => {
      w.server.nextTotpStep();
      return [
        { userId: w.nurse.userId, code: await w.server.totpCode(w.nurse.account.totpSecret) },
        { userId: w.physician.userId, code: await w.server.totpCode(w.physician.account.totpSecret) },
      ];
    };
    expectStatus(await post(w.a, `${filter}/controles-previos`, { patientId: rosa, identityConfirmations: await confirmations() }), 200);
    const earlier = await endedSessionSeeds(w)(w.a, rosa, { dialyzerId: dialyzer }); // an ended session of hers on it
    expectStatus(await post(w.a, `${filter}/usos`, { sessionId: earlier, patientId: rosa }), 200);
    const cycle = {
      operatorId: 'tech-01',
      reprocessor: { kind: 'machine', name: 'Renatron II' },
      tcvMl: 92,
      pressureLeak: 'pass',
      bloodLeak: 'pass',
      germicide: { name: 'Peracidin', lot: 'G-77', concentrationPercent: 3.5 },
      fillTime: at(0),
      storageLocation: 'Rack A-3',
      expiresOn: w.dateIn(20),
    };
    expectStatus(await post(w.a, `${filter}/reprocesos`, cycle), 200);
    await w.advance(11 * 60 * MINUTE + MINUTE);
    const checks = {
      patientId: rosa,
      germicidePotency: 'pass',
      residualTest: 'negative',
      identityConfirmations: await confirmations(),
    };
    expectStatus(await post(w.a, `${filter}/controles-previos`, checks), 200);

    for (const patient of [rosa, other, hbv]) await prescribe(patient);
    const machine = await readyMachine();
    const shift = await w.createShift(w.a);
    // The session's day: by the board's turn, the clock has moved on by many hours and may be past midnight UTC.
    const sessionDay = today();
    const weekday = new Date(`${sessionDay}T00:00:00Z`).getUTCDay() || 7;
    await w.createPlan(w.a, rosa, shift, [weekday]);
    const day = expectStatus(await w.generate(w.a, sessionDay), 200);
    const sessionId = (day.body.sessions as Json[]).find((s) => s.patientId === rosa)!.sessionId as string;
    const path = `/dialisis/sesiones/${sessionId}`;

    await readyToStart(sessionId);
    const start = { machineId: machine, stationId: w.stationA.stationId, dialyzerId: dialyzer };
    const started = expectStatus(await post(w.nurse.token, `${path}/inicio`, start), 200);
    assert.equal(started.body.status, 'in-progress');
    assert.equal((started.body.prescription as Json).version, 1);
    expectStatus(await get(`/monitores/${machine}`), 200);
    assert.equal((await get(`/monitores/${machine}`)).body.status, 'in-use');

    for (const [index, ufMl] of [700, 1400, 2100, 2800].entries()) {
      await w.advance(60 * MINUTE);
      const reading = {
        at: at(30),
        bloodPressure: { systolic: 140 - index * 5, diastolic: 80 },
        pulse: 76,
        qbMlMin: 350,
        cumulativeUfMl: ufMl,
        source: 'manual',
      };
      expectStatus(await post(w.nurse.token, `${path}/lecturas`, reading), 200);
    }
    const outside = await post(w.nurse.token, `${path}/lecturas`, { at: at(-30), source: 'manual' });
    expectStatus(outside, 422);
    const ended = expectStatus(await post(w.nurse.token, `${path}/fin`), 200);
    // Four hours of readings, plus the minutes the sign-ins of the test world add to the clock.
    const minutes = ended.body.effectiveMinutes as number;
    assert.equal(minutes, Math.round((Date.parse(ended.body.endedAt as string) - Date.parse(ended.body.startedAt as string)) / MINUTE));
    assert.ok(minutes >= 240 && minutes < 260, `effective minutes ${minutes}`);
    const postBlock = {
      scaleWeightKg: 63,
      clothesKg: 0.5,
      bloodPressure: { systolic: 130, diastolic: 80 },
      pulse: 72,
      temperatureC: 36.5,
      machineUfMl: 3000,
      postBunMgDl: 25,
    };
    const recorded = expectStatus(await post(w.nurse.token, `${path}/post-dialisis`, postBlock), 200);

    // URR = (70 - 25) / 70 = 64.3 %; spKt/V = -ln(25/70 - 0.008 t) + (4 - 3.5 x 25/70) x 3 / 62.5, t = 4.0-4.3 h: 1.26.
    const derived = (recorded.body.clinical as Json).derived as Json;
    assert.deepEqual([derived.netPreWeightKg, derived.netPostWeightKg, derived.achievedUfL], [65.5, 62.5, 3]);
    assert.equal(derived.urrPercent, 64.3);
    assert.equal(derived.spKtV, 1.26);
    const flags = ((recorded.body.clinical as Json).flags as Json[]).map((f) => f.code);
    assert.ok(flags.includes('urr-below-minimum'), `flags: ${flags.join(', ')}`);

    const signed = expectStatus(await post(w.nurse.token, `${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    assert.equal((signed.body.nurseSignature as Json).staffId, w.nurse.staffId);
    const validated = expectStatus(await post(w.physician.token, `${path}/validacion`, { code: await w.stepUpCode(w.physician) }), 200);
    assert.equal(validated.body.status, 'validated');

    // The consequences of the end (a process manager): hours and a session on the machine, a use on the dialyzer.
    const endPosition = (await consistencyTokens(w.server.services)).open(ended.headers.get('x-event-position')!);
    await w.server.services.processes.waitFor(endPosition!);
    const usedMachine = expectStatus(await get(`/monitores/${machine}`), 200).body;
    assert.deepEqual(
      [usedMachine.status, usedMachine.hourMeter, usedMachine.sessionCount],
      ['awaiting-disinfection', Math.round((minutes / 60) * 100) / 100, 1],
    );
    const usedDialyzer = expectStatus(await get(filter), 200).body;
    assert.equal(usedDialyzer.uses, 2);
    const consequences = (expectStatus(await get(path), 200).body.consequences as Json[]).map((c) => [c.kind, c.outcome]);
    assert.deepEqual(consequences, [
      ['machine-use', 'applied'],
      ['dialyzer-use', 'applied'],
    ]);

    // Another patient on the machine before its disinfection: refused, naming the reason.
    const otherSession = await extraSession(other, shift);
    await readyToStart(otherSession);
    const refused = expectStatus(
      await post(w.nurse.token, `/dialisis/sesiones/${otherSession}/inicio`, { machineId: machine }),
      409,
      'session-may-not-start',
    );
    assert.deepEqual((refused.body.reasons as Json).machine, ['awaiting-disinfection']);

    // An HBsAg+ patient on a machine without isolation: refused.
    const hbvSession = await extraSession(hbv, shift);
    await readyToStart(hbvSession);
    const clean = await readyMachine();
    const isolation = expectStatus(
      await post(w.nurse.token, `/dialisis/sesiones/${hbvSession}/inicio`, { machineId: clean }),
      409,
      'session-may-not-start',
    );
    assert.deepEqual((isolation.body.reasons as Json).machine, ['isolation-patient']);
    assert.equal(expectStatus(await get(`/monitores/${clean}`), 200).body.status, 'available');

    // Amending the validated session (a fresh code): a new event with the reason; the original stays in the history, and the
    // session awaits validation again.
    const etag = expectStatus(await get(path), 200).headers.get('etag')!;
    const amendment = {
      block: 'post',
      changes: { scaleWeightKg: 63.2 },
      reason: 'Scale recalibrated after the session',
      code: await w.stepUpCode(w.nurse),
    };
    const amended = expectStatus(await post(w.nurse.token, `${path}/enmiendas`, amendment, { 'If-Match': etag }), 200);
    assert.equal((amended.body.post as Json).scaleWeightKg, 63.2);
    const kept = (amended.body.amendments as Json[])[0]!;
    assert.deepEqual([kept.previous, kept.reason], [{ scaleWeightKg: 63 }, amendment.reason]);
    const history = expectStatus(await get(`${path}/historial`), 200).body.items as Json[];
    const original = history.find((e) => e.type === 'PostDialysisRecorded')!;
    assert.equal((original.data as Json).scaleWeightKg, 63);
    assert.equal(history.at(-1)!.type, 'SessionAmended');

    // The day board and the patient's sessions show it.
    const board = expectStatus(await get(`/dialisis/agenda?fecha=${sessionDay}`), 200).body;
    const listed = (board.shifts as Json[]).flatMap((s) => s.sessions as Json[]).find((s) => s.id === sessionId)!;
    assert.deepEqual([listed.status, (listed.patient as Json).familyNames], ['signed', 'Mamani Quispe']);
    const mine = expectStatus(await get(`/dialisis/pacientes/${rosa}/sesiones`), 200).body.items as Json[];
    assert.deepEqual(
      mine.map((s) => s.id).filter((id) => id !== earlier), // the session her first use was recorded for
      [sessionId],
    );

    // The sheet opens as a PDF with the session's record on it; another company's session is 404.
    const sheet = await fetch(`${w.server.url}${path}/hoja`, { headers: { authorization: `Bearer ${w.a}` } });
    assert.equal(sheet.status, 200, await sheet.clone().text());
    assert.match(sheet.headers.get('content-type') ?? '', /^application\/pdf/);
    const pdf = await open(Buffer.from(await sheet.arrayBuffer()));
    if (process.env.SHEET_PNG === '1') await writePng(pdf, 1, '/tmp/session-sheet-e2e.png');
    const text = await allText(pdf);
    for (const expected of ['Hoja de hemodiálisis', 'Rosa Elena Mamani Quispe', 'Scale recalibrated after the session', 'Rosa Elena']) {
      assert.ok(text.includes(expected), `${expected} not in: ${text.slice(0, 400)}`);
    }
    expectStatus(await w.call(w.b, 'GET', `${path}/hoja`), 404, 'not-found');

    // Sign-in sessions also have a SessionStarted: no projection took the dialysis one for its own and parked a scope.
    const parked = (await w.server.services.projections.status()).filter((p) => p.parked.length > 0).map((p) => p.name);
    assert.deepEqual(parked, []);
  });
});
