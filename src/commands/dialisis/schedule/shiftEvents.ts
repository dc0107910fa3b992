// A shift (turno) of one location: when it dialyses, how long the cleaning takes, and how many seats it has (stream
// `<tenant>.shift-<id>`). Seats of a day are held by the shift-day stream (shiftDayDecider.ts).
import type { CommandEnvelope, DecidedEvent } from '../../decider.js';
import { streamName } from '../../../stores/streamNames.js';

/** The category of the shift streams: written once, here (the decider, the writes and the read side take it). */
export const SHIFT_CATEGORY = 'shift';
export const shiftStream = (tenantId: string, shiftId: string): string => streamName(tenantId, SHIFT_CATEGORY, shiftId);

/** ISO weekdays: 1 = Monday ... 7 = Sunday. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export type ShiftFields = {
  name: string;
  locationId: string;
  /** Weekdays the shift runs; absent = every day. */
  weekdays?: IsoWeekday[];
  /** Dialysis window, HH:MM (24 h, the company's local time). */
  dialysisStart: string;
  dialysisEnd: string;
  cleaningMinutes: number;
  /** Seats for planned and extra sessions. */
  capacity: number;
  /** Seats beyond `capacity` that only emergencies may take. */
  reservedCapacity: number;
};
export type ShiftPatch = Partial<Omit<ShiftFields, 'weekdays'>> & { weekdays?: IsoWeekday[] | null };
export const CORRECTABLE_SHIFT_FIELDS = [
  'name',
  'locationId',
  'weekdays',
  'dialysisStart',
  'dialysisEnd',
  'cleaningMinutes',
  'capacity',
  'reservedCapacity',
] as const;

/** The location as the write found it (absent = not of this company). */
export type LocationFacts = { exists: boolean; open: boolean };

export type ShiftCommand =
  | CommandEnvelope<
      'DefineShift',
      Omit<ShiftFields, 'capacity'> & { capacity?: number; location: LocationFacts; policy: { revision: number; defaultCapacity: number } }
    >
  | CommandEnvelope<'CorrectShift', ShiftPatch & { location?: LocationFacts }>
  | CommandEnvelope<'RetireShift', { reason: string }>;

export type ShiftEvent =
  | DecidedEvent<'ShiftDefined', ShiftFields & { shiftId: string; policyRevision: number }>
  | DecidedEvent<'ShiftCorrected', { changes: ShiftPatch; previous: ShiftPatch }>
  | DecidedEvent<'ShiftRetired', { reason: string }>;

export const SHIFT_EVENT_TYPES: readonly ShiftEvent['type'][] = ['ShiftDefined', 'ShiftCorrected', 'ShiftRetired'];

/** The ISO weekday of a calendar date. */
export function isoWeekdayOf(date: string): IsoWeekday {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return (day === 0 ? 7 : day) as IsoWeekday;
}
