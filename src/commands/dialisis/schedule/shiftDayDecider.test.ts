// Given seats / when a claim or release / then events or a refusal: a shift keeps within its capacity, emergencies
// may take the reserved seats, claims and releases are safe to retry, orphaned seats go back after the grace period.
import { scenario } from '../../givenWhenThen.js';
import { shiftDayDecider, type ShiftDayCommand, type ShiftSeatFacts } from './shiftDayDecider.js';
import { type ShiftDayEvent } from './shiftDayEvents.js';

const given = scenario(shiftDayDecider);
const T0 = '2025-03-03T08:00:00.000Z';
const MONDAY = '2025-03-03';
const shift: ShiftSeatFacts = { exists: true, retired: false, weekdays: [1, 3, 5], capacity: 2, reservedCapacity: 1 };
const cmd = (data: ShiftDayCommand['data'], type: ShiftDayCommand['type'] = 'ClaimSeat', at = T0): ShiftDayCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: `sh1_${MONDAY}`, tenantId: 't1' }) as ShiftDayCommand;
const claim = (sessionId: string, kind: 'planned' | 'extra' | 'emergency' = 'planned', facts = shift, date = MONDAY) =>
  cmd({ sessionId, patientId: `p-${sessionId}`, kind, date, shift: facts });
const claimed = (sessionId: string, kind: 'planned' | 'extra' | 'emergency' = 'planned', at = T0): ShiftDayEvent => ({
  type: 'SeatClaimed',
  data: { sessionId, patientId: `p-${sessionId}`, kind, claimedAt: at, capacity: 2, reservedCapacity: 1 },
});
const released = (sessionId: string, reason: 'cancelled' | 'orphaned-claim' = 'cancelled'): ShiftDayEvent => ({
  type: 'SeatReleased',
  data: { sessionId, reason },
});

describe('Shift-day seats', () => {
  it('claims a free nominal seat', () => {
    given().when(claim('s1')).then(claimed('s1'));
  });

  it('refuses a planned or extra session once the nominal seats are taken', () => {
    given(claimed('s1'), claimed('s2')).when(claim('s3', 'extra')).thenError('shift-full');
    given(claimed('s1'), claimed('s2')).when(claim('s3', 'planned')).thenError('shift-full');
  });

  it('lets an emergency take a reserved seat, and no more than those', () => {
    given(claimed('s1'), claimed('s2')).when(claim('s3', 'emergency')).then(claimed('s3', 'emergency'));
    given(claimed('s1'), claimed('s2'), claimed('s3', 'emergency')).when(claim('s4', 'emergency')).thenError('shift-full');
  });

  it('a second claim for the same session changes nothing, even on a full shift', () => {
    given(claimed('s1'), claimed('s2')).when(claim('s1')).then();
  });

  it('a released seat can be claimed again', () => {
    given(claimed('s1'), claimed('s2'), released('s1')).when(claim('s3', 'extra')).then(claimed('s3', 'extra'));
  });

  it('releases a held seat once; releasing it again changes nothing', () => {
    given(claimed('s1'))
      .when(cmd({ sessionId: 's1', reason: 'cancelled' }, 'ReleaseSeat'))
      .then(released('s1'));
    given(claimed('s1'), released('s1'))
      .when(cmd({ sessionId: 's1', reason: 'cancelled' }, 'ReleaseSeat'))
      .then();
  });

  it('refuses a retired shift and a weekday the shift does not run', () => {
    given()
      .when(claim('s1', 'planned', { ...shift, retired: true }))
      .thenError('shift-retired');
    given()
      .when(claim('s1', 'planned', shift, '2025-03-04'))
      .thenError('shift-not-running');
  });

  it('gives back an orphaned seat only after the grace period, and never one whose session exists', () => {
    const orphan = (at: string, sessionExists: boolean) =>
      cmd({ sessionId: 's1', sessionExists, graceSeconds: 600 }, 'ReleaseOrphanedSeat', at);
    given(claimed('s1')).when(orphan('2025-03-03T08:09:59.000Z', false)).then();
    given(claimed('s1')).when(orphan('2025-03-03T08:10:00.000Z', false)).then(released('s1', 'orphaned-claim'));
    given(claimed('s1')).when(orphan('2025-03-03T09:00:00.000Z', true)).then();
  });
});
