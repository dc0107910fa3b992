// Group commit on a really full filesystem (a mounted tmpfs, see smallFilesystem.ts): a batch whose COMMIT finds no
// space fails every append waiting in it (none acknowledged, none in the file), and the batch after the space is
// freed is written whole, in the same open store.
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { streamName } from '../../src/stores/eventStore.js';
import { EventStoreFullError } from '../../src/stores/eventStoreFull.js';
import { openSqliteEventStore, type SqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';
import { smallFilesystem, type SmallFilesystem } from '../support/smallFilesystem.js';

const BATCH = 25;

function storedPositions(file: string): number[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT position FROM events ORDER BY position').pluck().all() as number[];
  } finally {
    db.close();
  }
}

describe('group commit when the disk is full', function () {
  this.timeout(60_000);
  let small: SmallFilesystem;
  let store: SqliteEventStore | undefined;
  before(async () => (small = await smallFilesystem(8)));
  after(async () => {
    await store?.close().catch(() => undefined);
    await small?.release();
  });

  it('fails every append of the batch whose commit failed, and writes the next batch once space is back', async () => {
    const file = path.join(small.dir, 'events.sqlite');
    store = await openSqliteEventStore({ file, onDatabaseOpen: small.onDatabaseOpen });
    const tenant = uniqueTenant();
    // Appends issued in one tick share one transaction (one batch).
    const batch = (tag: string) =>
      Promise.allSettled(
        Array.from({ length: BATCH }, (_, i) =>
          store!.appendToStream(streamName(tenant, 'patient', `${tag}-${i}`), [newEvent(tenant, { blob: 'x'.repeat(2000) })], {
            expectedRevision: 'no_stream',
          }),
        ),
      );
    const first = await batch('before');
    assert.ok(first.every((r) => r.status === 'fulfilled'));
    const before = storedPositions(file);

    await small.fill();
    const refused = await batch('full');
    const acknowledged = refused.filter((r) => r.status === 'fulfilled');
    assert.deepEqual(acknowledged, [], 'no append of a batch whose commit failed is acknowledged');
    for (const r of refused)
      assert.ok((r as PromiseRejectedResult).reason instanceof EventStoreFullError, String((r as PromiseRejectedResult).reason));
    assert.deepEqual(storedPositions(file), before, 'nothing of the failed batch is in the file');
    assert.equal(store.diskFull, true);

    small.free();
    const after = await batch('after');
    const written = after.map((r) => (r.status === 'fulfilled' ? r.value.position : r.reason));
    assert.ok(
      after.every((r) => r.status === 'fulfilled'),
      `the batch after space was freed: ${written.map(String).join(', ')}`,
    );
    assert.deepEqual(
      storedPositions(file).slice(before.length).map(BigInt),
      written.slice().sort((a, b) => Number(a - b)),
      'the file holds exactly the acknowledged appends',
    );
    assert.equal(store.diskFull, false);
  });
});
