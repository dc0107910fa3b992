// A log written before the hash chain existed (schema version 1) is chained from its next start: its events keep
// no hash, and each tenant's genesis record names the position of its first chained event.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { genesisHash, verifyChainSegment } from '../../src/stores/chain/hashChain.js';
import { newEvent } from '../support/eventFixtures.js';

describe('SQLite event store: a log from before the hash chain', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-chain-'));
    file = path.join(dir, 'events.sqlite');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Given a log as a version 1 build left it: no hash column, no genesis table. */
  async function writeVersion1Log(): Promise<void> {
    const store = await openSqliteEventStore({ file });
    await store.appendToStream(streamName('t1', 'patient', 'p1'), [newEvent('t1'), newEvent('t1')], { expectedRevision: 'no_stream' });
    await store.close();
    const db = new Database(file);
    db.exec('DROP TABLE chain_genesis; ALTER TABLE events DROP COLUMN hash;');
    db.pragma('user_version = 1');
    db.close();
  }

  it('opens it, keeps its events unhashed and starts each tenant chain at the next append', async () => {
    await writeVersion1Log();
    const store = await openSqliteEventStore({ file });
    try {
      await store.integrity;
      assert.equal(await store.chainGenesis('t1'), null, 'no chain before the next append');
      assert.equal((await store.readStream(streamName('t1', 'patient', 'p1'))).length, 2, 'the old events are read as before');
      const next = await store.appendToStream(streamName('t1', 'patient', 'p1'), [newEvent('t1')], { expectedRevision: 1 });
      assert.deepEqual(await store.chainGenesis('t1'), { tenant: 't1', fromPosition: next.position });
      const chain = await store.readChain('t1');
      assert.deepEqual(
        chain.map((e) => e.position),
        [next.position],
      );
      assert.equal(verifyChainSegment('t1', genesisHash('t1'), chain).ok, true);
    } finally {
      await store.close();
    }
  });
});
