// For the daily record (the lead's session hook): the patient's valid payer authorization on a date, and consuming one
// unit of it for a session. Candidates come from the read model (an injected loader: src/facts/clientes/); every
// decision is taken on the streams themselves.
import { handleCommand, loadAggregate, type CommandContext } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import type { FactLoaders } from '../factLoaders.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { patientDecider } from '../pacientes/patientDecider.js';
import type { PatientEvent } from '../pacientes/patientEvents.js';
import { authorizationDecider } from './authorizationDecider.js';
import { holdsUnit, refusalOn, remainingOf, type AuthorizationState } from './shared/authorizationState.js';
import type { AuthorizationTerms } from './authorizationEvents.js';
import { authorizationStream } from './authorizationWrites.js';
import { coverageClientOn, coveragesOf } from './payerCoverage.js';
import { contractInForce } from './clientWrites.js';

/** A payer lookup's dependencies: the event store and where the authorizations are found (not the whole AppServices). */
export interface PayerDeps {
  events: EventStore;
  facts: Pick<FactLoaders, 'authorizations'>;
}

/** Why no authorization pays: a stable code the daily record can flag or block with. */
export type NoAuthorizationReason =
  | 'no-coverage'
  | 'no-authorization'
  | 'authorization-expired'
  | 'authorization-exhausted'
  | 'authorization-outside-period'
  | 'authorization-voided'
  | 'monthly-cap-reached';

export type FoundAuthorization = AuthorizationTerms & { authorizationId: string; used: number; reserved: number; remaining: number };
export type AuthorizationLookup =
  | { authorization: FoundAuthorization; clientId: string; reason: null }
  | { authorization: null; clientId: string | null; reason: NoAuthorizationReason };

export type ConsumeOutcome =
  | { outcome: 'consumed' | 'already-consumed'; clientId: string; authorizationId: string; remaining: number }
  | { outcome: 'refused'; clientId: string | null; reason: NoAuthorizationReason };

const found = (s: AuthorizationState): FoundAuthorization => ({
  ...s.terms!,
  used: Object.keys(s.consumptions).length,
  reserved: Object.keys(s.reservations ?? {}).length,
  remaining: remainingOf(s),
});

/** The client to look under: the one given, else the client of the patient's coverage valid on the date. */
export async function payerOf(
  services: { events: EventStore },
  tenantId: string,
  patientId: string,
  date: string,
  clientId?: string,
): Promise<string | null> {
  if (clientId) return clientId;
  const events = await services.events.readStream(streamName(tenantId, patientDecider.category, patientId));
  return coverageClientOn(coveragesOf(events as unknown as PatientEvent[]), date);
}

/** The patient's authorizations from this client, each as its stream leaves it; the one ending soonest first. */
export async function candidates(
  services: PayerDeps,
  tenantId: string,
  patientId: string,
  clientId: string,
): Promise<AuthorizationState[]> {
  const ids = await services.facts.authorizations.idsOf(tenantId, { patientId, clientId }, 200);
  const states = await Promise.all(
    ids.map(async (id) => (await loadAggregate(services.events, authorizationDecider, authorizationStream(tenantId, id))).state),
  );
  return states.filter((s) => s.terms).sort((a, b) => a.terms!.validTo.localeCompare(b.terms!.validTo));
}

/** The most telling refusal among the candidates (a period that covers the date tells more than one that does not). */
export function bestRefusal(states: AuthorizationState[], date: string): NoAuthorizationReason {
  const codes = states.map((s) => refusalOn(s, date));
  for (const code of [
    'authorization-exhausted',
    'authorization-voided',
    'authorization-expired',
    'authorization-outside-period',
  ] as const) {
    if (codes.includes(code)) return code;
  }
  return 'no-authorization';
}

/**
 * The patient's valid authorization on `date` (from `clientId`, else from the client of the patient's coverage valid
 * that day), or null with the reason. Several valid: the one ending soonest.
 */
export async function authorizationFor(
  services: PayerDeps,
  tenantId: string,
  patientId: string,
  date: string,
  clientId?: string,
): Promise<AuthorizationLookup> {
  const payer = await payerOf(services, tenantId, patientId, date, clientId);
  if (!payer) return { authorization: null, clientId: null, reason: 'no-coverage' };
  const states = await candidates(services, tenantId, patientId, payer);
  const valid = states.find((s) => refusalOn(s, date) === null);
  if (valid) return { authorization: found(valid), clientId: payer, reason: null };
  return { authorization: null, clientId: payer, reason: bestRefusal(states, date) };
}

/**
 * The contract's sessions-per-month cap for the patient, counted over all of the patient's authorizations from it:
 * units consumed and units reserved by running sessions, other than this session's own.
 */
export async function monthlyCapReached(
  services: { events: EventStore },
  tenantId: string,
  clientId: string,
  date: string,
  states: readonly AuthorizationState[],
  sessionId: string,
): Promise<boolean> {
  const cap = (await contractInForce(services, tenantId, clientId, date))?.sessionsPerMonthCap;
  if (cap === undefined) return false;
  const month = date.slice(0, 7);
  const inMonth = (held: Record<string, string> | undefined) =>
    Object.entries(held ?? {}).filter(([id, d]) => id !== sessionId && d.startsWith(month)).length;
  const used = states.reduce((n, s) => n + inMonth(s.consumptions) + inMonth(s.reservations), 0);
  return used >= cap;
}

/**
 * Consumes one unit for a session from the patient's valid authorization on `date` (the one its start reserved, if any).
 * Idempotent per session: a session that already consumed a unit of any of the patient's authorizations from that
 * client consumes nothing more. The caller read the session and knows its treatment ended.
 */
export async function consumeAuthorization(
  services: PayerDeps,
  ctx: CommandContext,
  input: { patientId: string; clientId?: string; date: string; sessionId: string },
): Promise<ConsumeOutcome> {
  const payer = await payerOf(services, ctx.tenantId, input.patientId, input.date, input.clientId);
  if (!payer) return { outcome: 'refused', clientId: null, reason: 'no-coverage' };
  const states = await candidates(services, ctx.tenantId, input.patientId, payer);
  const holder = states.find((s) => holdsUnit(s, input.sessionId));
  if (holder && holder.consumptions[input.sessionId] !== undefined)
    return { outcome: 'already-consumed', clientId: payer, authorizationId: holder.terms!.authorizationId, remaining: remainingOf(holder) };
  if (!holder && (await monthlyCapReached(services, ctx.tenantId, payer, input.date, states, input.sessionId))) {
    return { outcome: 'refused', clientId: payer, reason: 'monthly-cap-reached' };
  }
  // A unit reserved at the start is the one the end consumes (issue 21 item 17).
  for (const s of holder ? [holder] : states.filter((c) => refusalOn(c, input.date) === null)) {
    const authorizationId = s.terms!.authorizationId;
    try {
      const command = {
        type: 'ConsumeAuthorization' as const,
        aggregateId: authorizationId,
        // The caller read the session itself (the process manager on its SessionEnded): whose it is and its date.
        data: {
          sessionId: input.sessionId,
          date: input.date,
          session: { exists: true, patientId: input.patientId, date: input.date, ended: true },
          payer: { heldElsewhere: null, monthCapReached: false }, // judged above across the patient's authorizations
        },
      };
      const result = await handleCommand(services.events, authorizationDecider, command, ctx);
      return {
        outcome: result.events.length > 0 ? 'consumed' : 'already-consumed',
        clientId: payer,
        authorizationId,
        remaining: remainingOf(result.state),
      };
    } catch (err) {
      // Another session took the last unit meanwhile: the next candidate may still pay.
      if (!(err instanceof DomainError) || err.status !== 409) throw err;
    }
  }
  return { outcome: 'refused', clientId: payer, reason: bestRefusal(states, input.date) };
}
