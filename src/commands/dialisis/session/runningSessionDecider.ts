// One patient, one running session (issue 21 item 9): a reservation in the patient's own guard stream,
// `patientRunningSession-<patientId>` (architecture.md). A start claims it before its equipment and before
// SessionStarted; the end, the interruption or a cancellation releases it. A claim whose holder is no longer running
// (its release never came) or never started within the grace (a crash between claim and start) is taken over. Pure.
import { rule, type CommandEnvelope, type DecidedEvent, type Decider } from '../../decider.js';
import type { SessionStatus } from './sessionEvents.js';

export const PATIENT_SESSION_IN_PROGRESS = 'patient-session-in-progress';

export type RunningSessionEvent =
  | DecidedEvent<'RunningSessionClaimed', { sessionId: string; claimedAt: string }>
  /** A session charted after the fact, before the holder began: it runs beside it, one at a time (issue 21 item 1). */
  | DecidedEvent<'ChartedSessionClaimed', { sessionId: string; claimedAt: string }>
  | DecidedEvent<'RunningSessionReleased', { sessionId: string; reason: string }>;

/** What the writes found about the session holding the claim: its status now, and how long a start may take. */
export interface HolderFacts {
  sessionId: string;
  status: SessionStatus | null;
  graceSeconds: number;
  /** When the holder's treatment began; absent or null before its start. */
  startedAt?: string | null;
}

export type RunningSessionCommand =
  | CommandEnvelope<'ClaimRunningSession', { sessionId: string; holder?: HolderFacts; charting?: HolderFacts; startedAt?: string }>
  | CommandEnvelope<'ReleaseRunningSession', { sessionId: string; reason: string }>;

export interface RunningSessionState {
  holder: Claim | null;
  /** The session charted after the fact now running beside the holder, if any. */
  charting?: Claim | null;
}

type Claim = { sessionId: string; claimedAt: string };

const RUNNING: readonly (SessionStatus | null)[] = ['in-progress', 'paused'];
const NOT_YET_STARTED: readonly (SessionStatus | null)[] = ['scheduled', 'checked-in'];

/**
 * A session charted after the fact (issue 21 item 1), stated to start before the running holder began, does not overlap it
 * (the end writes hold its end before that instant): it is let in, the holder keeping the claim.
 */
export const chartedBefore = (stated: string | undefined, holder: HolderFacts | undefined): boolean =>
  stated !== undefined && !!holder?.startedAt && RUNNING.includes(holder.status) && Date.parse(stated) < Date.parse(holder.startedAt);

/** The holder keeps the claim while it runs, or while its start may still be finishing; unknown facts keep it too. */
function stillHeld(holder: Claim, facts: HolderFacts | undefined, at: string): boolean {
  if (!facts || facts.sessionId !== holder.sessionId) return true;
  if (RUNNING.includes(facts.status)) return true;
  if (NOT_YET_STARTED.includes(facts.status) || facts.status === null) {
    return Date.parse(at) - Date.parse(holder.claimedAt) < facts.graceSeconds * 1000;
  }
  return false; // ended, interrupted, signed, cancelled...: its release never came
}

export const runningSessionDecider: Decider<RunningSessionCommand, RunningSessionEvent, RunningSessionState> = {
  category: 'patientRunningSession',
  initialState: { holder: null },
  evolve(state, event) {
    switch (event.type) {
      case 'RunningSessionClaimed':
        return { ...state, holder: { sessionId: event.data.sessionId, claimedAt: event.data.claimedAt } };
      case 'ChartedSessionClaimed':
        return { ...state, charting: { sessionId: event.data.sessionId, claimedAt: event.data.claimedAt } };
      case 'RunningSessionReleased':
        if (state.holder?.sessionId === event.data.sessionId) return { ...state, holder: null };
        return state.charting?.sessionId === event.data.sessionId ? { ...state, charting: null } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimRunningSession': {
        const { sessionId, holder, charting } = command.data;
        if (state.holder?.sessionId === sessionId || state.charting?.sessionId === sessionId) return []; // a retry of the same start
        const claimed: RunningSessionEvent = { type: 'RunningSessionClaimed', data: { sessionId, claimedAt: command.at } };
        if (state.holder === null) return [claimed];
        if (holder?.sessionId === state.holder.sessionId && chartedBefore(command.data.startedAt, holder)) {
          return chartedBeside(state, sessionId, charting, command.at);
        }
        if (stillHeld(state.holder, holder, command.at)) {
          throw rule(PATIENT_SESSION_IN_PROGRESS, 'the patient already has a session in progress', {
            sessionId: state.holder.sessionId,
          });
        }
        return [{ type: 'RunningSessionReleased', data: { sessionId: state.holder.sessionId, reason: 'stale-claim' } }, claimed];
      }
      case 'ReleaseRunningSession': {
        const held = state.holder?.sessionId === command.data.sessionId || state.charting?.sessionId === command.data.sessionId;
        return held ? [{ type: 'RunningSessionReleased', data: command.data }] : [];
      }
    }
  },
};

/** A second session charted beside the running one waits for the first charted one (taken over once it no longer runs). */
function chartedBeside(state: RunningSessionState, sessionId: string, facts: HolderFacts | undefined, at: string): RunningSessionEvent[] {
  const claimed: RunningSessionEvent = { type: 'ChartedSessionClaimed', data: { sessionId, claimedAt: at } };
  const current = state.charting;
  if (!current) return [claimed];
  if (stillHeld(current, facts, at)) {
    throw rule(PATIENT_SESSION_IN_PROGRESS, 'the patient already has a session in progress', { sessionId: current.sessionId });
  }
  return [{ type: 'RunningSessionReleased', data: { sessionId: current.sessionId, reason: 'stale-claim' } }, claimed];
}
