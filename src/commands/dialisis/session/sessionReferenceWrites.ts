// Reads the session a body names, in the caller's company only: its first event (SessionScheduled) says whose it is
// and which day, so a long session (readings, amendments) is never replayed for a reference check.
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import { sessionDecider } from './sessionDecider.js';
import type { ScheduledData } from './sessionEvents.js';
import { checkSessionReference, type SessionFact } from './sessionReference.js';
import { FieldChecks } from '../../fieldChecks.js';

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
