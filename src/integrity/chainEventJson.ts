// One chained event as JSON, the same in the chain pages over HTTP and in company exports (positions as decimal text).
import type { RecordedEvent } from '../stores/eventStore.js';

export interface ChainEventJson {
  position: string;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  hash: string | null;
}

export const chainEventJson = (e: RecordedEvent, hash: string | null): ChainEventJson => ({
  position: String(e.position),
  id: e.id,
  stream: e.streamName,
  revision: e.revision,
  type: e.type,
  data: e.data,
  metadata: e.metadata as unknown as Record<string, unknown>,
  hash,
});
