// Feeds the global log, page by page, to several projections at once (one read of the log for all of them):
// start-up catch-up and rebuilds use it instead of a subscription, so no per-event round trip is paid.
import type { EventStore, RecordedEvent } from '../../stores/eventStore.js';
import type { ProjectionBatch } from './projectionBatch.js';

export interface ReplayLane {
  batch: ProjectionBatch;
  types: ReadonlySet<string>;
  /** True once the projection failed (transiently): it gets no more events. */
  isFailed(): boolean;
  /** Writes the batch (and, for live collections, the checkpoint). */
  flush(): Promise<void>;
  /** `event`: the error came from handling it (a poison event parks its scope); null: a store error. */
  fail(error: unknown, event: RecordedEvent | null): void;
}

export interface ReplayOptions {
  /** Stop after the page that reaches this position (the head when the replay began). */
  until: bigint;
  batchSize: number;
  pageSize: number;
  /** After each page: position of its last event and events read so far. */
  onPage?: (position: bigint, eventsRead: number) => void;
}

/** Returns the position of the last event read (or where it started when the log held nothing newer). */
export async function replayLog(events: EventStore, lanes: ReplayLane[], options: ReplayOptions): Promise<bigint> {
  const live = () => lanes.filter((lane) => !lane.isFailed());
  let after = live().reduce<bigint | null>((min, lane) => (min === null || lane.batch.position < min ? lane.batch.position : min), null);
  if (after === null) return 0n;
  let eventsRead = 0;
  while (after < options.until) {
    const active = live();
    if (active.length === 0) break;
    const page = await events.readAll({ after: after === 0n ? undefined : after, maxCount: options.pageSize });
    if (page.length === 0) break;
    for (const event of page) {
      for (const lane of active) {
        if (lane.isFailed()) continue;
        try {
          const pending = lane.batch.apply(event, lane.types);
          if (pending) await pending;
        } catch (error) {
          lane.fail(error, event); // the handler's (a poison event) or a store read under it
        }
        if (lane.isFailed() || lane.batch.handled < options.batchSize) continue;
        try {
          await lane.flush();
        } catch (error) {
          lane.fail(error, null); // a store write: never the event's fault
        }
      }
    }
    eventsRead += page.length;
    after = page[page.length - 1]!.position;
    options.onPage?.(after, eventsRead);
    // Let requests and timers run between pages: a rebuild on a serving process must not stall its HTTP.
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (const lane of live()) {
    try {
      await lane.flush();
    } catch (error) {
      lane.fail(error, null);
    }
  }
  return after;
}
