// What the session decider remembers of its history: what its rules need. evolve never throws.
import type {
  Equipment,
  PostDialysis,
  PreDialysis,
  PrescriptionSnapshot,
  SafetyChecks,
  ScheduledData,
  SessionEvent,
  SessionStatus,
  Signer,
} from './sessionEvents.js';
import { widened, type EntrySpan } from './treatmentTimes.js';

export interface SessionState {
  exists: boolean;
  status: SessionStatus;
  scheduled: ScheduledData | null;
  checkedInAt: string | null;
  pre: PreDialysis | null;
  safetyChecks: SafetyChecks | null;
  startedAt: string | null;
  equipment: Equipment | null;
  prescription: PrescriptionSnapshot | null;
  /** Start of the pause in course, if any. */
  pausedAt: string | null;
  /** Minutes paused so far (closed pauses): not treatment time. */
  pausedMinutes: number;
  readingIds: string[];
  complicationIds: string[];
  /** The first and last instants of the readings, complications and pauses: stated times must hold them. */
  entrySpan: EntrySpan;
  medicationIds: string[];
  /** How many pauses, amendments and addenda so far: the clinical maximums count them. */
  pauseCount: number;
  amendmentCount: number;
  addendumCount: number;
  endedAt: string | null;
  effectiveMinutes: number | null;
  interrupted: boolean;
  post: PostDialysis | null;
  signedAt: string | null;
  signedBy: Signer | null;
  validatedBy: Signer | null;
  /** Treatment minutes given on earlier machines (changed mid-session): the current one ran the rest. */
  machineMinutesBefore: number;
  /** Charted after the fact (backEntry.ts): no live claim of its equipment; its end records the use as history. */
  backEntry: boolean;
}

export const initialSessionState: SessionState = {
  exists: false,
  status: 'scheduled',
  scheduled: null,
  checkedInAt: null,
  pre: null,
  safetyChecks: null,
  startedAt: null,
  equipment: null,
  prescription: null,
  pausedAt: null,
  pausedMinutes: 0,
  readingIds: [],
  complicationIds: [],
  entrySpan: null,
  medicationIds: [],
  pauseCount: 0,
  amendmentCount: 0,
  addendumCount: 0,
  endedAt: null,
  effectiveMinutes: null,
  interrupted: false,
  post: null,
  signedAt: null,
  signedBy: null,
  validatedBy: null,
  machineMinutesBefore: 0,
  backEntry: false,
};

const MINUTE_MS = 60_000;
export const minutesBetween = (from: string, to: string): number => Math.max(0, (Date.parse(to) - Date.parse(from)) / MINUTE_MS);

/** Treatment minutes from the start to `until`, without pauses (an open pause counts up to `until`). */
export function treatmentMinutes(state: SessionState, until: string): number {
  if (!state.startedAt) return 0;
  const open = state.pausedAt ? minutesBetween(state.pausedAt, until) : 0;
  return Math.round(Math.max(0, minutesBetween(state.startedAt, until) - state.pausedMinutes - open));
}

function merged<T>(current: T | null, changes: Record<string, unknown>): T {
  return { ...(current ?? {}), ...changes } as T;
}

export function evolveSession(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionScheduled':
      return { ...state, exists: true, status: 'scheduled', scheduled: event.data };
    case 'PatientCheckedIn':
      return { ...state, status: 'checked-in', checkedInAt: event.data.checkedInAt };
    case 'PreDialysisRecorded':
      return { ...state, pre: event.data };
    case 'SafetyChecksRecorded':
      return { ...state, safetyChecks: event.data };
    case 'SessionStarted': {
      const { startedAt, prescription, warnings: _w, vascularAccess: _a, dryWeight: _d, backEntry, ...equipment } = event.data;
      return { ...state, status: 'in-progress', startedAt, prescription, equipment, backEntry: backEntry === true };
    }
    case 'SessionPaused':
      return {
        ...state,
        status: 'paused',
        pausedAt: event.data.pausedAt,
        pauseCount: state.pauseCount + 1,
        entrySpan: widened(state.entrySpan, event.data.pausedAt),
      };
    case 'SessionResumed':
      return {
        ...state,
        status: 'in-progress',
        pausedAt: null,
        entrySpan: widened(state.entrySpan, event.data.resumedAt),
        pausedMinutes: state.pausedMinutes + (state.pausedAt ? minutesBetween(state.pausedAt, event.data.resumedAt) : 0),
      };
    case 'ReadingRecorded':
      return { ...state, readingIds: [...state.readingIds, event.data.readingId], entrySpan: widened(state.entrySpan, event.data.at) };
    case 'ComplicationRecorded':
      return {
        ...state,
        complicationIds: [...state.complicationIds, event.data.complicationId],
        entrySpan: widened(state.entrySpan, event.data.at),
      };
    case 'MedicationAdministered':
      return { ...state, medicationIds: [...state.medicationIds, event.data.medicationId] };
    case 'SessionEnded':
      return { ...state, status: 'ended', pausedAt: null, endedAt: event.data.endedAt, effectiveMinutes: event.data.effectiveMinutes };
    case 'SessionInterrupted':
      return {
        ...state,
        status: 'interrupted',
        interrupted: true,
        pausedAt: null,
        endedAt: event.data.interruptedAt,
        effectiveMinutes: event.data.effectiveMinutes,
      };
    case 'PostDialysisRecorded':
      return { ...state, post: event.data };
    case 'SessionCancelled':
      return { ...state, status: 'cancelled' };
    case 'SessionMarkedNoShow':
      return { ...state, status: 'no-show' };
    case 'SessionSignedByNurse':
      return {
        ...state,
        status: 'signed',
        signedAt: event.data.signedAt,
        signedBy: { userId: event.data.userId, staffId: event.data.staffId },
      };
    case 'SessionValidatedByPhysician':
      return { ...state, status: 'validated', validatedBy: { userId: event.data.userId, staffId: event.data.staffId } };
    case 'SessionAmended': {
      const { block, changes, returnsToValidation } = event.data;
      const counted = {
        ...state,
        amendmentCount: state.amendmentCount + 1,
        ...(returnsToValidation ? { status: 'signed' as const, validatedBy: null } : {}),
      };
      if (block === 'times') {
        const times = changes as Partial<Record<'startedAt' | 'endedAt', string>>;
        const effectiveMinutes = event.data.effectiveMinutes ?? state.effectiveMinutes;
        return { ...counted, startedAt: times.startedAt ?? state.startedAt, endedAt: times.endedAt ?? state.endedAt, effectiveMinutes };
      }
      if (block === 'pre') return { ...counted, pre: merged<PreDialysis>(state.pre, changes) };
      if (block === 'post') return { ...counted, post: merged<PostDialysis>(state.post, changes) };
      return { ...counted, safetyChecks: merged<SafetyChecks>(state.safetyChecks, changes) };
    }
    case 'SessionAddendumRecorded':
      return { ...state, addendumCount: state.addendumCount + 1 };
    case 'MachineChanged': {
      const { machineId, stationId, minutesOnPrevious } = event.data;
      const equipment = state.equipment ? { ...state.equipment, machineId, ...(stationId ? { stationId } : {}) } : state.equipment;
      return { ...state, equipment, machineMinutesBefore: state.machineMinutesBefore + minutesOnPrevious };
    }
  }
}
