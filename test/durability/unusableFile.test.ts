// A data file we cannot trust stops the start with EventStoreUnusableError and is never modified.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EventStoreUnusableError, streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { newEvent } from '../support/eventFixtures.js';

describe('SQLite event store: unusable data files', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-unusable-'));
    file = path.join(dir, 'events.sqlite');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A store file with some events, closed cleanly (WAL checkpointed into the main file). */
  async function writeStoreFile(events = 300): Promise<void> {
    const store = await openSqliteEventStore({ file });
    for (let i = 0; i < events; i += 10) {
      await store.appendToStream(streamName('t1', 'patient', `p${i}`), Array.from({ length: 10 }, () => newEvent('t1', { text: 'x'.repeat(200) })), { expectedRevision: 'no_stream' });
    }
    await store.close();
  }

  async function assertRefusedUntouched(pattern: RegExp): Promise<void> {
    const before = fs.readFileSync(file);
    const siblings = fs.readdirSync(dir).sort();
    await assert.rejects(openSqliteEventStore({ file }), (err: unknown) => err instanceof EventStoreUnusableError && pattern.test(err.message));
    assert.ok(fs.readFileSync(file).equals(before), 'the file bytes are unchanged');
    assert.deepEqual(fs.readdirSync(dir).sort(), siblings, 'no file was added or removed beside it');
  }

  it('refuses a file that is not SQLite', async () => {
    fs.writeFileSync(file, 'patient,dry weight\nAna,61.5\n'.repeat(200));
    await assertRefusedUntouched(/not an SQLite database/);
  });

  it('refuses a corrupt SQLite file', async () => {
    await writeStoreFile();
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    assert.ok(bytes.length > pageSize * 6, 'the file has several pages to damage');
    bytes.fill(0xa5, pageSize * 3, pageSize * 5); // two b-tree pages overwritten with garbage
    fs.writeFileSync(file, bytes);
    await assertRefusedUntouched(/corrupt/);
  });

  it('refuses an unknown schema version', async () => {
    await writeStoreFile(20);
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    await assertRefusedUntouched(/schema version 99/);
  });

  it("refuses another application's SQLite database", async () => {
    const raw = new Database(file);
    raw.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    raw.close();
    await assertRefusedUntouched(/not this service's event log/);
  });

  it('initialises an empty file and creates missing parent directories', async () => {
    fs.writeFileSync(file, '');
    const empty = await openSqliteEventStore({ file });
    await empty.close();
    const nested = path.join(dir, 'a', 'b', 'events.sqlite');
    const store = await openSqliteEventStore({ file: nested });
    await store.appendToStream(streamName('t1', 'patient', 'p'), [newEvent('t1')], { expectedRevision: 'no_stream' });
    await store.close();
    const reopened = await openSqliteEventStore({ file: nested });
    assert.equal((await reopened.readAll()).length, 1);
    await reopened.close();
  });
});
