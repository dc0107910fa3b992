// A completed session consumes one unit of the patient's payer authorization (issue 11 item 6): on SessionEnded, and on
// SessionInterrupted after some treatment (payerBilling.ts, the rule the monthly report bills by; issue 21 item 18); an
// interruption before any treatment, or a cancellation, gives back the unit its start reserved. Idempotent per
// session, so a replay consumes nothing more. A patient without coverage is self-paying: nothing to consume. A missing or spent authorization under a
// contract that requires one is recorded as a refused consequence: an alert, never silence.
import { loadAggregate } from '../commands/handleCommand.js';
import { sessionDecider } from '../commands/dialisis/session/sessionDecider.js';
import { consumeAuthorization } from '../commands/clientes/payerLookupWrites.js';
import { contractInForce } from '../commands/clientes/clientWrites.js';
import { paidByPayer } from '../commands/clientes/shared/payerBilling.js';
import { releaseReservedUnits } from '../commands/clientes/payerUnitWrites.js';
import type { AppServices } from '../services.js';
import { aggregateIdOfStream, categoryOfStream, streamName, tenantOfStream, type RecordedEvent } from '../stores/eventStore.js';
import { consequenceContext, recordOutcome } from './consequenceRecording.js';
import type { ProcessManager } from './processRunner.js';

async function react(event: RecordedEvent, services: AppServices): Promise<void> {
  if (categoryOfStream(event.streamName) !== sessionDecider.category) return;
  const tenantId = tenantOfStream(event.streamName);
  const sessionId = aggregateIdOfStream(event.streamName);
  const { state } = await loadAggregate(services.events, sessionDecider, streamName(tenantId, sessionDecider.category, sessionId));
  if (!state.scheduled) return;
  const { patientId, date } = state.scheduled;
  const ctx = consequenceContext(event, 'payer-authorization');
  const minutes = (event.data as { effectiveMinutes?: number | null }).effectiveMinutes ?? null;
  // A cancelled session, or one interrupted before any treatment, is never paid: a unit it holds goes back.
  if (event.type === 'SessionCancelled' || (event.type === 'SessionInterrupted' && !paidByPayer('interrupted', minutes))) {
    const reason = event.type === 'SessionCancelled' ? 'session-cancelled' : 'session-interrupted-before-treatment';
    await releaseReservedUnits(services, ctx, { patientId, sessionId, reason });
    return;
  }
  const outcome = await consumeAuthorization(services, ctx, { patientId, date, sessionId });
  if (outcome.outcome !== 'refused') {
    await recordOutcome(services, event, sessionId, 'payer-authorization', outcome.authorizationId, null);
    return;
  }
  if (outcome.clientId === null) return; // no coverage that day: self-pay
  const contract = await contractInForce(services, tenantId, outcome.clientId, date);
  if (contract && !contract.authorizationRequired) return; // the contract pays without one
  const message = `no payer authorization consumed for the session: ${outcome.reason}`;
  await recordOutcome(services, event, sessionId, 'payer-authorization', outcome.clientId, { code: outcome.reason, message });
}

export const sessionPayer: ProcessManager<AppServices> = {
  name: 'session-payer',
  eventTypes: ['SessionEnded', 'SessionInterrupted', 'SessionCancelled'],
  react,
};
