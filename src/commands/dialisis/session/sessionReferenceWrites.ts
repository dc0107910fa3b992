// Reads the session a body names, in the caller's company only: its first event (SessionScheduled) says whose it is
// and which day, so a long session (readings, amendments) is never replayed for a reference check.
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import { sessionDecider } from './sessionDecider.js';
import type { ScheduledData } from './sessionEvents.js';
import type { SessionFact } from './sessionReference.js';

export async function sessionFact(events: EventStore, tenantId: string, sessionId: string): Promise<SessionFact> {
  const [first] = await events.readStream(streamName(tenantId, sessionDecider.category, sessionId), { maxCount: 1 });
  if (first?.type !== 'SessionScheduled') return { exists: false };
  const { patientId, date } = first.data as ScheduledData;
  return { exists: true, patientId, date };
}
