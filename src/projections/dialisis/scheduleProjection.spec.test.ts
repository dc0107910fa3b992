// Spec of the schedule projection: shifts, standing plans, and the seats of each shift-day confirmed by the sessions.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { PLANS, SHIFT_DAYS, SHIFTS, scheduleProjection } from './scheduleProjection.js';
import type { PlanDoc, ShiftDayDoc, ShiftDoc } from './scheduleDocs.js';

const given = projectionSpec(scheduleProjection);
const shift = streamOf('t1', 'shift', 'm');
const plans = streamOf('t1', 'standingPlans', 'p1');
const day = streamOf('t1', 'shiftDay', 'm_2025-03-03');
const session = streamOf('t1', 'dialysisSession', 's1');
const otherCompany = streamOf('t2', 'shift', 'm');
const fields = {
  name: 'Mañana',
  locationId: 'l1',
  dialysisStart: '07:00',
  dialysisEnd: '11:00',
  cleaningMinutes: 30,
  capacity: 10,
  reservedCapacity: 1,
};
const defined = (name = 'Mañana') => ({ type: 'ShiftDefined', data: { ...fields, name, shiftId: 'm', policyRevision: 1 } });
const claimed = (sessionId: string) => ({
  type: 'SeatClaimed',
  data: {
    sessionId,
    patientId: `p-${sessionId}`,
    kind: 'planned',
    claimedAt: '2025-03-01T08:00:00.000Z',
    capacity: 10,
    reservedCapacity: 1,
  },
});
const scheduled = {
  type: 'SessionScheduled',
  data: { sessionId: 's1', patientId: 'p-s1', date: '2025-03-03', shiftId: 'm', locationId: 'l1', kind: 'planned' },
};

describe('dialisis schedule projection', () => {
  it('defines, corrects and retires a shift, sorted by its plain name', async () => {
    const corrected = {
      type: 'ShiftCorrected',
      data: { changes: { name: 'Ámbar', capacity: 12 }, previous: { name: 'Mañana', capacity: 10 } },
    };
    const retired = { type: 'ShiftRetired', data: { reason: 'closed' } };
    await given(shift(defined(), corrected, retired)).then<ShiftDoc>(SHIFTS, 'm', (doc) => {
      assert.equal(doc.name, 'Ámbar');
      assert.equal(doc.sortName, 'ambar');
      assert.equal(doc.capacity, 12);
      assert.deepEqual([doc.status, doc.retireReason, doc.revision], ['retired', 'closed', 2]);
    });
  });

  it('creates and ends a standing plan', async () => {
    const plan = {
      planId: 'pl1',
      patientId: 'p1',
      shiftId: 'm',
      locationId: 'l1',
      weekdays: [1, 3, 5],
      effectiveFrom: '2025-03-01',
      effectiveTo: null,
    };
    const ended = {
      type: 'StandingPlanEnded',
      data: { planId: 'pl1', effectiveTo: '2025-06-30', reason: 'transfer', previousEffectiveTo: null },
    };
    await given(plans({ type: 'StandingPlanCreated', data: plan }, ended)).then<PlanDoc>(PLANS, 'pl1', (doc) => {
      assert.deepEqual([doc.status, doc.effectiveTo, doc.endReason], ['ended', '2025-06-30', 'transfer']);
      assert.deepEqual(doc.weekdays, [1, 3, 5]);
    });
  });

  it('counts a claimed seat as unscheduled until its session is scheduled, and frees it on release', async () => {
    const released = { type: 'SeatReleased', data: { sessionId: 's2', reason: 'cancelled' } };
    const outcome = given(day(claimed('s1'), claimed('s2')), session(scheduled), day(released));
    await outcome.then<ShiftDayDoc>(SHIFT_DAYS, 'm_2025-03-03', (doc) => {
      assert.deepEqual(
        doc.seats.map((s) => [s.sessionId, s.scheduled]),
        [['s1', true]],
      );
      assert.equal(doc.unscheduled, 0);
      assert.deepEqual([doc.shiftId, doc.date], ['m', '2025-03-03']);
    });
    await given(day(claimed('s1'))).thenFind<ShiftDayDoc>(SHIFT_DAYS, { unscheduled: { $gt: 0 } }, (docs) => assert.equal(docs.length, 1));
  });

  it('changes nothing when events are delivered again', async () => {
    const events = day(claimed('s1'), claimed('s2'));
    await given(events, events[0]!).then<ShiftDayDoc>(SHIFT_DAYS, 'm_2025-03-03', (doc) => assert.equal(doc.seats.length, 2));
    await given(shift(defined()), events, session(scheduled)).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(shift(defined()), otherCompany(defined('Tarde')));
    await outcome.then<ShiftDoc>(SHIFTS, 'm', (doc) => assert.equal(doc.name, 'Mañana'));
    await outcome.in('t2').then<ShiftDoc>(SHIFTS, 'm', (doc) => assert.equal(doc.name, 'Tarde'));
    await given(otherCompany(defined())).in('t1').thenAbsent(SHIFTS, 'm');
  });
});
