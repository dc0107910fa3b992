// The shift day's event contract: the seats claimed and released on one shift on one date, its stream category and
// stream (`<tenant>.shiftDay-<shiftId>_<date>`); the decider and the read side both take them from here.
import type { DecidedEvent } from '../../decider.js';
import { streamName } from '../../../stores/streamNames.js';
import type { SessionKind } from '../session/sessionEvents.js';

/** The category of the shift-day streams: written once, here. */
export const SHIFT_DAY_CATEGORY = 'shiftDay';
/** Id of the shift-day stream of a shift on a date. */
export const shiftDayId = (shiftId: string, date: string): string => `${shiftId}_${date}`;
export const shiftDayStream = (tenantId: string, shiftId: string, date: string): string =>
  streamName(tenantId, SHIFT_DAY_CATEGORY, shiftDayId(shiftId, date));

export type SeatReleaseReason = 'cancelled' | 'no-show' | 'not-scheduled' | 'orphaned-claim';

export type ShiftDayEvent =
  | DecidedEvent<
      'SeatClaimed',
      { sessionId: string; patientId: string; kind: SessionKind; claimedAt: string; capacity: number; reservedCapacity: number }
    >
  | DecidedEvent<'SeatReleased', { sessionId: string; reason: SeatReleaseReason }>;

export const SHIFT_DAY_EVENT_TYPES: readonly ShiftDayEvent['type'][] = ['SeatClaimed', 'SeatReleased'];
