// One patient, one running session (issue 21 item 9): a reservation in the patient's own guard stream,
// `patientRunningSession-<patientId>` (architecture.md). A start claims it before its equipment and before
// SessionStarted; the end, the interruption or a cancellation releases it. A claim whose holder is no longer running
// (its release never came) or never started within the grace (a crash between claim and start) is taken over. Pure.
import { rule, type CommandEnvelope, type DecidedEvent, type Decider } from '../../decider.js';
import type { SessionStatus } from './sessionEvents.js';

export const PATIENT_SESSION_IN_PROGRESS = 'patient-session-in-progress';

export type RunningSessionEvent =
  | DecidedEvent<'RunningSessionClaimed', { sessionId: string; claimedAt: string }>
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
  | CommandEnvelope<'ClaimRunningSession', { sessionId: string; holder?: HolderFacts; startedAt?: string }>
  | CommandEnvelope<'ReleaseRunningSession', { sessionId: string; reason: string }>;

export interface RunningSessionState {
  holder: { sessionId: string; claimedAt: string } | null;
}

const RUNNING: readonly (SessionStatus | null)[] = ['in-progress', 'paused'];
const NOT_YET_STARTED: readonly (SessionStatus | null)[] = ['scheduled', 'checked-in'];

/**
 * A session charted after the fact (issue 21 item 1), stated to start before the running holder began, does not overlap it
 * (the end writes hold its end before that instant): it is let in, the holder keeping the claim.
 */
export const chartedBefore = (stated: string | undefined, holder: HolderFacts | undefined): boolean =>
  stated !== undefined && !!holder?.startedAt && RUNNING.includes(holder.status) && Date.parse(stated) < Date.parse(holder.startedAt);

/** The holder keeps the claim while it runs, or while its start may still be finishing; unknown facts keep it too. */
function stillHeld(state: RunningSessionState, facts: HolderFacts | undefined, at: string): boolean {
  const holder = state.holder!;
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
        return { holder: { sessionId: event.data.sessionId, claimedAt: event.data.claimedAt } };
      case 'RunningSessionReleased':
        return state.holder?.sessionId === event.data.sessionId ? { holder: null } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimRunningSession': {
        const { sessionId, holder } = command.data;
        if (state.holder?.sessionId === sessionId) return []; // a retry of the same start
        const claimed: RunningSessionEvent = { type: 'RunningSessionClaimed', data: { sessionId, claimedAt: command.at } };
        if (state.holder === null) return [claimed];
        if (holder?.sessionId === state.holder.sessionId && chartedBefore(command.data.startedAt, holder)) return [];
        if (stillHeld(state, holder, command.at)) {
          throw rule(PATIENT_SESSION_IN_PROGRESS, 'the patient already has a session in progress', {
            sessionId: state.holder.sessionId,
          });
        }
        return [{ type: 'RunningSessionReleased', data: { sessionId: state.holder.sessionId, reason: 'stale-claim' } }, claimed];
      }
      case 'ReleaseRunningSession':
        return state.holder?.sessionId === command.data.sessionId ? [{ type: 'RunningSessionReleased', data: command.data }] : [];
    }
  },
};
