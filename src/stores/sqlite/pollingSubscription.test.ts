// The shared page reader: one read per page and turn of the event loop, forgotten at a commit or the next turn.
import assert from 'node:assert/strict';
import type { RecordedEvent } from '../eventStore.js';
import { sharedPageReader, startPollingSubscription } from './pollingSubscription.js';

describe('sharedPageReader', () => {
  let log: bigint[];
  let reads: number;
  let commit: () => void;
  const read = () =>
    sharedPageReader(
      (after, maxCount) => {
        reads++;
        return log
          .filter((p) => p > after)
          .slice(0, maxCount)
          .map((position) => ({ position }) as RecordedEvent);
      },
      (listener) => {
        commit = listener;
        return () => undefined;
      },
    );
  beforeEach(() => {
    log = [1n, 2n];
    reads = 0;
  });

  it('reads a page once for every reader in the same turn', () => {
    const page = read();
    assert.equal(page(0n, 10), page(0n, 10));
    assert.equal(reads, 1);
    page(1n, 10);
    page(0n, 10, 'tenant');
    assert.equal(reads, 3);
  });

  it('reads again after a commit, so a page never misses an event committed before the read', () => {
    const page = read();
    assert.equal(page(2n, 10).length, 0);
    log.push(3n);
    commit();
    assert.deepEqual(
      page(2n, 10).map((e) => e.position),
      [3n],
    );
  });

  it('reads again in the next turn (commits by other processes)', async () => {
    const page = read();
    assert.equal(page(2n, 10).length, 0);
    log.push(3n);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(page(2n, 10).length, 1);
  });
});

describe('polling subscription catch-up', () => {
  // A long replay gives the event loop a turn between full pages: a start never holds I/O, timers or requests.
  it('lets a turn of the event loop run between full pages while catching up', async () => {
    const log = Array.from({ length: 5_000 }, (_, i) => ({ position: BigInt(i + 1) }) as RecordedEvent);
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
