// A payer's authorization of sessions for one patient (stream `<tenant>.payerAuthorization-<id>`): issued with a code
// unique per client, consumed one unit per session (idempotent per session), reserved at a session's start (issue 21),
// released, voided.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import type { SessionFact } from '../dialisis/shared/sessionReference.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the payer authorization streams: written once, here (the decider, the writes and the read side take it). */
export const AUTHORIZATION_CATEGORY = 'payerAuthorization';
export const authorizationStream = (tenantId: string, authorizationId: string): string =>
  streamName(tenantId, AUTHORIZATION_CATEGORY, authorizationId);

export type AuthorizationTerms = {
  clientId: string;
  patientId: string;
  code: string;
  validFrom: string;
  validTo: string;
  sessionsAuthorized: number;
};

/** Statuses as read on a day: expired and exhausted are derived, never recorded. */
export const AUTHORIZATION_STATUSES = ['active', 'exhausted', 'expired', 'voided'] as const;
export type AuthorizationStatus = (typeof AUTHORIZATION_STATUSES)[number];

/** An authorization covers at most this many sessions (a year of thrice-weekly sessions, with room). */
export const MAX_SESSIONS_AUTHORIZED = 400;

/** What the orchestration found about the patient and the client (absent: not of this company). */
export type IssueFacts = { patientExists: boolean; clientActive: boolean; patientCovered: boolean };

/** The session a unit pays, as the handler found it: whose, which day, and whether its treatment ended (issue 21). */
export type PaidSessionFact = SessionFact & { ended?: boolean };

/** What spans the patient's authorizations, read by the orchestration: who else holds the session, the month's cap. */
export type PayerFacts = { heldElsewhere: string | null; monthCapReached: boolean };

export type AuthorizationCommand =
  | CommandEnvelope<'IssueAuthorization', AuthorizationTerms & { facts: IssueFacts }>
  // session: the named session as the handler found it in the company; none looked up: the consumption is refused.
  | CommandEnvelope<'ConsumeAuthorization', { sessionId: string; date: string; session?: PaidSessionFact; payer: PayerFacts }>
  // At the start of a session under a contract that blocks without authorization: the unit is held until the end.
  | CommandEnvelope<'ReserveAuthorization', { sessionId: string; date: string; payer: PayerFacts }>
  | CommandEnvelope<'ReleaseAuthorization', { sessionId: string; reason: string }>
  | CommandEnvelope<'VoidAuthorization', { reason: string }>;

export type AuthorizationEvent =
  | DecidedEvent<'AuthorizationIssued', AuthorizationTerms & { authorizationId: string }>
  | DecidedEvent<'AuthorizationConsumed', { sessionId: string; date: string; used: number; remaining: number }>
  | DecidedEvent<'AuthorizationReserved', { sessionId: string; date: string; reserved: number; remaining: number }>
  | DecidedEvent<'AuthorizationReleased', { sessionId: string; reason: string; used: number; remaining: number }>
  | DecidedEvent<'AuthorizationVoided', { reason: string }>;

export const AUTHORIZATION_EVENT_TYPES: readonly AuthorizationEvent['type'][] = [
  'AuthorizationIssued',
  'AuthorizationConsumed',
  'AuthorizationReserved',
  'AuthorizationReleased',
  'AuthorizationVoided',
];

/** Codes compare trimmed and ignoring case. */
export const authorizationCodeKey = (code: string): string => code.normalize('NFKC').trim().toUpperCase();
