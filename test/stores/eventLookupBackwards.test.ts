// The lookup by id that the EventStoreDB adapter uses (no index of ids there): the stream read backwards in pages, run
// here over a real SQLite store's reads, finds an event on any page, in its stream only, and reads no further than it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findEventReadingBackwards } from '../../src/stores/eventLookup.js';
import { openSqliteEventStore, type SqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { streamName, type ReadStreamOptions } from '../../src/stores/eventStore.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';

describe('finding an event by id reading the stream backwards', () => {
  let dir: string;
  let store: SqliteEventStore;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'event-lookup-'));
    store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  });
  after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds an event on the first, a middle or the last page, null elsewhere, and stops at the page holding it', async () => {
    const tenant = uniqueTenant();
    const stream = streamName(tenant, 'patient', 'p1');
    const events = Array.from({ length: 1234 }, (_, i) => newEvent(tenant, { i }));
    await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
    let read = 0;
    const counted = async (s: string, o: ReadStreamOptions) => {
      const page = await store.readStream(s, o);
      read += page.length;
      return page;
    };
    for (const revision of [1233, 734, 733, 500, 0]) {
      read = 0;
      const found = await findEventReadingBackwards(counted, stream, events[revision]!.id.toUpperCase());
      assert.equal(found?.revision, revision);
      assert.equal(found?.id, events[revision]!.id);
      assert.ok(read <= 1234 - revision + 500, `read ${read} events to find revision ${revision}`);
    }
    assert.equal(await findEventReadingBackwards(counted, stream, newEvent(tenant).id), null);
    assert.equal(await findEventReadingBackwards(counted, streamName(tenant, 'patient', 'p2'), events[5]!.id), null);
  });
});
