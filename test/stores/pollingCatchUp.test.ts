// A subscription catching up over a long log gives the event loop a turn between full pages, so a start that
// replays history never holds I/O, timers or requests until the whole log has been read.
import assert from 'node:assert/strict';
import { startPollingSubscription } from '../../src/stores/sqlite/pollingSubscription.js';
import type { RecordedEvent } from '../../src/stores/eventStore.js';

function logOf(count: number): RecordedEvent[] {
  return Array.from({ length: count }, (_, i) => ({ position: BigInt(i + 1) }) as RecordedEvent);
}

describe('polling subscription catch-up', () => {
  it('lets a turn of the event loop run between full pages while catching up', async () => {
    const log = logOf(5_000);
    const source = {
      readPage: (after: bigint, maxCount: number) => log.slice(Number(after), Number(after) + maxCount),
      onCommit: () => () => undefined,
    };
    let handled = 0;
    let handledWhenTurnRan: number | null = null;
    setImmediate(() => (handledWhenTurnRan = handled));
    const sub = startPollingSubscription(source, { after: 0n, pageSize: 500, pollMs: 60_000 }, () => void handled++);
    while (handled < log.length) await new Promise((resolve) => setTimeout(resolve, 5));
    await sub.stop();
    assert.ok(handledWhenTurnRan !== null && handledWhenTurnRan < log.length, `turn ran after ${handledWhenTurnRan} of ${log.length}`);
  });
});
