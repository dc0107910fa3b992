// Before the needle (issue 21 item 8) over real HTTP: the pre block warns of an expected UF rate above the company's
// limit with the minutes that keep it under; a post-weight that misses the target is flagged; readings carry temperature
// and SpO2 within their ranges; the printed sheet shows the pre BUN, the access used and the access assessment.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, flagCodes, postBlock, preBlock, safetyChecks, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { allText, open } from './pdfRead.js';

describe('Dialisis sessions: before the needle over HTTP', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const nurse = (path: string, json: unknown = {}): Promise<Answer> => s.post(w.nurse.token, path, json);
  const flagOf = (answer: Answer, code: string): Json | undefined =>
    ((answer.body.clinical as Json).flags as Json[]).find((f) => f.code === code);

  it('warns at the pre block of an expected UF rate above 13 mL/kg/h, with the minutes that keep it under', async () => {
    // Prescription: 240 min, dry weight 62.5 kg.
    const patient = await s.prescribedPatient();
    const path = s.sessionPath(await s.extraSession(patient));
    expectStatus(await nurse(`${path}/llegada`), 200);
    // Net 65.5 kg: a 3.0 L goal over 4 h on 62.5 kg is 12 mL/kg/h, under the limit.
    const calm = expectStatus(await nurse(`${path}/pre-dialisis`, preBlock()), 200);
    assert.equal(flagOf(calm, 'expected-uf-rate-above-maximum'), undefined, flagCodes(calm).join(', '));
    // Net 67 kg: 4.5 L over 4 h on 62.5 kg is 18 mL/kg/h; under 13 it needs 4500 / (13 x 62.5) x 60 = 332.3 -> 333 min.
    const heavy = expectStatus(await nurse(`${path}/pre-dialisis`, preBlock({ scaleWeightKg: 67.5 })), 200);
    assert.deepEqual(flagOf(heavy, 'expected-uf-rate-above-maximum'), {
      code: 'expected-uf-rate-above-maximum',
      field: 'ufGoalL',
      value: 18,
      threshold: 13,
      minimumMinutes: 333,
    });
    // The warning never blocks the start.
    expectStatus(await nurse(`${path}/controles-seguridad`, safetyChecks()), 200);
    const machineId = await s.readyMachine();
    const started = expectStatus(await nurse(`${path}/inicio`, { machineId, stationId: w.stationA.stationId }), 200);
    assert.equal(flagOf(started, 'expected-uf-rate-above-maximum')?.minimumMinutes, 333);
  });

  it('flags a post-weight that misses the target weight by more than 0.5 kg', async () => {
    const onTarget = await s.treatedSession(await s.prescribedPatient());
    assert.ok(!flagCodes(onTarget.recorded).includes('target-weight-missed'), flagCodes(onTarget.recorded).join(', '));
    // Net 63.6 kg against 62.5 kg: 1.1 kg of fluid left on the patient.
    const missed = await s.treatedSession(await s.prescribedPatient(), { post: postBlock({ scaleWeightKg: 64.1 }) });
    assert.deepEqual(flagOf(missed.recorded, 'target-weight-missed'), {
      code: 'target-weight-missed',
      field: 'netPostWeightKg',
      value: 1.1,
      threshold: 0.5,
    });
  });

  it('records temperature and SpO2 with a reading, refusing values outside their ranges', async () => {
    const { path } = await s.startedSession(await s.prescribedPatient());
    await w.advance(30 * MINUTE);
    const recorded = expectStatus(await nurse(`${path}/lecturas`, s.reading(5, { temperatureC: 37.2, spo2: 95 })), 200);
    const reading = (recorded.body.readings as Json[])[0]!;
    assert.deepEqual([reading.temperatureC, reading.spo2], [37.2, 95]);
    for (const [field, value] of [
      ['spo2', 101],
      ['spo2', 94.5],
      ['temperatureC', 50],
    ] as const) {
      const refused = await nurse(`${path}/lecturas`, s.reading(5, { [field]: value }));
      assert.deepEqual(pointers(expectStatus(refused, 422, 'validation-failed')), [`/body/${field}`]);
    }
  });

  it('links an interruption to its complication and flags the treatment time it cost', async () => {
    const other = await s.startedSession(await s.prescribedPatient());
    await w.advance(60 * MINUTE);
    const foreign = expectStatus(await nurse(`${other.path}/complicaciones`, { at: s.at(5), code: 'cramps', severity: 'mild' }), 200);
    const foreignId = (foreign.body.complications as Json[])[0]!.complicationId as string;
    const { path } = await s.startedSession(await s.prescribedPatient());
    await w.advance(75 * MINUTE);
    const complication = { at: s.at(5), code: 'hypotension', severity: 'severe', intervention: 'Saline 300 mL' };
    const recorded = expectStatus(await nurse(`${path}/complicaciones`, complication), 200);
    const complicationId = (recorded.body.complications as Json[])[0]!.complicationId as string;
    // Another session's complication is not this session's.
    const elsewhere = await nurse(`${path}/interrupcion`, { reasonCode: 'hemodynamic-instability', complicationId: foreignId });
    assert.deepEqual(pointers(expectStatus(elsewhere, 422, 'validation-failed')), ['/body/complicationId']);

    const interrupted = expectStatus(await nurse(`${path}/interrupcion`, { reasonCode: 'hemodynamic-instability', complicationId }), 200);
    const interruption = interrupted.body.interruption as Json;
    // Prescribed 240 min, about 75 given: the rest is lost.
    const lost = 240 - (interrupted.body.effectiveMinutes as number);
    assert.ok(lost > 150 && lost <= 165, `lost ${lost} min`);
    assert.deepEqual([interruption.complicationId, interruption.lostMinutes], [complicationId, lost]);
    assert.deepEqual(flagOf(interrupted, 'treatment-time-lost'), {
      code: 'treatment-time-lost',
      field: 'interruption/lostMinutes',
      value: lost,
      threshold: 0,
    });
    const position = encodeURIComponent(interrupted.headers.get('x-event-position')!);
    const res = await fetch(`${w.server.url}${path}/hoja?minPosition=${position}`, { headers: { authorization: `Bearer ${w.a}` } });
    const text = await allText(await open(Buffer.from(await res.arrayBuffer())));
    assert.ok(text.includes(`Hipotensión — ${lost} min perdidos`), text);
  });

  it('prints the pre BUN, the access used and the access assessment on the sheet', async () => {
    const patient = await s.prescribedPatient();
    const access = { type: 'tunneledCVC', side: 'right', site: 'internal jugular', creationDate: w.dateIn(-30) };
    expectStatus(await s.post(w.a, `/pacientes/${patient}/accesos-vasculares`, access), 201);
    const path = s.sessionPath(await s.extraSession(patient));
    expectStatus(await nurse(`${path}/llegada`), 200);
    const pre = preBlock({ preBunMgDl: 71, accessAssessment: 'Exit site clean, dressing changed' });
    const recorded = expectStatus(await nurse(`${path}/pre-dialisis`, pre), 200);
    const position = encodeURIComponent(recorded.headers.get('x-event-position')!);
    const res = await fetch(`${w.server.url}${path}/hoja?minPosition=${position}`, { headers: { authorization: `Bearer ${w.a}` } });
    assert.equal(res.status, 200);
    const text = await allText(await open(Buffer.from(await res.arrayBuffer())));
    for (const expected of [
      'BUN pre 71 mg/dL',
      'Acceso vascular CVC tunelizado derecha · internal jugular',
      'Exit site clean, dressing changed',
    ]) {
      assert.ok(text.includes(expected), `the sheet shows "${expected}": ${text}`);
    }
  });
});
