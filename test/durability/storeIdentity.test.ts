// The SQLite log's identity survives what happens to files: a log written before identities existed gets one once
// it passed its integrity check (and keeps it), a copy restored from a backup has the identity of the log it copies,
// and a damaged old log is never written to for it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EventStoreUnusableError, streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { newEvent } from '../support/eventFixtures.js';

describe('SQLite event store: identity of the log', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-identity-'));
    file = path.join(dir, 'events.sqlite');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function writeLog(events: number): Promise<string> {
    const store = await openSqliteEventStore({ file });
    for (let i = 0; i < events; i += 10) {
      await store.appendToStream(
        streamName('t1', 'patient', `p${i}`),
        Array.from({ length: 10 }, () => newEvent('t1', { text: 'x'.repeat(200) })),
        { expectedRevision: 'no_stream' },
      );
    }
    const identity = await store.identity();
    await store.close();
    return identity;
  }

  /** The file as a build from before identities left it: the same schema version, without the meta table. */
  function forgetIdentity(): void {
    const db = new Database(file);
    db.exec('DROP TABLE store_meta');
    db.close();
  }

  it('gives a log written before identities one once it passed its integrity check, and keeps it', async () => {
    const before = await writeLog(30);
    forgetIdentity();
    const store = await openSqliteEventStore({ file });
    assert.equal((await store.readAll()).length, 30, 'readable at once');
    const identity = await store.identity();
    assert.notEqual(identity, before);
    await store.close();
    const again = await openSqliteEventStore({ file });
    assert.equal(await again.identity(), identity, 'written into the file');
    await again.close();
  });

  it('is the identity of the log it copies for a copy restored from a backup, and another for a new log', async () => {
    const identity = await writeLog(10);
    const copy = path.join(dir, 'restored.sqlite');
    fs.copyFileSync(file, copy);
    const restored = await openSqliteEventStore({ file: copy });
    assert.equal(await restored.identity(), identity);
    await restored.close();
    const fresh = await openSqliteEventStore({ file: path.join(dir, 'fresh.sqlite') });
    assert.notEqual(await fresh.identity(), identity);
    await fresh.close();
  });

  it('never writes an identity into an old log that fails its integrity check', async () => {
    await writeLog(2000);
    forgetIdentity();
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    const middle = Math.floor(bytes.length / pageSize / 2);
    bytes.fill(0xa5, pageSize * middle, pageSize * (middle + 2));
    fs.writeFileSync(file, bytes);

    const store = await openSqliteEventStore({ file });
    try {
      await assert.rejects(store.identity(), EventStoreUnusableError);
    } finally {
      await store.close();
    }
    assert.ok(fs.readFileSync(file).equals(bytes), 'the file bytes are unchanged');
  });
});
