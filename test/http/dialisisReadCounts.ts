// A Dialisis world whose event store counts the streams each request reads: the facts-loaded-once tests assert reads
// per stream category, never time.
import { countingEventStore, type ReadCounts } from '../support/countingEventStore.js';
import { categoryOfStream } from '../../src/stores/eventStore.js';
import { startDialisisWorld, type DialisisWorld } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

export interface CountedWorld {
  w: DialisisWorld;
  s: SessionSteps;
  reads: ReadCounts;
  /** Reads per stream category since the last `reads.reset()`. */
  readsByCategory(): Record<string, number>;
}

/** Registers the suite's before/after hooks; the world is there once `before` ran. */
export function countedDialisisWorld(): CountedWorld {
  const counted = {} as CountedWorld;
  before(async () => {
    counted.w = await startDialisisWorld();
    counted.s = sessionSteps(counted.w);
    const counting = countingEventStore(counted.w.server.services.events);
    counted.w.server.services.events = counting.store;
    counted.reads = counting.reads;
  });
  after(async () => counted.w?.close());
  counted.readsByCategory = () => {
    const out: Record<string, number> = {};
    for (const [stream, calls] of counted.reads.callsByStream) {
      const category = categoryOfStream(stream);
      out[category] = (out[category] ?? 0) + calls;
    }
    return out;
  };
  return counted;
}
