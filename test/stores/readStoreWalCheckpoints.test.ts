// The SQLite read store's WAL checkpoints in a worker (READ_STORE_CHECKPOINT_PAGES): under writes that never pause the
// log stays bounded, it is truncated once they stop, and the damage watch glancing all the while finds nothing wrong.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { openSqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { openRecoverableSqliteReadStore, readStoreRecoveryOf } from '../../src/stores/sqliteRead/recoverableReadStore.js';
import type { ReadDoc, ReadStore } from '../../src/stores/readStore.js';
import type { Logger } from '../../src/logger.js';

const PAGES = 64;
const LOAD_MS = 3_000;
/**
 * The bound: the worker copies the log back past PAGES pages and restarts it past 4x that; a commit checkpoints itself
 * past 8x (should the worker be starved of CPU); one batch writes ~100 frames. SQLite's own checkpoint lets it reach 10,000.
 */
const MAX_FRAMES = 8 * PAGES + 1_000;
const MAX_WAL = MAX_FRAMES * (24 + 4096);
const walSize = (file: string): number => fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
/** The log's last frame (mxFrame of the wal-index header, in the -shm file: SQLite's walformat.html). */
function logFrames(file: string): number {
  const header = Buffer.alloc(20);
  const fd = fs.openSync(`${file}-shm`, 'r');
  try {
    fs.readSync(fd, header, 0, 20, 0);
  } finally {
    fs.closeSync(fd);
  }
  return os.endianness() === 'LE' ? header.readUInt32LE(16) : header.readUInt32BE(16);
}

/** Writes batches of new documents (every index touched) for `ms`, a timer's turn between them (~1 ms: far more often than the runner's flushes). */
async function writeFor(
  store: ReadStore,
  file: string,
  ms: number,
): Promise<{ batches: number; maxWal: number; maxFrames: number; restarts: number; docs: number }> {
  const collection = await store.collection<ReadDoc & { name: string }>('load_v1', [{ keys: { tenantId: 1, name: 1 } }]);
  let batches = 0;
  let maxWal = 0;
  let maxFrames = 0;
  let restarts = 0;
  let frames = 0;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await collection.bulkWrite(
      Array.from({ length: 50 }, () => ({
        kind: 'replace' as const,
        doc: { tenantId: 't1', id: randomUUID(), name: randomUUID().repeat(20) },
      })),
    );
    batches++;
    maxWal = Math.max(maxWal, walSize(file));
    const now = logFrames(file);
    if (now < frames) restarts++;
    frames = now;
    maxFrames = Math.max(maxFrames, now);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { batches, maxWal, maxFrames, restarts, docs: await collection.count('t1') };
}

describe('SQLite read store: WAL checkpoints in a worker', function () {
  let dir: string;
  let file: string;
  let store: ReadStore | null = null;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-wal-'));
    file = path.join(dir, 'readmodels.sqlite');
  });
  afterEach(async () => {
    await store?.close();
    store = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the log bounded while writes never pause, and truncates it once they stop', async function () {
    store = await openSqliteReadStore({ file, checkpointPages: PAGES });
    const { batches, maxWal, maxFrames, restarts, docs } = await writeFor(store, file, LOAD_MS);
    assert.equal(docs, batches * 50);
    assert.ok(restarts >= 3, `the log started over ${restarts} times in ${batches} batches (at most ${maxFrames} frames)`);
    assert.ok(maxFrames <= MAX_FRAMES, `the log stayed within ${MAX_FRAMES} frames: at most ${maxFrames}`);
    assert.ok(maxWal <= MAX_WAL, `the log stayed within ${MAX_WAL} bytes: at most ${maxWal}`);
    const deadline = Date.now() + 10_000;
    while (walSize(file) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(walSize(file), 0, 'truncated once the writes stopped');
  });

  it('lets the damage watch glance at the file all the while without taking a checkpoint under way for damage', async function () {
    const errors: unknown[] = [];
    const logger: Logger = { debug() {}, info() {}, warn() {}, error: (msg, fields) => void errors.push({ msg, ...fields }) };
    store = await openRecoverableSqliteReadStore({ file, logger, watchMs: 1, checkpointPages: PAGES });
    const { batches, docs } = await writeFor(store, file, LOAD_MS);
    assert.equal(docs, batches * 50);
    assert.equal(readStoreRecoveryOf(store)?.lastDamage, null, JSON.stringify(errors));
    assert.equal(readStoreRecoveryOf(store)?.state, 'ok');
  });
});
