// One event by its id, through the events table's unique index on event_id: a keyed command's earlier run is found in
// one lookup, however long its stream.
import type { RecordedEvent } from '../eventStore.js';
import { toRecordedEvent, type Statements } from './sqliteStatements.js';

export function sqliteEventLookup(st: Statements, onlyDurable: <T extends { position: bigint }>(events: T[]) => Promise<T[]>) {
  return {
    async readEventById(stream: string, eventId: string): Promise<RecordedEvent | null> {
      const row = st.byEventId.get(eventId.toLowerCase());
      if (!row || row.stream !== stream) return null;
      const [event] = await onlyDurable([
        toRecordedEvent([row.position, row.stream, row.revision, row.event_id, row.type, row.data, row.metadata]),
      ]);
      return event ?? null;
    },
  };
}
