// The floor widgets over real HTTP: the patient census, the day board by shift and the sessions awaiting signature or
// validation, each read from its own read models as of a log position; permissions and another company's data.
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { registration } from './pacientesWorld.js';
import { consistencyTokens } from '../../src/http/consistencyToken.js';
import { expectStatus, pointers, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, postBlock, preBlock, safetyChecks, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

type Counts = Record<string, number>;

describe('Widgets of the floor over HTTP: census, day board, sessions awaiting', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  /** A widget's answer, read after the write that gave `written` (its X-Event-Position as minPosition). */
  async function widget(id: string, query: Record<string, string> = {}, written?: Answer, token = w.a): Promise<Answer> {
    const minPosition = written?.headers.get('x-event-position');
    const search = new URLSearchParams({ ...query, ...(minPosition ? { minPosition } : {}) });
    return w.call(token, 'GET', `/widgets/${id}/datos?${search.toString()}`);
  }
  const data = async (id: string, query: Record<string, string> = {}, written?: Answer, token = w.a): Promise<Json> =>
    expectStatus(await widget(id, query, written, token), 200).body.data as Json;
  const census = (written?: Answer, token = w.a) => data('patient-census', {}, written, token);
  const registered = async (token = w.a): Promise<Answer> =>
    expectStatus(await w.call(token, 'POST', '/pacientes', { json: registration() }), 201);

  it('counts patients by status and active ones by isolation, after registering and changing them', async () => {
    const before = await census();
    const created = await registered();
    const id = created.body.id as string;
    const one = await census(created);
    assert.equal(one.total, (before.total as number) + 1);
    assert.equal((one.byStatus as Counts).active, ((before.byStatus as Counts).active ?? 0) + 1);
    const serology = { test: 'HBsAg', result: 'positive', sampleDate: '2025-02-01' };
    const isolated = expectStatus(await w.call(w.a, 'POST', `/pacientes/${id}/serologias`, { json: serology }), 201);
    const two = await census(isolated);
    assert.equal((two.byIsolation as Counts).HBV, ((before.byIsolation as Counts).HBV ?? 0) + 1);
    const moved = await w.call(w.a, 'POST', `/pacientes/${id}/estado`, { json: { status: 'hospitalized', reason: 'Pneumonia' } });
    const three = await census(expectStatus(moved, 200));
    assert.equal((three.byStatus as Counts).active, (before.byStatus as Counts).active ?? 0);
    assert.equal((three.byStatus as Counts).hospitalized, ((before.byStatus as Counts).hospitalized ?? 0) + 1);
    assert.equal((three.byIsolation as Counts).HBV, (before.byIsolation as Counts).HBV ?? 0);
    const display = three.counts as { key: string; value: number }[];
    assert.equal(display.find((c) => c.key === 'hospitalized')?.value, (three.byStatus as Counts).hospitalized);
  });

  it("never counts another company's patients, and answers as of a position at least the write's", async () => {
    const before = await census();
    const written = await registered(w.b);
    const answer = expectStatus(await widget('patient-census', {}, written, w.b), 200).body;
    const position = (await consistencyTokens(w.server.services)).open(written.headers.get('x-event-position')!)!;
    assert.ok(BigInt((answer.asOf as Json).position as string) >= position, `${String((answer.asOf as Json).position)} < ${position}`);
    assert.equal((await census(written)).total, before.total);
    assert.ok(((answer.data as Json).total as number) >= 1);
  });

  /** The board's entry of a shift on a date (zero counts when it has none). */
  async function boardOf(shiftId: string, date: string, written?: Answer, token = w.a): Promise<Counts | null> {
    const board = await data('today-board', { date, locationId: w.stationA.locationId }, written, token);
    assert.equal(board.date, date);
    const entry = (board.shifts as Json[]).find((shift) => shift.shiftId === shiftId);
    return entry ? (entry.counts as Counts) : null;
  }
  const only = (column: string, n = 1): Counts => {
    const zero: Counts = { scheduled: 0, arrived: 0, running: 0, ended: 0, signed: 0, validated: 0, noShow: 0, cancelled: 0 };
    return { ...zero, [column]: n };
  };

  it('moves a session across the board: scheduled, arrived, running, ended, signed, validated', async () => {
    const patient = await s.prescribedPatient();
    const shiftId = await w.createShift(w.a);
    const date = s.today();
    const extra = { patientId: patient, date, shiftId, kind: 'extra', reason: 'Recovery session', requestedBy: w.physician.staffId };
    const scheduled = expectStatus(await w.extraSession(w.a, extra), 201);
    const path = s.sessionPath(scheduled.body.sessionId as string);
    assert.deepEqual(await boardOf(shiftId, date, scheduled), only('scheduled'));
    const arrived = expectStatus(await s.post(w.nurse.token, `${path}/llegada`), 200);
    assert.deepEqual(await boardOf(shiftId, date, arrived, await w.withRoles(['receptionist'])), only('arrived'));
    expectStatus(await s.post(w.nurse.token, `${path}/pre-dialisis`, preBlock()), 200);
    expectStatus(await s.post(w.nurse.token, `${path}/controles-seguridad`, safetyChecks()), 200);
    const machineId = await s.readyMachine();
    const started = expectStatus(await s.post(w.nurse.token, `${path}/inicio`, { machineId, stationId: w.stationA.stationId }), 200);
    assert.deepEqual(await boardOf(shiftId, date, started), only('running'));
    await w.advance(60 * MINUTE);
    expectStatus(await s.post(w.nurse.token, `${path}/lecturas`, s.reading(30)), 200);
    const ended = expectStatus(await s.post(w.nurse.token, `${path}/fin`), 200);
    assert.deepEqual(await boardOf(shiftId, date, ended), only('ended'));
    expectStatus(await s.post(w.nurse.token, `${path}/post-dialisis`, postBlock()), 200);
    const signed = expectStatus(await s.post(w.nurse.token, `${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    assert.deepEqual(await boardOf(shiftId, date, signed), only('signed'));
    const validated = await s.post(w.physician.token, `${path}/validacion`, { code: await w.stepUpCode(w.physician) });
    assert.deepEqual(await boardOf(shiftId, date, expectStatus(validated, 200)), only('validated'));
  });

  it('counts no-shows and cancellations apart, on the date asked, with totals and the shift name', async () => {
    const shiftId = await w.createShift(w.a, { name: 'Turno widgets' });
    const date = s.today();
    const missed = await s.extraSession(await w.patient(w.a), { shiftId });
    const cancelled = await s.extraSession(await w.patient(w.a), { shiftId });
    const patient = await w.patient(w.a);
    await s.extraSession(patient, { shiftId });
    const tomorrow = await s.extraSession(patient, { shiftId, date: w.dateIn(1) });
    expectStatus(await s.post(w.a, `${s.sessionPath(missed)}/inasistencia`), 200);
    const last = expectStatus(await s.post(w.a, `${s.sessionPath(cancelled)}/cancelacion`, { reason: 'Hospitalized' }), 200);
    assert.deepEqual(await boardOf(shiftId, date, last), { ...only('scheduled'), noShow: 1, cancelled: 1 });
    const board = await data('today-board');
    assert.equal(board.date, date);
    const entry = (board.shifts as Json[]).find((shift) => shift.shiftId === shiftId)!;
    assert.deepEqual([entry.label, entry.locationId], ['Turno widgets', w.stationA.locationId]);
    const totals = board.totals as Counts;
    const sum = (column: string) => (board.shifts as Json[]).reduce((n, shift) => n + (shift.counts as Counts)[column]!, 0);
    assert.deepEqual([totals.scheduled, totals.noShow, totals.cancelled], [sum('scheduled'), sum('noShow'), sum('cancelled')]);
    const display = board.counts as { key: string; value: number }[];
    assert.equal(display.find((c) => c.key === 'noShow')?.value, totals.noShow);
    assert.ok(tomorrow);
    assert.deepEqual(await boardOf(shiftId, w.dateIn(1)), only('scheduled'));
    assert.equal(await boardOf(shiftId, w.dateIn(2)), null);
  });

  it("never shows another company's sessions on the board", async () => {
    const shiftB = await w.createShift(w.b, { locationId: w.stationB.locationId });
    await w.createPlan(w.b, await w.patient(w.b), shiftB, [1, 2, 3, 4, 5, 6, 7]);
    const date = w.dateIn(3);
    const generated = expectStatus(await w.generate(w.b, date), 200);
    assert.equal(await boardOf(shiftB, date, generated), null);
    const boardB = await data('today-board', { date }, generated, w.b);
    assert.deepEqual(
      (boardB.shifts as Json[]).map((shift) => shift.shiftId),
      [shiftB],
    );
  });

  it('lists the oldest sessions awaiting signature and validation, with patient names', async () => {
    const awaiting = (written?: Answer, query: Record<string, string> = {}) => data('sessions-awaiting', query, written, w.nurse.token);
    const before = await awaiting();
    const patient = await s.prescribedPatient({ givenNames: 'Awaited', familyNames: 'Signature' });
    const { sessionId, path, recorded: last } = await s.treatedSession(patient);
    const one = await awaiting(last, { limit: '100' });
    assert.equal(one.awaitingSignature, (before.awaitingSignature as number) + 1);
    const item = (one.items as Json[]).find((row) => row.id === sessionId)!;
    assert.match(item.label as string, /Awaited/);
    assert.match(item.detail as string, /signature/);
    const signed = expectStatus(await s.post(w.nurse.token, `${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    const two = await awaiting(signed, { limit: '100' });
    assert.deepEqual(
      [two.awaitingSignature, two.awaitingValidation],
      [before.awaitingSignature, (before.awaitingValidation as number) + 1],
    );
    assert.match((two.items as Json[]).find((row) => row.id === sessionId)!.detail as string, /validation/);
    const limited = await awaiting(signed, { limit: '1' });
    assert.equal((limited.items as Json[]).length, 1);
  });

  it('a receptionist sees the census and the board but not the sessions awaiting (403, not in the catalog)', async () => {
    const receptionist = await w.withRoles(['receptionist']);
    const catalog = expectStatus(await w.call(receptionist, 'GET', '/widgets/catalogo'), 200).body.items as Json[];
    const ids = catalog.map((entry) => entry.id);
    assert.ok(ids.includes('patient-census') && ids.includes('today-board'), ids.join());
    assert.ok(!ids.includes('sessions-awaiting'));
    const nurseIds = (expectStatus(await w.call(w.nurse.token, 'GET', '/widgets/catalogo'), 200).body.items as Json[]).map((e) => e.id);
    assert.ok(nurseIds.includes('sessions-awaiting'));
    const refused = expectStatus(await widget('sessions-awaiting', {}, undefined, receptionist), 403, 'forbidden');
    assert.equal(refused.body.permission, 'pacientes:notes');
    expectStatus(await widget('patient-census', {}, undefined, receptionist), 200);
    expectStatus(await widget('today-board', {}, undefined, receptionist), 200);
  });

  it('answers data of the shape the catalog states, with the parameters in effect', async () => {
    const ajv = new Ajv2020({ strict: false });
    addFormatsModule.default(ajv);
    const catalog = expectStatus(await w.call(w.nurse.token, 'GET', '/widgets/catalogo'), 200).body.items as Json[];
    for (const id of ['patient-census', 'today-board', 'sessions-awaiting']) {
      const entry = catalog.find((e) => e.id === id)!;
      const answer = expectStatus(await widget(id, id === 'sessions-awaiting' ? { limit: '3' } : {}, undefined, w.nurse.token), 200).body;
      const valid = ajv.compile(entry.data as object);
      assert.ok(valid(answer.data), `${id}: ${JSON.stringify(valid.errors)}`);
      assert.deepEqual(answer.params, id === 'sessions-awaiting' ? { limit: 3 } : {});
    }
  });

  it('refuses a parameter the widget does not take, naming it', async () => {
    assert.deepEqual(pointers(expectStatus(await widget('patient-census', { date: '2025-01-01' }), 422)), ['/query/date']);
    assert.deepEqual(pointers(expectStatus(await widget('today-board', { limit: '5' }), 422)), ['/query/limit']);
    assert.deepEqual(pointers(expectStatus(await widget('sessions-awaiting', { month: '2025-01' }), 422)), ['/query/month']);
  });
});
