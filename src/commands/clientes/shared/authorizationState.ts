// A payer authorization's state as its events leave it, and the judgements on it both wings make (units used,
// reserved and remaining, the status on a day, why it cannot pay a session): the decider and the read model agree.
import type { AuthorizationEvent, AuthorizationStatus, AuthorizationTerms } from '../authorizationEvents.js';

export interface AuthorizationState {
  terms: (AuthorizationTerms & { authorizationId: string }) | null;
  /** Session id -> the date it was consumed for. */
  consumptions: Record<string, string>;
  /** Session id -> the date of a session started and not yet ended: its unit is held (a reservation). */
  reservations: Record<string, string>;
  voided: { reason: string } | null;
}

export const initialAuthorizationState: AuthorizationState = { terms: null, consumptions: {}, reservations: {}, voided: null };

export const usedOf = (s: AuthorizationState): number => Object.keys(s.consumptions).length;
export const reservedOf = (s: AuthorizationState): number => Object.keys(s.reservations ?? {}).length;
/** Units neither consumed nor held by a running session. */
export const remainingOf = (s: AuthorizationState): number => Math.max(0, (s.terms?.sessionsAuthorized ?? 0) - usedOf(s) - reservedOf(s));
/** Does this session hold a unit here, consumed or reserved? */
export const holdsUnit = (s: AuthorizationState, sessionId: string): boolean =>
  s.consumptions[sessionId] !== undefined || s.reservations?.[sessionId] !== undefined;

/** The status on a day (the company's today): voided, then exhausted, then expired past the period's end. */
export function authorizationStatusOn(s: AuthorizationState, today: string): AuthorizationStatus {
  if (s.voided) return 'voided';
  if (remainingOf(s) === 0) return 'exhausted';
  if (s.terms && today > s.terms.validTo) return 'expired';
  return 'active';
}

/** Why this authorization cannot pay a session on `date` (a problem code), or null when it can. */
export function refusalOn(s: AuthorizationState, date: string): string | null {
  if (!s.terms) return 'not-found';
  if (s.voided) return 'authorization-voided';
  if (date > s.terms.validTo) return 'authorization-expired';
  if (date < s.terms.validFrom) return 'authorization-outside-period';
  if (remainingOf(s) === 0) return 'authorization-exhausted';
  return null;
}

export function evolveAuthorization(state: AuthorizationState, event: AuthorizationEvent): AuthorizationState {
  switch (event.type) {
    case 'AuthorizationIssued':
      return { ...initialAuthorizationState, terms: { ...event.data } };
    case 'AuthorizationConsumed': {
      // A reservation becomes the consumption: the held unit is the one used.
      const { [event.data.sessionId]: _held, ...reservations } = state.reservations ?? {};
      return { ...state, reservations, consumptions: { ...state.consumptions, [event.data.sessionId]: event.data.date } };
    }
    case 'AuthorizationReserved':
      return { ...state, reservations: { ...state.reservations, [event.data.sessionId]: event.data.date } };
    case 'AuthorizationReleased': {
      const { [event.data.sessionId]: _released, ...consumptions } = state.consumptions;
      const { [event.data.sessionId]: _held, ...reservations } = state.reservations ?? {};
      return { ...state, consumptions, reservations };
    }
    case 'AuthorizationVoided':
      return { ...state, voided: { reason: event.data.reason } };
  }
}
