// Spec of the floor widgets' read models: the census counters, the day board's counters per (date, location, shift)
// and the sessions awaiting signature or validation, each moved by a per-record membership document.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { FLOOR_BOARD, FLOOR_COUNTERS, FLOOR_SESSIONS, floorProjection } from './floorProjection.js';
import { boardId, type BoardDoc, type CountersDoc, type SessionMemberDoc } from './floorDocs.js';

const given = projectionSpec(floorProjection);
const patient = (id: string, tenant = 't1') => streamOf(tenant, 'patient', id);
const session = (id: string, tenant = 't1') => streamOf(tenant, 'dialysisSession', id);
const registered = (isolation: string[] = []) => ({ type: 'PatientRegistered', data: { status: 'active', isolation } });
const statusChanged = (status: string, previousStatus: string) => ({
  type: 'PatientStatusChanged',
  data: { status, previousStatus, reason: 'x', effectiveDate: '2025-03-03' },
});
const isolationChanged = (isolation: string[], previousIsolation: string[]) => ({
  type: 'PatientIsolationChanged',
  data: { isolation, previousIsolation },
});
const scheduled = (sessionId: string, date = '2025-03-03', shiftId = 'm') => ({
  type: 'SessionScheduled',
  data: { sessionId, patientId: `p-${sessionId}`, date, shiftId, locationId: 'l1', kind: 'planned' },
});
const ev = (type: string, data: object = {}) => ({ type, data });
const checkedIn = ev('PatientCheckedIn', { checkedInAt: '2025-03-03T08:00:00Z' });
const started = ev('SessionStarted', { startedAt: '2025-03-03T08:10:00Z' });
const paused = ev('SessionPaused', { pausedAt: '2025-03-03T09:00:00Z', reason: 'x' });
const resumed = ev('SessionResumed', { resumedAt: '2025-03-03T09:10:00Z' });
const ended = ev('SessionEnded', { endedAt: '2025-03-03T12:00:00Z', effectiveMinutes: 230 });
const signed = ev('SessionSignedByNurse', { userId: 'u', staffId: 's', signedAt: '2025-03-03T12:10:00Z' });
const validated = ev('SessionValidatedByPhysician', { userId: 'u', staffId: 's', validatedAt: '2025-03-03T13:00:00Z' });
const reopened = ev('SessionAmended', {
  block: 'post',
  changes: {},
  previous: {},
  reason: 'x',
  policyRevision: 1,
  returnsToValidation: true,
});
const reading = ev('ReadingRecorded', { readingId: 'r', at: '2025-03-03T09:00:00Z', source: 'manual' });

const zero = { scheduled: 0, arrived: 0, running: 0, ended: 0, signed: 0, validated: 0, noShow: 0, cancelled: 0 };

describe('floor widgets projection', () => {
  it('counts patients by status and active patients by isolation, moving them when either changes', async () => {
    const outcome = given(
      patient('p1')(registered(), statusChanged('hospitalized', 'active')),
      patient('p2')(registered(['HBV']), isolationChanged(['HBV', 'HCV'], ['HBV'])),
      patient('p3')(registered(['HIV']), statusChanged('deceased', 'active')),
      patient('p4', 't2')(registered(['HCV'])),
    );
    await outcome.then<CountersDoc>(FLOOR_COUNTERS, 'census', (doc) => {
      assert.equal(doc.total, 3);
      assert.deepEqual(doc.byStatus, { active: 1, hospitalized: 1, deceased: 1 });
      assert.deepEqual(doc.byIsolation, { HBV: 1, HCV: 1, HIV: 0 });
    });
    await outcome.in('t2').then<CountersDoc>(FLOOR_COUNTERS, 'census', (doc) => assert.deepEqual(doc.byIsolation, { HCV: 1 }));
    await outcome.thenIdempotent();
  });

  it('moves a session across the board: scheduled, arrived, running, ended, signed, validated; other events change nothing', async () => {
    const steps = [scheduled('s1'), checkedIn, started, paused, reading, resumed, ended, signed, validated];
    const expected = ['scheduled', 'arrived', 'running', 'running', 'running', 'running', 'ended', 'signed', 'validated'];
    for (let n = 1; n <= steps.length; n++) {
      await given(session('s1')(...steps.slice(0, n))).then<BoardDoc>(FLOOR_BOARD, boardId('2025-03-03', 'l1', 'm'), (doc) =>
        assert.deepEqual(doc.counts, { ...zero, [expected[n - 1]!]: 1 }, `after ${steps[n - 1]!.type}`),
      );
    }
  });

  it('counts no-shows and cancellations apart, per date, location and shift', async () => {
    const outcome = given(
      session('s1')(scheduled('s1'), ev('SessionMarkedNoShow')),
      session('s2')(scheduled('s2'), ev('SessionCancelled', { reason: 'x' })),
      session('s3')(scheduled('s3')),
      session('s4')(scheduled('s4', '2025-03-04')),
      session('s5')(scheduled('s5', '2025-03-03', 't')),
    );
    await outcome.then<BoardDoc>(FLOOR_BOARD, boardId('2025-03-03', 'l1', 'm'), (doc) => {
      assert.deepEqual([doc.date, doc.locationId, doc.shiftId], ['2025-03-03', 'l1', 'm']);
      assert.deepEqual(doc.counts, { ...zero, scheduled: 1, noShow: 1, cancelled: 1 });
    });
    await outcome.thenFind<BoardDoc>(FLOOR_BOARD, { date: '2025-03-03' }, (docs) => assert.equal(docs.length, 2));
    await outcome.thenIdempotent();
  });

  it('lists sessions awaiting signature then validation, and back to validation after an amendment', async () => {
    const outcome = given(
      session('s1')(scheduled('s1', '2025-03-02'), checkedIn, started, ended),
      session('s2')(scheduled('s2'), checkedIn, started, ev('SessionInterrupted', { reasonCode: 'other', effectiveMinutes: 10 })),
      session('s3')(scheduled('s3'), checkedIn, started, ended, signed),
      session('s4')(scheduled('s4'), checkedIn, started, ended, signed, validated, reopened),
      session('s5')(scheduled('s5'), checkedIn, started, ended, signed, validated),
    );
    await outcome.then<CountersDoc>(FLOOR_COUNTERS, 'awaiting', (doc) => assert.deepEqual([doc.signature, doc.validation], [2, 2]));
    await outcome.thenFind<SessionMemberDoc>(
      FLOOR_SESSIONS,
      { awaiting: 'signature' },
      (docs) =>
        assert.deepEqual(
          docs.map((d) => [d.id, d.date, d.patientId]),
          [
            ['s1', '2025-03-02', 'p-s1'],
            ['s2', '2025-03-03', 'p-s2'],
          ],
        ),
      { sort: { date: 1 } },
    );
    await outcome.thenFind<SessionMemberDoc>(FLOOR_SESSIONS, { awaiting: 'validation' }, (docs) =>
      assert.deepEqual(docs.map((d) => d.id).sort(), ['s3', 's4']),
    );
    await outcome.thenIdempotent();
  });

  it('ignores sign-in sessions and events of sessions it never saw scheduled', async () => {
    const outcome = given(streamOf('t1', 'session', 'x')(started), session('s9')(checkedIn));
    await outcome.thenAbsent(FLOOR_SESSIONS, 's9');
    await outcome.thenFind(FLOOR_BOARD, {}, (docs) => assert.equal(docs.length, 0));
  });
});
