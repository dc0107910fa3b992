// The WAL is made durable off the event loop: the store's syncWal (fdatasync of the -wal file) is replaced here by
// a gate the test opens, over the real fdatasync, so each test sees exactly what happens between a commit and its
// flush: no acknowledgement, no read, no subscription sees the event; a failed flush stops the store.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EventStoreUnusableError, streamName, type AppendResult, type RecordedEvent } from '../../src/stores/eventStore.js';
import { openSqliteEventStore, type SqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { fdatasyncOnThreadpool } from '../../src/stores/sqlite/walDurability.js';
import { newEvent, sleep, uniqueTenant, waitUntil } from '../support/eventFixtures.js';

interface HeldSync {
  fd: number;
  release(): void;
  fail(error: Error): void;
}

/** A syncWal that waits until the test releases (real fdatasync) or fails each call. */
function gatedSync() {
  const held: HeldSync[] = [];
  const syncWal = (fd: number) =>
    new Promise<void>((resolve, reject) =>
      held.push({ fd, release: () => void fdatasyncOnThreadpool(fd).then(resolve, reject), fail: reject }),
    );
  return { held, syncWal };
}

/** What an outside reader of the file sees committed (another connection, as another process would have). */
function committedPositions(file: string): number[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT position FROM events ORDER BY position').pluck().all() as number[];
  } finally {
    db.close();
  }
}

function settledFlag(promise: Promise<unknown>): { settled: boolean } {
  const flag = { settled: false };
  void promise.then(
    () => (flag.settled = true),
    () => (flag.settled = true),
  );
  return flag;
}

describe('SQLite event store: fdatasync of the WAL off the event loop', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  let store: SqliteEventStore | null;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-walsync-'));
    file = path.join(dir, 'events.sqlite');
    store = null;
  });
  afterEach(async () => {
    await store?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits at once but acknowledges an append only once a flush of the WAL file itself has completed', async () => {
    const gate = gatedSync();
    store = await openSqliteEventStore({ file, syncWal: gate.syncWal });
    const tenant = uniqueTenant();
    const appended = store.appendToStream(streamName(tenant, 'patient', 'p1'), [newEvent(tenant)], { expectedRevision: 'no_stream' });
    const acknowledged = settledFlag(appended);

    await waitUntil(() => gate.held.length === 1, 'the flush after the commit');
    assert.deepEqual(committedPositions(file), [1], 'committed before the flush (the COMMIT did not wait for the disk)');
    assert.equal(fs.fstatSync(gate.held[0]!.fd).ino, fs.statSync(`${file}-wal`).ino, 'the flush syncs the -wal file');
    await sleep(50);
    assert.equal(acknowledged.settled, false, 'not acknowledged before the flush completed');

    gate.held[0]!.release();
    assert.equal((await appended).position, 1n);
  });

  it('shows an event to subscriptions, reads and the head position only once it is durable', async () => {
    const gate = gatedSync();
    store = await openSqliteEventStore({ file, syncWal: gate.syncWal, pollMs: 20 });
    const tenant = uniqueTenant();
    const stream = streamName(tenant, 'patient', 'p1');
    const seen: RecordedEvent[] = [];
    const sub = store.subscribe({}, (e) => void seen.push(e));
    try {
      const appended = store.appendToStream(stream, [newEvent(tenant)], { expectedRevision: 'no_stream' });
      await waitUntil(() => gate.held.length === 1, 'the flush after the commit');
      const head = store.headPosition();
      const read = store.readStream(stream);
      const all = store.readAll();
      const answered = [head, read, all].map(settledFlag);
      await sleep(150); // several polls of the subscription
      assert.deepEqual(seen, [], 'the subscription saw nothing before the flush');
      assert.deepEqual(
        answered.map((a) => a.settled),
        [false, false, false],
        'head, readStream and readAll wait for the flush',
      );

      gate.held[0]!.release();
      await appended;
      assert.equal(await head, 1n);
      assert.deepEqual(
        (await read).map((e) => e.position),
        [1n],
      );
      assert.deepEqual(
        (await all).map((e) => e.position),
        [1n],
      );
      await waitUntil(() => seen.length === 1, 'the subscription to see the durable event');
    } finally {
      await sub.stop();
    }
  });

  it('fails stop when a flush fails: the waiting appends and every later one are rejected, the store reports it stopped', async () => {
    const gate = gatedSync();
    store = await openSqliteEventStore({ file, syncWal: gate.syncWal });
    const tenant = uniqueTenant();
    const stream = streamName(tenant, 'patient', 'p1');
    const appended = store.appendToStream(stream, [newEvent(tenant)], { expectedRevision: 'no_stream' });
    await waitUntil(() => gate.held.length === 1, 'the flush after the commit');
    gate.held[0]!.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));

    await assert.rejects(appended, (err: Error) => err instanceof EventStoreUnusableError && /fdatasync failed \(EIO\)/.test(err.message));
    const stopped = await store.stopped;
    assert.ok(stopped instanceof EventStoreUnusableError);
    assert.equal(store.integrityState, 'failed');
    await assert.rejects(
      store.appendToStream(streamName(tenant, 'patient', 'p2'), [newEvent(tenant)], { expectedRevision: 'no_stream' }),
      EventStoreUnusableError,
    );
    // The event is in the file but its durability is unknown: no read hands it out.
    await assert.rejects(store.readStream(stream), EventStoreUnusableError);
    assert.equal(gate.held.length, 1, 'no flush is retried after a failure (the kernel may have dropped the pages)');
  });

  it('group-commits concurrent appends: each resolves after a flush begun after its commit, one flush at a time', async () => {
    const flushes: { headAtStart: number; done: boolean }[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const reader = () => committedPositions(file);
    const syncWal = async (fd: number) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      const flush = { headAtStart: Math.max(0, ...reader()), done: false };
      flushes.push(flush);
      await sleep(5); // a slow disk: commits pile up behind the running flush
      await fdatasyncOnThreadpool(fd);
      flush.done = true;
      running--;
    };
    store = await openSqliteEventStore({ file, syncWal });
    const tenant = uniqueTenant();
    const early: AppendResult[] = [];
    const writes = Array.from({ length: 300 }, async (_, i) => {
      if (i % 3 === 0) await sleep(i % 30); // spread over several batches
      const result = await store!.appendToStream(streamName(tenant, 'patient', `p${i}`), [newEvent(tenant, { i })], {
        expectedRevision: 'no_stream',
      });
      if (!flushes.some((f) => f.done && f.headAtStart >= Number(result.position))) early.push(result);
      return result;
    });
    const results = await Promise.all(writes);

    assert.deepEqual(early, [], 'no append resolved before a flush that began after its commit');
    assert.deepEqual(
      results.map((r) => r.position).sort((a, b) => (a < b ? -1 : 1)),
      Array.from({ length: 300 }, (_, i) => BigInt(i + 1)),
    );
    assert.equal(mostAtOnce, 1, 'one flush at a time');
    assert.ok(flushes.length < 300, `flushes are shared (${flushes.length} for 300 appends)`);
  });

  it('keeps syncing the file SQLite writes after another connection truncated the WAL in a checkpoint', async () => {
    const synced: number[] = [];
    store = await openSqliteEventStore({
      file,
      syncWal: (fd) => {
        synced.push(fs.fstatSync(fd).ino);
        return fdatasyncOnThreadpool(fd);
      },
    });
    const tenant = uniqueTenant();
    await store.appendToStream(streamName(tenant, 'patient', 'p0'), [newEvent(tenant)], { expectedRevision: 'no_stream' });
    const other = new Database(file);
    try {
      assert.equal(other.pragma('wal_checkpoint(TRUNCATE)', { simple: true }), 0, 'the checkpoint completed');
    } finally {
      other.close();
    }
    assert.equal(fs.statSync(`${file}-wal`).size, 0, 'the WAL was truncated');
    await store.appendToStream(streamName(tenant, 'patient', 'p1'), [newEvent(tenant)], { expectedRevision: 'no_stream' });
    assert.ok(fs.statSync(`${file}-wal`).size > 0, 'the next commit wrote the WAL again');
    const walInode = fs.statSync(`${file}-wal`).ino;
    assert.deepEqual([...new Set(synced)], [walInode], 'every flush synced the -wal file SQLite writes');
  });
});
