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

  /**
   * A store file with some events, closed cleanly (WAL checkpointed into the main file); `sealed` false drops the
   * seal of that clean close, as a crash would, so the next open holds appends until the check passed.
   */
  async function writeStoreFile(events = 300, sealed = false): Promise<void> {
    const store = await openSqliteEventStore({ file });
    for (let i = 0; i < events; i += 10) {
      await store.appendToStream(
        streamName('t1', 'patient', `p${i}`),
        Array.from({ length: 10 }, () => newEvent('t1', { text: 'x'.repeat(200) })),
        { expectedRevision: 'no_stream' },
      );
    }
    await store.close();
    if (!sealed) fs.rmSync(`${file}.clean`);
  }

  async function assertRefusedUntouched(pattern: RegExp): Promise<void> {
    const before = fs.readFileSync(file);
    const siblings = fs.readdirSync(dir).sort();
    await assert.rejects(
      openSqliteEventStore({ file }),
      (err: unknown) => err instanceof EventStoreUnusableError && pattern.test(err.message),
    );
    assert.ok(fs.readFileSync(file).equals(before), 'the file bytes are unchanged');
    assert.deepEqual(fs.readdirSync(dir).sort(), siblings, 'no file was added or removed beside it');
  }

  it('refuses a file that is not SQLite', async () => {
    fs.writeFileSync(file, 'patient,dry weight\nAna,61.5\n'.repeat(200));
    await assertRefusedUntouched(/not an SQLite database/);
  });

  it('refuses to write into a file whose middle pages are corrupt (found by the background check)', async () => {
    await writeStoreFile(2000);
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    const pages = bytes.length / pageSize;
    assert.ok(pages > 40, 'the file has many pages');
    const middle = Math.floor(pages / 2);
    bytes.fill(0xa5, pageSize * middle, pageSize * (middle + 2)); // two b-tree pages overwritten with garbage
    fs.writeFileSync(file, bytes);
    const siblings = fs.readdirSync(dir).sort();

    // The header and schema are sound, so the open succeeds; the full check runs in the background.
    const store = await openSqliteEventStore({ file });
    const stream = streamName('t1', 'patient', 'late');
    const waiting = store.appendToStream(stream, [newEvent('t1')], { expectedRevision: 'no_stream' });
    const isCorrupt = (err: unknown) => err instanceof EventStoreUnusableError && /corrupt/.test(err.message);
    await assert.rejects(waiting, isCorrupt, 'an append issued during the check waits for it, then fails');
    const integrity = (store as { integrity?: Promise<void> }).integrity;
    assert.ok(integrity, 'the SQLite store exposes its integrity check');
    await assert.rejects(integrity, isCorrupt);
    assert.equal((store as { integrityState?: string }).integrityState, 'failed');
    await assert.rejects(
      store.appendToStream(stream, [newEvent('t1')], { expectedRevision: 'no_stream' }),
      isCorrupt,
      'later appends fail at once',
    );
    await store.close();

    assert.ok(fs.readFileSync(file).equals(bytes), 'the file bytes are unchanged');
    assert.deepEqual(fs.readdirSync(dir).sort(), siblings, 'no file was added or removed beside it');
  });

  it('refuses at open a file whose schema page is corrupt', async () => {
    await writeStoreFile();
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0xa5, 100, pageSize); // page 1 after the 100-byte header: the sqlite_schema b-tree
    fs.writeFileSync(file, bytes);
    await assertRefusedUntouched(/corrupt/);
  });

  it('lets appends through once the background check of a sound file has passed', async () => {
    await writeStoreFile(20);
    const store = await openSqliteEventStore({ file });
    const stream = streamName('t1', 'patient', 'after-check');
    const appended = store.appendToStream(stream, [newEvent('t1')], { expectedRevision: 'no_stream' });
    await (store as { integrity?: Promise<void> }).integrity;
    assert.equal((store as { integrityState?: string }).integrityState, 'ok');
    assert.equal((await appended).nextExpectedRevision, 0);
    assert.equal((await store.readAll({ maxCount: 100 })).length, 21);
    await store.close();
  });

  it('serves appends at once from a file it closed cleanly after verifying it, and checks it meanwhile', async () => {
    await writeStoreFile(20, true);
    assert.ok(fs.existsSync(`${file}.clean`), 'the clean close sealed the file');
    const store = await openSqliteEventStore({ file });
    assert.equal((store as { integrityState?: string }).integrityState, 'ok', 'no wait for the check');
    assert.ok(!fs.existsSync(`${file}.clean`), 'the seal is used up: a crash now leaves none');
    await store.appendToStream(streamName('t1', 'patient', 'at-once'), [newEvent('t1')], { expectedRevision: 'no_stream' });
    await (store as { integrity?: Promise<void> }).integrity; // the check still ran
    await store.close();
    assert.ok(fs.existsSync(`${file}.clean`), 'verified in this run, so sealed again');
  });

  it('holds appends for the check when the file changed after its clean close', async () => {
    await writeStoreFile(20, true);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later); // touched behind the store's back (a restore, an edit)
    const store = await openSqliteEventStore({ file });
    assert.equal((store as { integrityState?: string }).integrityState, 'checking');
    await (store as { integrity?: Promise<void> }).integrity;
    await store.close();
  });

  it('close() during the check ends it and rejects the appends still waiting, writing nothing', async () => {
    await writeStoreFile(20);
    const before = fs.readFileSync(file);
    const store = await openSqliteEventStore({ file });
    const waiting = store.appendToStream(streamName('t1', 'patient', 'never'), [newEvent('t1')], { expectedRevision: 'no_stream' });
    const settled = Promise.allSettled([waiting]);
    await store.close();
    const [outcome] = await settled;
    // The check of a small file may finish before close() stops it; then the append was written first.
    if (outcome.status === 'rejected') {
      assert.match(String(outcome.reason), /closed/);
      assert.ok(fs.readFileSync(file).equals(before), 'nothing was written');
    }
    const reopened = await openSqliteEventStore({ file });
    assert.equal((await reopened.readAll({ maxCount: 100 })).length, outcome.status === 'fulfilled' ? 21 : 20);
    await reopened.close();
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
