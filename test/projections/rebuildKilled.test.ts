// A crash (SIGKILL) in the middle of a build of fresh collections over the SQLite stores: the next start serves
// either the old read models or builds them again, with the same answers as a fresh rebuild; writes made during a
// rebuild are in the documents after the switch.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamName, type EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { openSqliteReadStore, type SqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { createProjectionRunner } from '../../src/projections/runner/projectionRunner.js';
import { releaseLeftoverProjectorLease } from '../../src/projections/runner/leftoverLease.js';
import type { ProjectionRunner } from '../../src/projections/runner/runnerTypes.js';
import type { Logger } from '../../src/logger.js';
import { STATS, snapshotOf, statsProjection } from '../support/projectionFixtures.js';
import { newEvent } from '../support/eventFixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TENANT = 'tkilled';
const STREAMS = 300;
const PER_STREAM = 12;
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Runs the child until it kills itself; fails when it finished (or died) otherwise. */
function buildUntilKilled(dir: string, mode: 'start' | 'rebuild', freshName: string): Promise<void> {
  const args = [path.join(dir, 'events.sqlite'), path.join(dir, 'read.sqlite'), TENANT, mode, freshName];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'rebuildUntilKilled.ts'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`the ${mode} was not killed mid-way (exit ${code}): ${output}`)),
    );
  });
}

async function append(events: EventStore, stream: string, type: string, item: string): Promise<bigint> {
  const result = await events.appendToStream(streamName(TENANT, 'counter', stream), [newEvent(TENANT, { item }, type)], {
    expectedRevision: 'any',
  });
  return result.position;
}

describe('a build of fresh read models killed half-way (SQLite stores)', function () {
  this.timeout(120_000);
  let dir: string;
  let expected: Awaited<ReturnType<typeof snapshotOf>>;
  let events: EventStore | null = null;
  let reads: SqliteReadStore | null = null;
  let runner: ProjectionRunner | null = null;

  async function open(): Promise<ProjectionRunner> {
    events = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    reads = await openSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
    await releaseLeftoverProjectorLease(reads, quiet); // as the service's restart does (its data directory is its own)
    runner = createProjectionRunner({ events, reads, logger: quiet, batchSize: 25 });
    runner.register(statsProjection(TENANT));
    return runner;
  }
  async function close(): Promise<void> {
    await runner?.stop();
    await reads?.close();
    await events?.close();
    [runner, reads, events] = [null, null, null];
  }

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rebuild-killed-'));
    const store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    for (let i = 0; i < PER_STREAM; i++) {
      for (let s = 0; s < STREAMS; s++)
        await append(store, `s${s}`, i % 4 === 3 ? 'ItemRemoved' : 'ItemAdded', `item${i - (i % 4 === 3 ? 1 : 0)}`);
    }
    await store.close();
    // What a fresh rebuild answers: an uninterrupted first start over the whole log, in memory of the test.
    const fresh = await open();
    await fresh.start();
    expected = await snapshotOf(fresh, TENANT);
    await close();
    assert.equal(expected.streams.length, STREAMS);
    assert.equal(expected.totals?.events, STREAMS * PER_STREAM);
    for (const doc of expected.streams) assert.equal(doc.count, PER_STREAM, `every event of ${doc.id} counted`);
  });
  afterEach(close);
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a rebuild killed half-way leaves the old models serving, and the next rebuild gives the same answers', async () => {
    await buildUntilKilled(dir, 'rebuild', 'streams_v1_r1');
    const again = await open();
    assert.ok((await reads!.listCollections()).includes('streams_v1_r1'), 'the half-built collection was left by the kill');
    await again.start();
    assert.equal(again.collection(STATS, 'streams').name, 'streams_v1', 'the old models serve');
    assert.deepEqual(await snapshotOf(again, TENANT), expected);
    await again.rebuild(STATS);
    assert.equal(again.collection(STATS, 'streams').name, 'streams_v1_r1');
    assert.deepEqual(await snapshotOf(again, TENANT), expected);
  });

  it('a first start killed half-way builds the models again at the next start, with the same answers', async () => {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dir, `read.sqlite${suffix}`), { force: true });
    await buildUntilKilled(dir, 'start', 'streams_v1');
    const again = await open();
    await again.start();
    assert.deepEqual(await snapshotOf(again, TENANT), expected);
  });

  it('projects the writes made during a rebuild once it has switched', async () => {
    const live = await open();
    await live.start();
    let last = 0n;
    const rebuilt = live.rebuild(STATS);
    for (let s = 0; s < 20; s++) last = await append(events!, `s${s}`, 'ItemAdded', 'during the rebuild');
    await rebuilt;
    assert.equal(await live.waitFor(last, { timeoutMs: 30_000 }), true, 'the writes made meanwhile are projected');
    const after = await snapshotOf(live, TENANT);
    assert.equal(after.totals?.events, STREAMS * PER_STREAM + 20);
    for (let s = 0; s < 20; s++) {
      const doc = after.streams.find((d) => d.id === streamName(TENANT, 'counter', `s${s}`))!;
      assert.equal(doc.items.at(-1), 'during the rebuild');
    }
  });
});
