// Every rule about a payer authorization: the period, the units (consumed or reserved by a running session), one unit
// per session at most. Pure.
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks, invalidFields, isRealDate } from '../shared/fieldChecks.js';
import { checkSessionReference } from '../dialisis/shared/sessionReference.js';
import {
  MAX_SESSIONS_AUTHORIZED,
  type AuthorizationCommand,
  type AuthorizationEvent,
  type PayerFacts,
  AUTHORIZATION_CATEGORY,
} from './authorizationEvents.js';
import {
  evolveAuthorization,
  holdsUnit,
  initialAuthorizationState,
  refusalOn,
  remainingOf,
  reservedOf,
  usedOf,
  type AuthorizationState,
} from './shared/authorizationState.js';

const REFUSALS: Record<string, string> = {
  'authorization-voided': 'the authorization is voided',
  'authorization-expired': 'the session date is past the end of the authorized period',
  'authorization-outside-period': 'the session date is before the authorized period',
  'authorization-exhausted': 'every authorized session is used',
};

/** The rules that span the patient's authorizations, as the orchestration found them (issue 21 item 17). */
function checkPayerFacts(payer: PayerFacts, sessionId: string): void {
  if (payer.heldElsewhere) {
    throw rule('session-already-paid', "the session already holds a unit of another of the patient's authorizations", {
      sessionId,
      authorizationId: payer.heldElsewhere,
    });
  }
  if (payer.monthCapReached) throw rule('monthly-cap-reached', "the contract's sessions per month are all used", { sessionId });
}

function decideIssue(
  command: Extract<AuthorizationCommand, { type: 'IssueAuthorization' }>,
  state: AuthorizationState,
): AuthorizationEvent[] {
  if (state.terms) throw new DomainError('already-exists', 'this authorization already exists', 409);
  const { facts, ...terms } = command.data;
  if (!facts.patientExists) throw invalidFields([{ field: 'patientId', message: 'no such patient in this company' }]);
  if (!facts.clientActive) throw rule('client-inactive', 'the client is inactive: it issues no authorization');
  // The payer authorizes only patients it covers (issue 21 item 17).
  if (!facts.patientCovered) {
    throw rule('patient-not-covered', 'the patient has no coverage by this client during the authorized period', {
      patientId: terms.patientId,
    });
  }
  const checks = new FieldChecks();
  checks.check(terms.code.trim().length > 0, 'code', 'must not be blank');
  checks.check(isRealDate(terms.validFrom), 'validFrom', 'is not a real date');
  checks.check(isRealDate(terms.validTo), 'validTo', 'is not a real date');
  checks.check(terms.validTo >= terms.validFrom, 'validTo', 'is before validFrom');
  const n = terms.sessionsAuthorized;
  checks.check(
    Number.isInteger(n) && n >= 1 && n <= MAX_SESSIONS_AUTHORIZED,
    'sessionsAuthorized',
    `must be 1..${MAX_SESSIONS_AUTHORIZED}`,
  );
  checks.throwIfAny();
  return [{ type: 'AuthorizationIssued', data: { authorizationId: command.aggregateId, ...terms, code: terms.code.trim() } }];
}

export function decideAuthorization(command: AuthorizationCommand, state: AuthorizationState): AuthorizationEvent[] {
  if (command.type === 'IssueAuthorization') return decideIssue(command, state);
  if (!state.terms) throw notFound('authorization');
  switch (command.type) {
    case 'ConsumeAuthorization': {
      const { sessionId, date, session, payer } = command.data;
      // A unit pays a real session of this patient whose treatment ended, on the session's own date.
      const checks = checkSessionReference(new FieldChecks(), 'sessionId', session ?? null, state.terms.patientId);
      checks.check(isRealDate(date), 'date', 'is not a real date');
      if (session?.exists) checks.check(date === session.date, 'date', 'is not the date of the session');
      checks.throwIfAny();
      if (session?.exists && session.ended !== true) {
        throw rule('session-not-ended', 'only a session whose treatment ended consumes a unit', { sessionId });
      }
      if (state.consumptions[sessionId] !== undefined) return []; // this session already holds its unit
      const used = usedOf(state) + 1;
      if (state.reservations?.[sessionId] !== undefined) {
        // The unit reserved at the start is the one consumed: already counted against the period and the month.
        return [{ type: 'AuthorizationConsumed', data: { sessionId, date, used, remaining: remainingOf(state) } }];
      }
      checkPayerFacts(payer, sessionId);
      const refusal = refusalOn(state, date);
      if (refusal) throw rule(refusal, REFUSALS[refusal] ?? refusal, { authorizationId: state.terms.authorizationId });
      return [{ type: 'AuthorizationConsumed', data: { sessionId, date, used, remaining: remainingOf(state) - 1 } }];
    }
    case 'ReserveAuthorization': {
      const { sessionId, date, payer } = command.data;
      if (holdsUnit(state, sessionId)) return []; // a retried start holds its unit already
      checkPayerFacts(payer, sessionId);
      const refusal = refusalOn(state, date);
      if (refusal) throw rule(refusal, REFUSALS[refusal] ?? refusal, { authorizationId: state.terms.authorizationId });
      const reserved = reservedOf(state) + 1;
      return [{ type: 'AuthorizationReserved', data: { sessionId, date, reserved, remaining: remainingOf(state) - 1 } }];
    }
    case 'ReleaseAuthorization': {
      const { sessionId } = command.data;
      // Releasing twice, or a unit never consumed nor reserved, would hand back a unit the payer never gave.
      if (!holdsUnit(state, sessionId)) {
        throw rule('authorization-not-consumed', 'this session holds no unit of this authorization', { sessionId });
      }
      const reason = command.data.reason.trim();
      new FieldChecks().check(reason.length > 0, 'reason', 'must not be blank').throwIfAny();
      const used = usedOf(state) - (state.consumptions[sessionId] !== undefined ? 1 : 0);
      return [{ type: 'AuthorizationReleased', data: { sessionId, reason, used, remaining: remainingOf(state) + 1 } }];
    }
    case 'VoidAuthorization': {
      if (state.voided) throw rule('authorization-voided', 'the authorization is already voided');
      const reason = command.data.reason.trim();
      new FieldChecks().check(reason.length > 0, 'reason', 'must not be blank').throwIfAny();
      return [{ type: 'AuthorizationVoided', data: { reason } }];
    }
  }
}

export const authorizationDecider: Decider<AuthorizationCommand, AuthorizationEvent, AuthorizationState> = {
  category: AUTHORIZATION_CATEGORY,
  initialState: initialAuthorizationState,
  evolve: evolveAuthorization,
  decide: decideAuthorization,
};
