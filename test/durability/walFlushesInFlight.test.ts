// Two flushes of the WAL in flight (issue 29, writes never starve): a commit made while a flush runs begins its own
// flush at once instead of waiting for that one to end and for the event loop to notice; flushes still settle in the
// order they began, so a later success never acknowledges anything while an older flush may yet fail (fail-stop).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventStoreUnusableError, streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore, type SqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { fdatasyncOnThreadpool, walFlushesInFlight } from '../../src/stores/sqlite/walDurability.js';
import { newEvent, sleep, uniqueTenant, waitUntil } from '../support/eventFixtures.js';

/** A syncWal that waits until the test releases (real fdatasync) or fails each call. */
function gatedSync() {
  const held: { release(): void; fail(error: Error): void }[] = [];
  const syncWal = (fd: number) =>
    new Promise<void>((resolve, reject) =>
      held.push({ release: () => void fdatasyncOnThreadpool(fd).then(resolve, reject), fail: reject }),
    );
  return { held, syncWal };
}

function settledFlag(promise: Promise<unknown>): { settled: boolean } {
  const flag = { settled: false };
  void promise.then(
    () => (flag.settled = true),
    () => (flag.settled = true),
  );
  return flag;
}

describe('SQLite event store: flushes of the WAL in flight at once', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  let store: SqliteEventStore | null;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-flushes-'));
    file = path.join(dir, 'events.sqlite');
    store = null;
  });
  afterEach(async () => {
    await store?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const append = (s: SqliteEventStore, tenant: string, id: string) =>
    s.appendToStream(streamName(tenant, 'patient', id), [newEvent(tenant)], { expectedRevision: 'no_stream' });

  it('two in flight: a commit made while a flush runs begins its own flush at once', async () => {
    const gate = gatedSync();
    store = await openSqliteEventStore({ file, syncWal: gate.syncWal, walFlushesInFlight: 2 });
    const tenant = uniqueTenant();
    const first = append(store, tenant, 'p1');
    await waitUntil(() => gate.held.length === 1, 'the flush after the first commit');
    const second = append(store, tenant, 'p2');
    await waitUntil(() => gate.held.length === 2, 'a second flush begun while the first still runs');
    const third = append(store, tenant, 'p3');
    await sleep(50);
    assert.equal(gate.held.length, 2, 'no more than two at once: the third commit waits for the next flush');

    gate.held[0]!.release();
    assert.equal((await first).position, 1n);
    await waitUntil(() => gate.held.length === 3, 'the next flush, begun when one ended');
    gate.held[1]!.release();
    gate.held[2]!.release();
    assert.deepEqual(
      (await Promise.all([second, third])).map((r) => r.position),
      [2n, 3n],
    );
  });

  it('one in flight (the default): the commit waits for the running flush to end before its own begins', async () => {
    const gate = gatedSync();
    store = await openSqliteEventStore({ file, syncWal: gate.syncWal });
    const tenant = uniqueTenant();
    const first = append(store, tenant, 'p1');
    await waitUntil(() => gate.held.length === 1, 'the flush after the first commit');
    const second = append(store, tenant, 'p2');
    await sleep(50);
    assert.equal(gate.held.length, 1);
    gate.held[0]!.release();
    await first;
    await waitUntil(() => gate.held.length === 2, 'the second flush, once the first ended');
    gate.held[1]!.release();
    assert.equal((await second).position, 2n);
  });

  it('flushes settle in the order they began: a later one that ends first waits, and an older failure refuses both', async () => {
    const gate = gatedSync();
    store = await openSqliteEventStore({ file, syncWal: gate.syncWal, walFlushesInFlight: 2 });
    const tenant = uniqueTenant();
    const first = append(store, tenant, 'p1');
    await waitUntil(() => gate.held.length === 1, 'the first flush');
    const second = append(store, tenant, 'p2');
    await waitUntil(() => gate.held.length === 2, 'the second flush');
    const acknowledged = settledFlag(second);

    gate.held[1]!.release(); // the later flush ends first
    await sleep(100);
    assert.equal(acknowledged.settled, false, 'not acknowledged while the older flush may still fail');

    gate.held[0]!.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    for (const appended of [first, second])
      await assert.rejects(
        appended,
        (err: Error) => err instanceof EventStoreUnusableError && /fdatasync failed \(EIO\)/.test(err.message),
      );
    assert.ok((await store.stopped) instanceof EventStoreUnusableError);
  });

  it('WAL_FLUSHES_IN_FLIGHT: 1 by default, 1 to 4, anything else refused', () => {
    assert.equal(walFlushesInFlight(undefined), 1);
    assert.equal(walFlushesInFlight('2'), 2);
    for (const bad of ['0', '5', 'two', '1.5']) assert.throws(() => walFlushesInFlight(bad), /WAL_FLUSHES_IN_FLIGHT/);
  });
});
