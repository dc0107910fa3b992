// Reads the session a body names, in the caller's company only: its first event (SessionScheduled) says whose it is
// and which day, so a long session (readings, amendments) is never replayed for a reference check.
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import { sessionDecider } from './sessionDecider.js';
import type { ScheduledData } from './sessionEvents.js';
import { checkSessionReference, type SessionFact } from '../shared/sessionReference.js';
import { FieldChecks } from '../../shared/fieldChecks.js';
import { loadAggregate, type CommandContext } from '../../handleCommand.js';
import { consequenceDecider } from '../consequences/consequenceDecider.js';
import { checkUseByHand, type UsedEquipment } from './useByHand.js';

export async function sessionFact(events: EventStore, tenantId: string, sessionId: string): Promise<SessionFact> {
  const [first] = await events.readStream(streamName(tenantId, sessionDecider.category, sessionId), { maxCount: 1 });
  if (first?.type !== 'SessionScheduled') return { exists: false };
  const { patientId, date } = first.data as ScheduledData;
  return { exists: true, patientId, date };
}

/** A record that names a session of a patient (a use of equipment recorded by hand): 422 naming `field` unless it is one. */
export async function mustBeSessionOf(
  events: EventStore,
  tenantId: string,
  reference: { sessionId: string; patientId: string },
  field = 'sessionId',
): Promise<void> {
  const fact = await sessionFact(events, tenantId, reference.sessionId);
  checkSessionReference(new FieldChecks(), field, fact, reference.patientId).throwIfAny();
}

const CONSEQUENCE_KIND: Record<UsedEquipment, string> = {
  machine: 'machine-use',
  dialyzer: 'dialyzer-use',
  arterial: 'arterial-line-use',
  venous: 'venous-line-use',
};

/**
 * A use by hand of a record for the session a body names (useByHand.ts): whether it has ended naming that record, with
 * its effective minutes; answers 422/409 otherwise, and whether the end's process manager already applied that use.
 */
export async function useByHandOf(
  events: EventStore,
  tenantId: string,
  reference: { sessionId: string; patientId?: string },
  kind: UsedEquipment,
  itemId: string,
): Promise<{ effectiveMinutes: number; applied: boolean }> {
  const { state } = await loadAggregate(events, sessionDecider, streamName(tenantId, sessionDecider.category, reference.sessionId));
  const fact: SessionFact = state.scheduled
    ? { exists: true, patientId: state.scheduled.patientId, date: state.scheduled.date }
    : { exists: false };
  // The end's process manager already applied this use: recording it again would count it twice.
  const consequences = await events.readStream(streamName(tenantId, consequenceDecider.category, reference.sessionId));
  const applied = consequences.some((e) => {
    const data = e.data as { kind?: string; itemId?: string };
    return e.type === 'ConsequenceApplied' && data.kind === CONSEQUENCE_KIND[kind] && data.itemId === itemId;
  });
  const ended = state.endedAt !== null ? state.effectiveMinutes : null;
  const facts = { reference: fact, equipment: state.equipment, effectiveMinutes: ended };
  // Without a patient in the body (the end of a machine's use) the session's own patient is the one.
  const patientId = reference.patientId ?? (fact.exists ? fact.patientId : '');
  return { effectiveMinutes: checkUseByHand(facts, patientId, kind, itemId), applied };
}

/** Commands of a use by hand are keyed by the session: the same use recorded twice by hand lands once. */
export const byHandContext = (ctx: CommandContext, kind: UsedEquipment, sessionId: string): CommandContext => ({
  ...ctx,
  idempotencyKey: `use-by-hand\u0000${kind}\u0000${sessionId}`,
});
