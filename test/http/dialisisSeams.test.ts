// The seams between issue 21's items over real HTTP (a clinical review): stated times with the dry weight in force and
// urea in mmol/L; withheld kinetics with stdKt/V and nPCR on the view and the sheet; what was signed against a later dry
// weight; fin-uso after a mid-session machine change; a back-entered session while another runs; nPCR after the weekend;
// the pre block's UF rate on the dry weight in force.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { allText, open } from './pdfRead.js';
import { clientBody, contractBody } from './clientesWorld.js';
import { MINUTE, postBlock, preBlock, safetyChecks, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

const round = (value: number, decimals: number): number => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** Daugirdas 1993, the AV rate equation, FHN/Leypoldt stdKt/V (domain.md 2.10, KDOQI 2015), hand-written. */
function kinetics(preBun: number, postBun: number, minutes: number, ufKg: number, postKg: number, perWeek = 3) {
  const hours = minutes / 60;
  const r = postBun / preBun;
  const sp = -Math.log(r - 0.008 * hours) + ((4 - 3.5 * r) * ufKg) / postKg;
  const e = sp - (0.6 * sp) / hours + 0.03;
  const removed = 1 - Math.exp(-e);
  const std = (10080 * removed) / minutes / (removed / e + 10080 / (perWeek * minutes) - 1);
  return { sp, e, std, spKtV: round(sp, 2), eKtV: round(e, 2), stdKtV: round(std, 2) };
}

describe('Dialisis seams between the items of issue 21 over HTTP', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const nurse = (path: string, json: unknown = {}): Promise<Answer> => s.post(w.nurse.token, path, json);
  const derivedOf = (answer: { body: Json }): Json => (answer.body.clinical as Json).derived as Json;
  const sheetText = async (path: string): Promise<string> => {
    const sheet = await fetch(`${w.server.url}${path}/hoja`, { headers: { authorization: `Bearer ${w.a}` } });
    assert.equal(sheet.status, 200);
    return allText(await open(Buffer.from(await sheet.arrayBuffer())));
  };

  /** A prescribed patient with an active primary fistula and, if given, a dry weight in force from yesterday. */
  async function patient(dryWeightKg?: number): Promise<string> {
    const id = await s.prescribedPatient();
    const access = { type: 'AVF', side: 'left', site: 'radiocephalic', creationDate: '2024-12-01', status: 'active', primary: true };
    expectStatus(await s.post(w.a, `/pacientes/${id}/accesos-vasculares`, access), 201);
    if (dryWeightKg) {
      expectStatus(await s.post(w.a, `/pacientes/${id}/peso-seco`, { dryWeightKg, effectiveDate: w.dateIn(-1) }), 201);
    }
    return id;
  }

  /** A session of today, its pre block given, started at a stated instant `minutesAgo`: its path and machine. */
  async function startedAt(patientId: string, minutesAgo: number, pre: Json = preBlock()): Promise<{ path: string; machineId: string }> {
    const path = s.sessionPath(await s.extraSession(patientId));
    expectStatus(await nurse(`${path}/llegada`), 200);
    expectStatus(await nurse(`${path}/pre-dialisis`, pre), 200);
    expectStatus(await nurse(`${path}/controles-seguridad`, safetyChecks()), 200);
    const machineId = await s.readyMachine();
    expectStatus(await nurse(`${path}/inicio`, { machineId, stationId: w.stationA.stationId, startedAt: s.at(minutesAgo) }), 200);
    return { path, machineId };
  }

  /** A 4 h session charted after the fact (300 -> 60 minutes ago) with these blocks: the post block's answer. */
  async function charted(patientId: string, pre: Json = preBlock(), post: Json = postBlock()): Promise<{ path: string; recorded: Answer }> {
    const { path } = await startedAt(patientId, 300, pre);
    expectStatus(await nurse(`${path}/lecturas`, s.reading(200)), 200);
    expectStatus(await nurse(`${path}/fin`, { endedAt: s.at(60) }), 200);
    return { path, recorded: expectStatus(await nurse(`${path}/post-dialisis`, post), 200) };
  }

  it('(a) stated times, the dry weight in force from /peso-seco and urea in mmol/L give the formulas of domain.md 2.10', async () => {
    const { recorded } = await charted(
      await patient(60.5),
      preBlock({ preBunMgDl: undefined, preUrea: { value: 25, analyte: 'urea', unit: 'mmol/L' } }),
      postBlock({ postBunMgDl: undefined, postUrea: { value: 53.5, analyte: 'urea', unit: 'mg/dL' } }),
    );
    const derived = derivedOf(recorded);
    const expected = kinetics(70, 25, 240, 3.0, 62.5);
    assert.equal(recorded.body.effectiveMinutes, 240);
    assert.deepEqual([derived.spKtV, derived.eKtV, derived.stdKtV], [expected.spKtV, expected.eKtV, expected.stdKtV]);
    // The UF goal counts from the dry weight in force: 65.5 - 60.5 kg.
    assert.equal(derived.ufGoalL, 5);
  });

  it("(a) the machine's effective minutes are the treatment time of every kinetic value, stdKt/V included", async () => {
    const { recorded } = await charted(await patient(), preBlock(), postBlock({ machineEffectiveMinutes: 180 }));
    const derived = derivedOf(recorded);
    const expected = kinetics(70, 25, 180, 3.0, 62.5);
    assert.deepEqual([derived.spKtV, derived.eKtV, derived.stdKtV], [expected.spKtV, expected.eKtV, expected.stdKtV]);
  });

  it('(b) a 1-minute session shows neither Kt/V nor stdKt/V nor nPCR, on the view and on the sheet', async () => {
    const { path } = await startedAt(await patient(), 2);
    expectStatus(await nurse(`${path}/lecturas`, s.reading(1)), 200);
    expectStatus(await nurse(`${path}/fin`, { endedAt: s.at(1) }), 200);
    expectStatus(await nurse(`${path}/post-dialisis`, postBlock()), 200);
    const signed = expectStatus(await nurse(`${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    const derived = derivedOf(signed);
    for (const name of ['spKtV', 'eKtV', 'urrPercent', 'ufRateMlKgH', 'stdKtV', 'nPcrGKgDay']) assert.equal(derived[name], null, name);
    const text = await sheetText(path);
    assert.ok(!/stdKt\/V\s*[-\d]/.test(text) && !/nPCR\s*[-\d]/.test(text), text);
    assert.ok(!/eKt\/V\s*[-\d]/.test(text), text);
  });

  it('(c) a validated session keeps its values when the dry weight record changes later', async () => {
    const id = await patient(60.5);
    const { path } = await charted(id);
    expectStatus(await nurse(`${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    const validated = expectStatus(await s.post(w.physician.token, `${path}/validacion`, { code: await w.stepUpCode(w.physician) }), 200);
    expectStatus(await s.post(w.a, `/pacientes/${id}/peso-seco`, { dryWeightKg: 63, effectiveDate: w.dateIn(-2) }), 201);
    expectStatus(await s.post(w.a, `/pacientes/${id}/peso-seco`, { dryWeightKg: 64, effectiveDate: w.dateIn(0) }), 201);
    const later = expectStatus(await s.get(path), 200).body;
    assert.deepEqual((later.clinical as Json).derived, derivedOf(validated));
    assert.deepEqual((later.clinical as Json).flags, (validated.body.clinical as Json).flags);
    assert.equal((later.prescription as Json).dryWeightKg, 60.5);
  });

  it('(d) after a machine change, fin-uso frees neither machine while the session runs, and the old one is not counted twice', async () => {
    const { path, machineId: first } = await startedAt(await patient(), 90);
    const sessionId = path.split('/').pop()!;
    const second = await s.readyMachine();
    const changed = expectStatus(
      await nurse(`${path}/cambio-maquina`, { machineId: second, reason: 'Blood leak', safetyChecks: safetyChecks() }),
      200,
    );
    await s.processed(changed);
    const old = expectStatus(await s.get(`/monitores/${first}`), 200).body;
    expectStatus(await s.post(w.a, `/monitores/${second}/fin-uso`, { sessionId }), 409, 'session-not-ended');
    const usedNew = expectStatus(await s.get(`/monitores/${second}`), 200).body;
    assert.deepEqual([usedNew.status, (usedNew.currentSession as Json).sessionId], ['in-use', sessionId]);
    await w.advance(30 * MINUTE);
    const ended = expectStatus(await nurse(`${path}/fin`), 200);
    await s.processed(ended);
    const oldAfter = expectStatus(await s.get(`/monitores/${first}`), 200).body;
    const newAfter = expectStatus(await s.get(`/monitores/${second}`), 200).body;
    // By hand, neither is given the session's hours again.
    const byHand = [
      await s.post(w.a, `/monitores/${first}/fin-uso`, { sessionId }),
      await s.post(w.a, `/monitores/${second}/fin-uso`, { sessionId }),
    ];
    assert.ok(
      byHand.every((a) => a.status < 500),
      byHand.map((a) => `${a.status} ${JSON.stringify(a.body)}`).join('\n'),
    );
    assert.equal(expectStatus(await s.get(`/monitores/${first}`), 200).body.hourMeter, oldAfter.hourMeter);
    assert.equal(expectStatus(await s.get(`/monitores/${second}`), 200).body.hourMeter, newAfter.hourMeter);
    assert.equal(old.hourMeter, oldAfter.hourMeter);
  });

  it('(g) back-enters a session of yesterday while the patient has one running today', async () => {
    const id = await patient();
    const { path: running } = await startedAt(id, 30);
    const shiftId = await w.createShift(w.a);
    const body = { patientId: id, date: w.dateIn(-1), shiftId, kind: 'extra', reason: 'Downtime', requestedBy: w.physician.staffId };
    const created = expectStatus(await w.extraSession(w.a, { ...body, lateEntryReason: 'Charted after a system downtime' }), 201);
    const path = s.sessionPath(created.body.sessionId as string);
    expectStatus(await nurse(`${path}/llegada`), 200);
    expectStatus(await nurse(`${path}/pre-dialisis`, preBlock()), 200);
    expectStatus(await nurse(`${path}/controles-seguridad`, safetyChecks()), 200);
    const start = { machineId: await s.readyMachine(), stationId: w.stationA.stationId, startedAt: s.at(24 * 60) };
    expectStatus(await nurse(`${path}/inicio`, start), 200);
    expectStatus(await nurse(`${path}/lecturas`, s.reading(23 * 60)), 200);
    // Its end is stated before today's session began: the patient is never in two treatments at once.
    assert.deepEqual(pointers(expectStatus(await nurse(`${path}/fin`), 422)), ['/body/endedAt']);
    assert.deepEqual(pointers(expectStatus(await nurse(`${path}/fin`, { endedAt: s.at(10) }), 422)), ['/body/endedAt']);
    expectStatus(await nurse(`${path}/fin`, { endedAt: s.at(20 * 60) }), 200);
    // The session of today still runs, and still holds the patient.
    assert.equal(expectStatus(await s.get(running), 200).body.status, 'in-progress');
    const third = await s.extraSession(id);
    await s.readyToStart(third);
    const refused = await nurse(`${s.sessionPath(third)}/inicio`, { machineId: await s.readyMachine(), stationId: w.stationA.stationId });
    expectStatus(refused, 409, 'session-may-not-start');
    // Nor does a start stated after today's began.
    const overlappingId = await s.extraSession(id);
    await s.readyToStart(overlappingId);
    const overlapping = s.sessionPath(overlappingId);
    const late = { machineId: await s.readyMachine(), stationId: w.stationA.stationId, startedAt: s.at(10) };
    expectStatus(await nurse(`${overlapping}/inicio`, late), 409, 'session-may-not-start');
  });

  it('(h) a session after the weekend (about 68 h since the last) takes the long-interval nPCR equation', async () => {
    const id = await patient();
    await charted(id);
    await w.advance(72 * 60 * MINUTE);
    const { recorded } = await charted(id);
    const derived = derivedOf(recorded);
    assert.ok(
      (derived.interdialyticHours as number) > 67 && (derived.interdialyticHours as number) < 69,
      String(derived.interdialyticHours),
    );
    assert.equal(derived.longInterval, true);
    const sp = kinetics(70, 25, 240, 3.0, 62.5).sp;
    assert.equal(derived.nPcrGKgDay, round(70 / (36.3 + 5.48 * sp + 53.5 / sp) + 0.168, 2));
  });

  it('(i) the pre block judges the expected UF rate on the dry weight in force', async () => {
    // Prescription and registration 62.5 kg; in force 58 kg: 65.5 - 58 = 7.5 L over 4 h on 58 kg is 32.3 mL/kg/h.
    const path = s.sessionPath(await s.extraSession(await patient(58)));
    expectStatus(await nurse(`${path}/llegada`), 200);
    const pre = expectStatus(await nurse(`${path}/pre-dialisis`, preBlock()), 200);
    const flag = ((pre.body.clinical as Json).flags as Json[]).find((f) => f.code === 'expected-uf-rate-above-maximum');
    assert.equal(flag?.value, round(7500 / 58 / 4, 1));
  });

  it("(f) a refused start holds no unit and no machine: by the running-session rule, or by the payer's last unit", async () => {
    const clientId = expectStatus(await s.post(w.a, '/clientes', clientBody()), 201).body.id as string;
    const terms = contractBody({ validFrom: w.dateIn(-365), withoutAuthorization: 'block' });
    delete terms.validTo;
    expectStatus(await s.post(w.a, `/clientes/${clientId}/contratos`, terms), 201);
    const id = await s.prescribedPatient({ coverages: [{ clientId, memberNumber: 'M-21', validFrom: w.dateIn(-365) }] });
    const authorization = { patientId: id, code: 'AUT-SEAM', validFrom: w.dateIn(-2), validTo: w.dateIn(30), sessionsAuthorized: 2 };
    const authId = expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, authorization), 201).body.id as string;
    const units = async (): Promise<Json> => {
      const a = expectStatus(await s.get(`/clientes/${clientId}/autorizaciones/${authId}`), 200).body;
      return { used: a.used, reserved: a.reserved, remaining: a.remaining };
    };
    await startedAt(id, 30);
    // Refused by one running session per patient: the second unit stays free, its machine too.
    const second = await s.extraSession(id);
    await s.readyToStart(second);
    const machineId = await s.readyMachine();
    const refused = await nurse(`${s.sessionPath(second)}/inicio`, { machineId, stationId: w.stationA.stationId });
    expectStatus(refused, 409, 'session-may-not-start');
    assert.deepEqual(await units(), { used: 0, reserved: 1, remaining: 1 });
    assert.equal(expectStatus(await s.get(`/monitores/${machineId}`), 200).body.status, 'available');
    // A session of yesterday charted now takes the last unit; a third start finds none left.
    const shiftId = await w.createShift(w.a);
    const past = { patientId: id, date: w.dateIn(-1), shiftId, kind: 'extra', reason: 'Downtime', requestedBy: w.physician.staffId };
    const created = expectStatus(await w.extraSession(w.a, { ...past, lateEntryReason: 'Charted after a system downtime' }), 201);
    const backPath = s.sessionPath(created.body.sessionId as string);
    await s.readyToStart(created.body.sessionId as string);
    const back = { machineId: await s.readyMachine(), stationId: w.stationA.stationId, startedAt: s.at(24 * 60) };
    expectStatus(await nurse(`${backPath}/inicio`, back), 200);
    assert.deepEqual(await units(), { used: 0, reserved: 2, remaining: 0 });
    const other = expectStatus(await w.extraSession(w.a, { ...past, shiftId: await w.createShift(w.a), lateEntryReason: 'Downtime' }), 201);
    await s.readyToStart(other.body.sessionId as string);
    const none = { machineId: await s.readyMachine(), stationId: w.stationA.stationId, startedAt: s.at(23 * 60) };
    const noUnit = expectStatus(await nurse(`${s.sessionPath(other.body.sessionId as string)}/inicio`, none), 409, 'session-may-not-start');
    // Nor may two sessions charted after the fact run at once beside today's.
    assert.deepEqual((noUnit.body.reasons as Json).session, ['patient-session-in-progress']);
    assert.ok((noUnit.body.reasons as Json).payer, JSON.stringify(noUnit.body));
    assert.equal(expectStatus(await s.get(`/monitores/${none.machineId}`), 200).body.status, 'available');
    assert.deepEqual(await units(), { used: 0, reserved: 2, remaining: 0 });
  });

  it('(j) an interruption before any treatment is neither billed nor consumed, even once the nurse has signed it', async () => {
    const clientId = expectStatus(await s.post(w.a, '/clientes', clientBody()), 201).body.id as string;
    const terms = contractBody({ validFrom: w.dateIn(-365), withoutAuthorization: 'flag' });
    delete terms.validTo;
    expectStatus(await s.post(w.a, `/clientes/${clientId}/contratos`, terms), 201);
    const id = await s.prescribedPatient({ coverages: [{ clientId, memberNumber: 'M-21', validFrom: w.dateIn(-365) }] });
    const authorization = { patientId: id, code: 'AUT-CUT', validFrom: w.dateIn(-2), validTo: w.dateIn(30), sessionsAuthorized: 2 };
    const authId = expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, authorization), 201).body.id as string;
    const untreated = await s.startedSession(id);
    const stopped = expectStatus(await nurse(`${untreated.path}/interrupcion`, { reasonCode: 'access-problem' }), 200);
    await s.processed(stopped);
    assert.equal(stopped.body.effectiveMinutes, 0);
    const signed = expectStatus(await nurse(`${untreated.path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    assert.equal(derivedOf(signed).spKtV, null);
    const consume = { sessionId: untreated.sessionId, date: s.today() };
    expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones/${authId}/consumos`, consume), 409, 'session-not-ended');
    const month = s.today().slice(0, 7);
    const report = expectStatus(await s.get(`/clientes/${clientId}/reporte-mensual?mes=${month}`), 200).body;
    assert.equal((report.rows as Json[]).filter((r) => r.sessionId === untreated.sessionId).length, 0, JSON.stringify(report.rows));
    const units = expectStatus(await s.get(`/clientes/${clientId}/autorizaciones/${authId}`), 200).body;
    assert.deepEqual([units.used, units.remaining], [0, 2]);
  });

  it('(j) corrected times of an interrupted session correct its lost treatment time too', async () => {
    const { path } = await startedAt(await patient(), 60);
    const cut = expectStatus(await nurse(`${path}/interrupcion`, { reasonCode: 'access-problem', interruptedAt: s.at(0) }), 200);
    assert.deepEqual([cut.body.effectiveMinutes, (cut.body.interruption as Json).lostMinutes], [60, 180]);
    const signed = expectStatus(await nurse(`${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    // The start was clicked 30 minutes late: 90 minutes were given, 150 of the prescribed 240 lost.
    const earlier = new Date(Date.parse(signed.body.startedAt as string) - 30 * MINUTE).toISOString();
    const amend = { block: 'times', changes: { startedAt: earlier }, reason: 'Start clicked late', code: await w.stepUpCode(w.nurse) };
    const amended = expectStatus(await s.post(w.nurse.token, `${path}/enmiendas`, amend, { 'If-Match': signed.headers.get('etag')! }), 200);
    assert.deepEqual([amended.body.effectiveMinutes, (amended.body.interruption as Json).lostMinutes], [90, 150]);
    const lost = ((amended.body.clinical as Json).flags as Json[]).find((f) => f.code === 'treatment-time-lost');
    assert.equal(lost?.value, 150);
    assert.ok((await sheetText(path)).includes('150 min perdidos'));
  });

  it('(6) the IDWG starts from the last session treated: one ended without a post weight leaves it unknown, not from an older one', async () => {
    const id = await patient();
    await charted(id);
    await w.advance(48 * 60 * MINUTE);
    const { path: unweighed } = await startedAt(id, 300);
    const endedAt = expectStatus(await nurse(`${unweighed}/fin`, { endedAt: s.at(60) }), 200).body.endedAt as string;
    await w.advance(44 * 60 * MINUTE);
    const { path } = await startedAt(id, 10);
    const now = expectStatus(await s.get(path), 200).body;
    const derived = derivedOf({ body: now });
    assert.equal(derived.idwgKg, null);
    assert.equal((derived.notComputed as Json).idwgKg, 'previous-post-weight-missing');
    assert.equal(derived.interdialyticHours, round((Date.parse(now.startedAt as string) - Date.parse(endedAt)) / (60 * MINUTE), 1));
  });
});
