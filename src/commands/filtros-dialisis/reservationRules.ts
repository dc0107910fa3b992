// A dialyzer claimed at a session's start (reservation) and given back when the session never started. The claim
// re-checks every pre-use rule at that moment, so a session never starts on a dialyzer that may not be used.
import { notFound, rule } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import type { DialyzerCommand, DialyzerEvent } from './dialyzerEvents.js';
import type { DialyzerState } from './dialyzerState.js';
import { readinessReasons } from './shared/readiness.js';

type Command<T extends DialyzerCommand['type']> = Extract<DialyzerCommand, { type: T }>;

export function reserve(command: Command<'ReserveDialyzerForSession'>, state: DialyzerState): DialyzerEvent[] {
  if (!state.exists) throw notFound('dialyzer');
  const { sessionId, patientId, patient, policy } = command.data;
  // The holder's retry, or a session whose use is already counted: nothing more to claim.
  if (state.reservation?.sessionId === sessionId || state.lastSessionId === sessionId) return [];
  new FieldChecks().check(patient.exists, 'patientId', 'no such patient in this company').throwIfAny();
  const reasons = readinessReasons(state, patientId, command.at, policy, patient.hbsagPositive);
  if (reasons.length > 0) {
    throw rule(reasons[0]!, `the dialyzer may not be used now: ${reasons.join(', ')}`, { reasons, policyRevision: policy.revision });
  }
  const data = { sessionId, patientId, reservedAt: command.at, statusBefore: state.status, policyRevision: policy.revision };
  return [{ type: 'DialyzerReservedForSession', data }];
}

/** Only the holding session gives its claim back; for any other session it decides nothing (idempotent). */
export function release(command: Command<'ReleaseDialyzerReservation'>, state: DialyzerState): DialyzerEvent[] {
  if (!state.exists) throw notFound('dialyzer');
  const { sessionId, reason } = command.data;
  if (!state.reservation || state.reservation.sessionId !== sessionId) return [];
  new FieldChecks().check(reason.trim().length > 0, 'reason', 'must not be blank').throwIfAny();
  const data = { sessionId, reason: reason.trim(), releasedAt: command.at, status: state.reservation.statusBefore };
  return [{ type: 'DialyzerReservationReleased', data }];
}
