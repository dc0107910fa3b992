// The seats of one shift on one date (stream `<tenant>.shiftDay-<shiftId>_<date>`): the reservation that keeps a
// shift within its capacity (architecture.md, rules that span aggregates). A session claims its seat here before its
// own stream is written; cancellation, no-show and a failed scheduling give it back. Pure.
import { rule, type CommandEnvelope, type Decider } from '../../decider.js';
import type { SessionKind } from '../session/sessionEvents.js';
import { isoWeekdayOf, type IsoWeekday } from './shiftEvents.js';
import { SHIFT_DAY_CATEGORY, type SeatReleaseReason, type ShiftDayEvent } from './shiftDayEvents.js';

/** The shift as the write found it, with the seats it has now. */
export type ShiftSeatFacts = {
  exists: boolean;
  retired: boolean;
  weekdays?: IsoWeekday[];
  capacity: number;
  reservedCapacity: number;
};

export type ShiftDayCommand =
  | CommandEnvelope<'ClaimSeat', { sessionId: string; patientId: string; kind: SessionKind; date: string; shift: ShiftSeatFacts }>
  | CommandEnvelope<'ReleaseSeat', { sessionId: string; reason: SeatReleaseReason }>
  /** Reconciliation: a seat whose session stream never appeared, older than the grace period, is given back. */
  | CommandEnvelope<'ReleaseOrphanedSeat', { sessionId: string; sessionExists: boolean; graceSeconds: number }>;

export type Seat = { patientId: string; kind: SessionKind; claimedAt: string };
export interface ShiftDayState {
  seats: Record<string, Seat>;
}

export const initialShiftDayState: ShiftDayState = { seats: {} };

function claim(command: Extract<ShiftDayCommand, { type: 'ClaimSeat' }>, state: ShiftDayState): ShiftDayEvent[] {
  const { sessionId, patientId, kind, date, shift } = command.data;
  if (state.seats[sessionId]) return []; // the session holds its seat already
  if (!shift.exists) throw rule('shift-not-found', 'no such shift in this company');
  if (shift.retired) throw rule('shift-retired', 'the shift is retired');
  const weekday = isoWeekdayOf(date);
  if (shift.weekdays && !shift.weekdays.includes(weekday)) {
    throw rule('shift-not-running', `the shift does not run on weekday ${weekday}`, { weekday, weekdays: shift.weekdays });
  }
  const taken = Object.keys(state.seats).length;
  // Planned and extra sessions fill the nominal seats; emergencies may also take the reserved ones.
  const limit = kind === 'emergency' ? shift.capacity + shift.reservedCapacity : shift.capacity;
  if (taken >= limit) {
    throw rule('shift-full', `no ${kind === 'emergency' ? '' : 'nominal '}seat left in this shift on ${date}`, {
      taken,
      capacity: shift.capacity,
      reservedCapacity: shift.reservedCapacity,
    });
  }
  const data = { sessionId, patientId, kind, claimedAt: command.at, capacity: shift.capacity, reservedCapacity: shift.reservedCapacity };
  return [{ type: 'SeatClaimed', data }];
}

function orphaned(seat: Seat, sessionExists: boolean, graceSeconds: number, at: string): boolean {
  return !sessionExists && Date.parse(at) - Date.parse(seat.claimedAt) >= graceSeconds * 1000;
}

function decideShiftDay(command: ShiftDayCommand, state: ShiftDayState): ShiftDayEvent[] {
  switch (command.type) {
    case 'ClaimSeat':
      return claim(command, state);
    case 'ReleaseSeat':
      // Releasing a seat not held (already released, never claimed) changes nothing: retries are safe.
      return state.seats[command.data.sessionId] ? [{ type: 'SeatReleased', data: command.data }] : [];
    case 'ReleaseOrphanedSeat': {
      const { sessionId, sessionExists, graceSeconds } = command.data;
      const seat = state.seats[sessionId];
      if (!seat || !orphaned(seat, sessionExists, graceSeconds, command.at)) return [];
      return [{ type: 'SeatReleased', data: { sessionId, reason: 'orphaned-claim' } }];
    }
  }
}

export function evolveShiftDay(state: ShiftDayState, event: ShiftDayEvent): ShiftDayState {
  switch (event.type) {
    case 'SeatClaimed': {
      const { sessionId, patientId, kind, claimedAt } = event.data;
      return { seats: { ...state.seats, [sessionId]: { patientId, kind, claimedAt } } };
    }
    case 'SeatReleased': {
      const { [event.data.sessionId]: _released, ...seats } = state.seats;
      return { seats };
    }
  }
}

export const shiftDayDecider: Decider<ShiftDayCommand, ShiftDayEvent, ShiftDayState> = {
  category: SHIFT_DAY_CATEGORY,
  initialState: initialShiftDayState,
  evolve: evolveShiftDay,
  decide: decideShiftDay,
};
