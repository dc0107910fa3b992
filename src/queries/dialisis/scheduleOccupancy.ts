// Who holds the seats of a shift on a date, against its capacity; and the seats never confirmed by their session.
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Page } from '../../stores/readStore.js';
import { SCHEDULE_PROJECTION, SHIFT_DAYS } from '../../projections/dialisis/scheduleProjection.js';
import type { ShiftDayDoc, ShiftDoc } from '../../projections/dialisis/scheduleDocs.js';

export const shiftDays = (scope: TenantScope): Collection<ShiftDayDoc> =>
  scope.services.projections.collection<ShiftDayDoc>(SCHEDULE_PROJECTION, SHIFT_DAYS);

export interface Occupancy {
  shiftId: string;
  date: string;
  capacity: number;
  reservedCapacity: number;
  taken: { planned: number; extra: number; emergency: number; total: number };
  /** Seats left for planned and extra sessions, and for an emergency (which may also use the reserved ones). */
  free: { regular: number; emergency: number };
  sessions: { sessionId: string; patientId: string; kind: string }[];
}

export async function occupancyOf(scope: TenantScope, shift: ShiftDoc, date: string): Promise<Occupancy> {
  const doc = await shiftDays(scope).get(scope.auth.tenantId, `${shift.id}_${date}`);
  const seats = doc?.seats ?? [];
  const count = (kind: string) => seats.filter((s) => s.kind === kind).length;
  const total = seats.length;
  return {
    shiftId: shift.id,
    date,
    capacity: shift.capacity,
    reservedCapacity: shift.reservedCapacity,
    taken: { planned: count('planned'), extra: count('extra'), emergency: count('emergency'), total },
    free: {
      regular: Math.max(0, shift.capacity - total),
      emergency: Math.max(0, shift.capacity + shift.reservedCapacity - total),
    },
    sessions: seats.map(({ sessionId, patientId, kind }) => ({ sessionId, patientId, kind })),
  };
}

/** Shift-days of the company holding a seat whose session was never scheduled (candidates for reconciliation). */
export function shiftDaysWithUnscheduledSeats(scope: TenantScope, after: string | null, limit: number): Promise<Page<ShiftDayDoc>> {
  return shiftDays(scope).find(scope.auth.tenantId, { unscheduled: { $gt: 0 } }, { limit, after });
}
