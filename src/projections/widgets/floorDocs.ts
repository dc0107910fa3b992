// The floor widgets' documents and their pure rules: which board column a session status counts in, which signature it
// awaits, and the counters a membership change moves (one decrement, one increment: never a recount).
import type { ProjectedDoc } from '../runner/projection.js';
import type { SessionStatus } from '../../commands/dialisis/session/sessionEvents.js';

/** The board's columns (issue 25): checked-in is "arrived", in-progress and paused "running", interrupted "ended". */
export const BOARD_COLUMNS = ['scheduled', 'arrived', 'running', 'ended', 'signed', 'validated', 'noShow', 'cancelled'] as const;
export type BoardColumn = (typeof BOARD_COLUMNS)[number];
export type BoardCounts = Record<BoardColumn, number>;

export const COLUMN_OF: Readonly<Record<SessionStatus, BoardColumn>> = {
  scheduled: 'scheduled',
  'checked-in': 'arrived',
  'in-progress': 'running',
  paused: 'running',
  ended: 'ended',
  interrupted: 'ended',
  signed: 'signed',
  validated: 'validated',
  'no-show': 'noShow',
  cancelled: 'cancelled',
};

/** What a session in this status waits for: the nurse's signature (ended or interrupted), the physician's validation (signed). */
export type Awaiting = 'signature' | 'validation';
export const awaitingOf = (status: SessionStatus): Awaiting | null =>
  status === 'ended' || status === 'interrupted' ? 'signature' : status === 'signed' ? 'validation' : null;

/** The status a session event leaves the session in; null when it changes none. */
export function statusAfter(type: string, data: Record<string, unknown>): SessionStatus | null {
  switch (type) {
    case 'SessionScheduled':
      return 'scheduled';
    case 'PatientCheckedIn':
      return 'checked-in';
    case 'SessionStarted':
    case 'SessionResumed':
      return 'in-progress';
    case 'SessionPaused':
      return 'paused';
    case 'SessionEnded':
      return 'ended';
    case 'SessionInterrupted':
      return 'interrupted';
    case 'SessionCancelled':
      return 'cancelled';
    case 'SessionMarkedNoShow':
      return 'no-show';
    case 'SessionSignedByNurse':
      return 'signed';
    case 'SessionValidatedByPhysician':
      return 'validated';
    case 'SessionAmended':
      return data.returnsToValidation === true ? 'signed' : null;
    default:
      return null;
  }
}

/** The session events that can change a status (the projection reads only these). */
export const STATUS_EVENT_TYPES = [
  'SessionScheduled',
  'PatientCheckedIn',
  'SessionStarted',
  'SessionResumed',
  'SessionPaused',
  'SessionEnded',
  'SessionInterrupted',
  'SessionCancelled',
  'SessionMarkedNoShow',
  'SessionSignedByNurse',
  'SessionValidatedByPhysician',
  'SessionAmended',
] as const;

/** A session's membership: the board bucket and the awaiting list it counts in; indexed on (awaiting, date). */
export interface SessionMemberDoc extends ProjectedDoc {
  patientId: string;
  date: string;
  locationId: string;
  shiftId: string;
  status: SessionStatus;
  awaiting: Awaiting | null;
}

/** A patient's membership: the status and isolations it counts in. */
export interface PatientMemberDoc extends ProjectedDoc {
  status: string;
  isolation: readonly string[];
}

/** One (date, location, shift) of the board. */
export interface BoardDoc extends ProjectedDoc {
  date: string;
  locationId: string;
  shiftId: string;
  counts: BoardCounts;
}

/** The company's counters: 'census' (total, byStatus, byIsolation of active patients) and 'awaiting' (signature, validation). */
export interface CountersDoc extends ProjectedDoc {
  total?: number;
  byStatus?: Record<string, number>;
  byIsolation?: Record<string, number>;
  signature?: number;
  validation?: number;
}

export const boardId = (date: string, locationId: string, shiftId: string): string => `${date}|${locationId}|${shiftId}`;

export const emptyCounts = (): BoardCounts => ({
  scheduled: 0,
  arrived: 0,
  running: 0,
  ended: 0,
  signed: 0,
  validated: 0,
  noShow: 0,
  cancelled: 0,
});

/** A copy of `counts` with one moved out of `from` (when counted) and into `to`. */
export function moved<K extends string>(counts: Readonly<Partial<Record<K, number>>>, from: K | null, to: K | null): Record<K, number> {
  const next = { ...counts } as Record<K, number>;
  if (from !== null) next[from] = (next[from] ?? 0) - 1;
  if (to !== null) next[to] = (next[to] ?? 0) + 1;
  return next;
}
