// The runner's flush on the SQLite read store: the documents and checkpoints of every projection flushed at once go in
// one transaction (COMMITs counted in the write-ahead log), and a projection that fails in that flush fails alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { streamName, type EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { openSqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { PLATFORM_DOCS, type ReadStore } from '../../src/stores/readStore.js';
import { createProjectionRunner } from '../../src/projections/runner/projectionRunner.js';
import { CHECKPOINTS_COLLECTION } from '../../src/projections/runner/checkpoints.js';
import type { Projection, ProjectedDoc } from '../../src/projections/runner/projection.js';
import type { ProjectionRunner } from '../../src/projections/runner/runnerTypes.js';
import type { Logger } from '../../src/logger.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';
import { walCommits } from '../support/walCommits.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** One document per event, keyed by the event's `key`, in one or two collections; `code` unique where declared. */
function copying(name: string, collections: string[], uniqueCode = false): Projection {
  return {
    name,
    version: 1,
    collections: Object.fromEntries(
      collections.map((c) => [c, uniqueCode ? [{ keys: { tenantId: 1, code: 1 }, unique: true, name: 'code_unique' }] : []]),
    ),
    eventTypes: ['Noted'],
    async handle(event, tx) {
      const data = event.data as { key: string; code: string };
      for (const collection of collections) {
        const before = await tx.get(collection, event.metadata.tenantId, data.key); // read-through, as the folds do
        tx.put<ProjectedDoc>(collection, {
          tenantId: event.metadata.tenantId,
          id: data.key,
          code: data.code,
          seen: ((before?.seen as number | undefined) ?? 0) + 1,
          _position: Number(event.position),
        });
      }
    },
  };
}

describe('Projection flush on the SQLite read store', function () {
  let dir: string;
  let file: string;
  let events: EventStore;
  let reads: ReadStore;
  let runner: ProjectionRunner;
  let tenant: string;

  beforeEach(async function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-flush-'));
    file = path.join(dir, 'readmodels.sqlite');
    events = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollMs: 50 });
    reads = await openSqliteReadStore({ file });
    tenant = uniqueTenant();
  });
  afterEach(async function () {
    await runner?.stop();
    await reads.close();
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async (...projections: Projection[]) => {
    runner = createProjectionRunner({ events, reads, logger: quiet });
    for (const projection of projections) runner.register(projection);
    await runner.start();
  };
  const note = (key: string, code: string) => newEvent(tenant, { key, code }, 'Noted');
  const append = (stream: string, ...evs: ReturnType<typeof note>[]) =>
    events.appendToStream(streamName(tenant, 'note', stream), evs, { expectedRevision: 'any' });

  it('writes the documents and checkpoints of every projection of a live flush in one COMMIT', async function () {
    await start(copying('one', ['a', 'b']), copying('two', ['c']), copying('three', ['d', 'e']));
    const warm = await append('s0', note('k0', 'c0'));
    assert.equal(await runner.waitFor(warm.position, { timeoutMs: 10_000 }), true);
    const before = walCommits(file);
    const appended = await append('s1', note('k1', 'c1'), note('k2', 'c2'), note('k3', 'c3'));
    assert.equal(await runner.waitFor(appended.position, { timeoutMs: 10_000 }), true);
    const commits = walCommits(file) - before;
    const d = await reads.collection('d_v1');
    assert.equal((await d.get(tenant, 'k3'))?.code, 'c3');
    const checkpoints = await reads.collection(CHECKPOINTS_COLLECTION);
    for (const name of ['one', 'two', 'three'])
      assert.equal((await checkpoints.get(PLATFORM_DOCS, name))?.position, appended.position.toString(), `${name}'s checkpoint`);
    assert.equal(commits, 1, `3 projections, 5 collections, 3 checkpoints: ${commits} COMMITs`);
  });

  it('persists the checkpoints of the projections that skipped the events together, in one COMMIT', async function () {
    const skipping = (name: string): Projection => ({ ...copying(name, [`${name}Docs`]), eventTypes: ['SomethingElse'] });
    await start(copying('one', ['a']), skipping('s1'), skipping('s2'), skipping('s3'));
    const warm = await append('s0', note('k0', 'c0'));
    assert.equal(await runner.waitFor(warm.position, { timeoutMs: 10_000 }), true);
    const checkpoints = await reads.collection(CHECKPOINTS_COLLECTION);
    const persisted = async (position: bigint) => {
      for (const name of ['s1', 's2', 's3'])
        if ((await checkpoints.get(PLATFORM_DOCS, name))?.position !== position.toString()) return false;
      return true;
    };
    for (let i = 0; i < 200 && !(await persisted(warm.position)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const before = walCommits(file);
    const appended = await append('s1', note('k1', 'c1'));
    assert.equal(await runner.waitFor(appended.position, { timeoutMs: 10_000 }), true);
    for (let i = 0; i < 200 && !(await persisted(appended.position)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(await persisted(appended.position), 'the skipping projections persist their checkpoints a moment later');
    const commits = walCommits(file) - before;
    assert.equal(commits, 2, `the live flush, then the 3 skipped checkpoints: ${commits} COMMITs`);
  });

  it('fails only the projection whose write failed in a shared flush; the others keep their writes and go on', async function () {
    await start(copying('one', ['a']), copying('strict', ['u'], true), copying('three', ['d']));
    const warm = await append('s0', note('k0', 'c0'));
    assert.equal(await runner.waitFor(warm.position, { timeoutMs: 10_000 }), true);
    // k2 takes k1's code: the strict projection's unique index refuses it when the flush writes it back.
    const appended = await append('s1', note('k1', 'same'), note('k2', 'same'));
    assert.equal(await runner.waitFor(appended.position, { timeoutMs: 10_000, projections: ['one', 'three'] }), true);
    const status = new Map((await runner.status()).map((s) => [s.name, s]));
    assert.equal(status.get('strict')?.state, 'failed', 'the projection whose write failed');
    assert.match(status.get('strict')?.error ?? '', /duplicate key/);
    assert.equal(status.get('one')?.state, 'live');
    assert.equal(status.get('three')?.state, 'live');
    for (const name of ['a_v1', 'd_v1']) {
      const collection = await reads.collection(name);
      assert.equal((await collection.get(tenant, 'k2'))?.code, 'same', `${name} has the shared flush's documents`);
    }
    const checkpoints = await reads.collection(CHECKPOINTS_COLLECTION);
    assert.equal((await checkpoints.get(PLATFORM_DOCS, 'one'))?.position, appended.position.toString());
    assert.equal((await checkpoints.get(PLATFORM_DOCS, 'strict'))?.position, warm.position.toString(), 'no checkpoint past the failure');
    const later = await append('s2', note('k3', 'c3'));
    assert.equal(await runner.waitFor(later.position, { timeoutMs: 10_000, projections: ['one', 'three'] }), true, 'the others go on');
  });
});
