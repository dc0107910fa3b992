// The schedule over HTTP on real stores: shifts, standing plans, the day's generation (idempotent, inactive patients
// skipped), seats per shift (nominal for planned and extra, reserved for emergencies, exact under concurrency, given
// back by cancellation and no-show), tenant isolation, permissions, field errors, and the orphaned-seat reconciliation.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startDialisisWorld, type DialisisWorld } from './dialisisWorld.js';
import { handleCommand } from '../../src/commands/handleCommand.js';
import { shiftDayDecider } from '../../src/commands/dialisis/schedule/shiftDayDecider.js';
import { shiftDayId } from '../../src/commands/dialisis/schedule/shiftDayEvents.js';
import { releaseOrphanedSeats } from '../../src/commands/dialisis/schedule/orphanedSeatWrites.js';
import { scheduleDeps } from '../../src/facts/dialisis/index.js';
import { commandContextFor } from './staleClaimsSupport.js';

describe('Dialisis schedule: shifts, standing plans and the day', () => {
  let w: DialisisWorld;
  before(async () => {
    w = await startDialisisWorld();
  });
  after(async () => w?.close());

  const extra = (patientId: string, date: string, shiftId: string, kind = 'extra') => ({
    patientId,
    date,
    shiftId,
    kind,
    reason: 'fluid overload',
    requestedBy: w.physician.staffId,
  });
  const occupancy = async (shiftId: string, date: string) =>
    expectStatus(await w.call(w.a, 'GET', `/dialisis/turnos/${shiftId}/ocupacion?fecha=${date}`), 200).body as {
      taken: Record<string, number>;
      free: Record<string, number>;
      sessions: { sessionId: string }[];
    };

  it('defines, reads and corrects a shift (If-Match required); refuses bad windows and unknown locations naming the field', async () => {
    const id = await w.createShift(w.a, { weekdays: [5, 1, 3] });
    const read = expectStatus(await w.call(w.a, 'GET', `/dialisis/turnos/${id}`), 200);
    assert.deepEqual(read.body.weekdays, [1, 3, 5]);
    const etag = read.headers.get('etag')!;
    expectStatus(await w.call(w.a, 'PATCH', `/dialisis/turnos/${id}`, { json: { capacity: 6, reason: 'new chairs' } }), 428);
    const patched = await w.call(w.a, 'PATCH', `/dialisis/turnos/${id}`, {
      json: { capacity: 6, reason: 'new chairs' },
      headers: { 'If-Match': etag },
    });
    assert.equal(expectStatus(patched, 200).body.capacity, 6);
    const stale = await w.call(w.a, 'PATCH', `/dialisis/turnos/${id}`, {
      json: { capacity: 7, reason: 'x' },
      headers: { 'If-Match': etag },
    });
    expectStatus(stale, 412);
    const bad = await w.call(w.a, 'POST', '/dialisis/turnos', {
      json: {
        name: 'T',
        locationId: w.stationB.locationId,
        dialysisStart: '10:00',
        dialysisEnd: '09:00',
        cleaningMinutes: 30,
        reservedCapacity: 0,
      },
    });
    assert.deepEqual(pointers(expectStatus(bad, 422)), ['/body/dialysisEnd', '/body/locationId']);
    const noName = await w.call(w.a, 'POST', '/dialisis/turnos', { json: { locationId: w.stationA.locationId } });
    assert.ok(pointers(expectStatus(noName, 422)).includes('/body/name'));
  });

  it("answers 404 for another company's shift, plan and session, and 403 to a role without dialisis:write", async () => {
    const shiftB = await w.createShift(w.b);
    const patientB = await w.patient(w.b);
    const planB = await w.createPlan(w.b, patientB, shiftB, [1, 2, 3, 4, 5, 6, 7]);
    const dateB = w.dateIn(2);
    const generated = expectStatus(await w.generate(w.b, dateB), 200);
    const sessionB = (generated.body.sessions as { sessionId: string }[])[0]!.sessionId;
    expectStatus(await w.call(w.a, 'GET', `/dialisis/turnos/${shiftB}`), 404);
    expectStatus(await w.call(w.a, 'GET', `/dialisis/turnos/${shiftB}/ocupacion?fecha=${dateB}`), 404);
    expectStatus(
      await w.call(w.a, 'PATCH', `/dialisis/turnos/${shiftB}`, { json: { capacity: 9, reason: 'x' }, headers: { 'If-Match': 'W/"0"' } }),
      404,
    );
    expectStatus(await w.call(w.a, 'POST', `/dialisis/turnos/${shiftB}/baja`, { json: { reason: 'x' } }), 404);
    expectStatus(await w.call(w.a, 'GET', `/dialisis/planes/${planB}`), 404);
    expectStatus(await w.call(w.a, 'POST', `/dialisis/planes/${planB}/fin`, { json: { effectiveTo: dateB, reason: 'x' } }), 404);
    expectStatus(await w.call(w.a, 'POST', `/dialisis/sesiones/${sessionB}/cancelacion`, { json: { reason: 'x' } }), 404);
    expectStatus(await w.call(w.a, 'POST', `/dialisis/sesiones/${sessionB}/inasistencia`, { json: {} }), 404);
    const readOnly = await w.memberWith(['dialisis:read']);
    expectStatus(await w.call(readOnly.token, 'POST', '/dialisis/turnos', { json: { name: 'x' } }), 403);
    expectStatus(await w.call(readOnly.token, 'POST', `/dialisis/agenda/${dateB}/generacion`, { json: {} }), 403);
    expectStatus(await w.call(readOnly.token, 'POST', '/dialisis/sesiones', { json: {} }), 403);
    expectStatus(await w.call(readOnly.token, 'GET', '/dialisis/turnos'), 200);
  });

  it('refuses a plan overlapping another of the patient on a weekday, and ends a plan', async () => {
    const shift = await w.createShift(w.a);
    const patient = await w.patient(w.a);
    const first = await w.createPlan(w.a, patient, shift, [1, 3, 5]);
    const clash = await w.call(w.a, 'POST', '/dialisis/planes', {
      json: { patientId: patient, shiftId: shift, weekdays: [5, 6], effectiveFrom: w.dateIn(10) },
    });
    assert.equal(expectStatus(clash, 409, 'plan-overlap').body.existingPlanId, first);
    await w.createPlan(w.a, patient, shift, [2, 4, 6]);
    const ended = await w.call(w.a, 'POST', `/dialisis/planes/${first}/fin`, { json: { effectiveTo: w.dateIn(5), reason: 'moved' } });
    assert.equal(expectStatus(ended, 200).body.status, 'ended');
    await w.createPlan(w.a, patient, shift, [1], { effectiveFrom: w.dateIn(6) });
    const listed = expectStatus(await w.call(w.a, 'GET', `/dialisis/planes?pacienteId=${patient}`), 200);
    assert.equal((listed.body.items as unknown[]).length, 3);
    const noPatient = await w.call(w.a, 'POST', '/dialisis/planes', {
      json: { patientId: shift, shiftId: shift, weekdays: [1], effectiveFrom: w.dateIn(0) },
    });
    assert.deepEqual(pointers(expectStatus(noPatient, 422)), ['/body/patientId']);
  });

  it('generates the day twice with the same sessions, skipping a discharged patient with the reason', async () => {
    const shift = await w.createShift(w.a);
    const date = w.nextWeekday(2);
    const [p1, p2, gone] = [await w.patient(w.a), await w.patient(w.a), await w.patient(w.a)];
    for (const p of [p1, p2, gone]) await w.createPlan(w.a, p, shift, [2, 4, 6]);
    expectStatus(
      await w.call(w.a, 'POST', `/pacientes/${gone}/estado`, { json: { status: 'discharged', reason: 'recovered function' } }),
      200,
    );
    const first = expectStatus(await w.generate(w.a, date, { locationId: w.stationA.locationId }), 200).body;
    const second = expectStatus(await w.generate(w.a, date, { locationId: w.stationA.locationId }), 200).body;
    const mine = (g: typeof first) => (g.sessions as { shiftId: string; sessionId: string }[]).filter((s) => s.shiftId === shift);
    assert.equal(mine(first).length, 2);
    assert.deepEqual(
      mine(second)
        .map((s) => s.sessionId)
        .sort(),
      mine(first)
        .map((s) => s.sessionId)
        .sort(),
    );
    assert.equal(first.scheduled, second.scheduled);
    assert.equal(second.created, 0);
    const skipped = (first.skipped as { patientId: string; reason: string }[]).find((s) => s.patientId === gone);
    assert.equal(skipped?.reason, 'patient-discharged');
    assert.equal((await occupancy(shift, date)).taken.planned, 2);
    const past = await w.generate(w.a, w.dateIn(-2));
    assert.deepEqual(pointers(expectStatus(past, 422)), ['/params/fecha']);
  });

  it('keeps to the nominal seats for extras and lets an emergency take a reserved one', async () => {
    const shift = await w.createShift(w.a, { capacity: 2, reservedCapacity: 1 });
    const date = w.dateIn(3);
    const [p1, p2, p3, p4, p5] = await Promise.all([1, 2, 3, 4, 5].map(() => w.patient(w.a)));
    expectStatus(await w.extraSession(w.a, extra(p1!, date, shift)), 201);
    expectStatus(await w.extraSession(w.a, extra(p1!, date, shift)), 409, 'session-already-scheduled');
    expectStatus(await w.extraSession(w.a, extra(p2!, date, shift)), 201);
    expectStatus(await w.extraSession(w.a, extra(p3!, date, shift)), 409, 'shift-full');
    const emergency = expectStatus(await w.extraSession(w.a, extra(p3!, date, shift, 'emergency')), 201);
    assert.equal(emergency.body.kind, 'emergency');
    expectStatus(await w.extraSession(w.a, extra(p4!, date, shift, 'emergency')), 409, 'shift-full');
    const seats = await occupancy(shift, date);
    assert.deepEqual(seats.taken, { planned: 0, extra: 2, emergency: 1, total: 3 });
    assert.deepEqual(seats.free, { regular: 0, emergency: 0 });
    const noDoctor = await w.extraSession(w.a, { ...extra(p5!, date, shift), requestedBy: p5 });
    assert.deepEqual(pointers(expectStatus(noDoctor, 422)), ['/body/requestedBy']);
    const noKind = await w.extraSession(w.a, { ...extra(p5!, date, shift), kind: 'planned' });
    assert.deepEqual(pointers(expectStatus(noKind, 422)), ['/body/kind']);
  });

  it('of 20 concurrent extra sessions for 2 free seats exactly 2 are scheduled', async () => {
    const shift = await w.createShift(w.a, { capacity: 2, reservedCapacity: 0 });
    const date = w.dateIn(4);
    const patients = await Promise.all(Array.from({ length: 20 }, () => w.patient(w.a)));
    const answers = await Promise.all(patients.map((p) => w.extraSession(w.a, extra(p, date, shift))));
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 201).length, 2, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 409).length, 18);
    assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.type === '/problems/shift-full'));
    assert.equal((await occupancy(shift, date)).taken.total, 2);
  });

  it('gives the seat back on cancellation and on no-show; a retried cancellation answers the same', async () => {
    const shift = await w.createShift(w.a, { capacity: 1, reservedCapacity: 0 });
    // Today's: a session can only be missed once its day has come.
    const date = w.dateIn(0);
    const [p1, p2, p3] = [await w.patient(w.a), await w.patient(w.a), await w.patient(w.a)];
    const first = expectStatus(await w.extraSession(w.a, extra(p1, date, shift)), 201).body.sessionId as string;
    expectStatus(await w.extraSession(w.a, extra(p2, date, shift)), 409, 'shift-full');
    const cancel = () => w.call(w.a, 'POST', `/dialisis/sesiones/${first}/cancelacion`, { json: { reason: 'hospitalized' } });
    assert.equal(expectStatus(await cancel(), 200).body.status, 'cancelled');
    assert.equal(expectStatus(await cancel(), 200).body.status, 'cancelled');
    const noReason = await w.call(w.a, 'POST', `/dialisis/sesiones/${first}/cancelacion`, { json: {} });
    assert.deepEqual(pointers(expectStatus(noReason, 422)), ['/body/reason']);
    const second = expectStatus(await w.extraSession(w.a, extra(p2, date, shift)), 201).body.sessionId as string;
    const noShow = await w.call(w.a, 'POST', `/dialisis/sesiones/${second}/inasistencia`, { json: { note: 'did not come' } });
    assert.equal(expectStatus(noShow, 200).body.status, 'no-show');
    expectStatus(await w.extraSession(w.a, extra(p3, date, shift)), 201);
    assert.equal((await occupancy(shift, date)).taken.total, 1);
    const tomorrow = expectStatus(await w.extraSession(w.a, extra(p1, w.dateIn(1), shift)), 201).body.sessionId as string;
    const early = await w.call(w.a, 'POST', `/dialisis/sesiones/${tomorrow}/inasistencia`, { json: {} });
    expectStatus(early, 409, 'session-day-not-reached');
  });

  it('releases a seat whose session never appeared, only after the grace period', async () => {
    const shift = await w.createShift(w.a, { capacity: 1, reservedCapacity: 0 });
    const date = w.dateIn(6);
    const ctx = commandContextFor(w.server, w.server.admin.companyId);
    const facts = { exists: true, retired: false, capacity: 1, reservedCapacity: 0 };
    // The process stopped after the claim, before the session was scheduled.
    await handleCommand(
      w.server.services.events,
      shiftDayDecider,
      {
        type: 'ClaimSeat',
        aggregateId: shiftDayId(shift, date),
        data: { sessionId: 'never-scheduled', patientId: 'p', kind: 'extra', date, shift: facts },
      },
      ctx,
    );
    const patient = await w.patient(w.a);
    expectStatus(await w.extraSession(w.a, extra(patient, date, shift)), 409, 'shift-full');
    assert.equal(await releaseOrphanedSeats(scheduleDeps(w.server.services), w.server.admin.companyId), 0);
    w.server.clock.advance(11 * 60 * 1000);
    await w.refreshSessions();
    assert.equal(await releaseOrphanedSeats(scheduleDeps(w.server.services)), 1);
    expectStatus(await w.extraSession(w.a, extra(patient, date, shift)), 201);
    assert.equal(await releaseOrphanedSeats(scheduleDeps(w.server.services)), 0);
  });
});
