// Finding one event of a stream by its id where the store keeps no index of ids (EventStoreDB): the stream is read
// backwards in pages (recent runs are found first) and nothing is folded; the first match ends the read.
import type { ReadStreamOptions, RecordedEvent } from './eventStore.js';

const PAGE = 500;

export async function findEventReadingBackwards(
  readStream: (stream: string, options: ReadStreamOptions) => Promise<RecordedEvent[]>,
  stream: string,
  eventId: string,
): Promise<RecordedEvent | null> {
  const id = eventId.toLowerCase();
  let fromRevision: number | undefined;
  for (;;) {
    const page = await readStream(stream, {
      direction: 'backwards',
      maxCount: PAGE,
      ...(fromRevision !== undefined ? { fromRevision } : {}),
    });
    const found = page.find((e) => e.id.toLowerCase() === id);
    if (found) return found;
    const oldest = page[page.length - 1];
    // Ends at the stream's first event (a short page alone is no proof: an adapter may leave system events out).
    if (!oldest || oldest.revision === 0) return null;
    fromRevision = oldest.revision - 1;
  }
}
