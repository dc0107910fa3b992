// SQLite subscriptions at one position share the page read after a commit, events included (one read, one parse), and
// the data and metadata of an event are parsed only when a handler reads them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../../src/stores/eventStore.js';
import { streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { newEvent, uniqueTenant, waitUntil } from '../support/eventFixtures.js';

describe('SQLite subscriptions: shared pages', () => {
  let dir: string;
  let store: EventStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-pages-'));
    store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollMs: 60_000 });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands every subscription at one position the same events, parsed once and only when read', async () => {
    const tenant = uniqueTenant();
    const seen: RecordedEvent[][] = [[], [], []];
    const subs = seen.map((mine) => store.subscribe({ after: 0n }, (e) => void mine.push(e)));
    for (let i = 0; i < 3; i++) {
      await store.appendToStream(streamName(tenant, 'patient', `p${i}`), [newEvent(tenant, { i })], { expectedRevision: 'no_stream' });
      await waitUntil(() => seen.every((mine) => mine.length === i + 1), `event ${i}`);
    }
    for (const sub of subs) await sub.stop();
    for (let i = 0; i < 3; i++) {
      const [a, b, c] = seen.map((mine) => mine[i]!) as [RecordedEvent, RecordedEvent, RecordedEvent];
      assert.ok(a === b && b === c, `event ${i} read once for all`);
      assert.equal(typeof Object.getOwnPropertyDescriptor(a, 'data')?.get, 'function', 'data parsed on first use');
      assert.equal(a.data.i, i);
      assert.equal(a.data, c.data, 'and kept');
      assert.equal(a.metadata.tenantId, tenant);
      assert.deepEqual({ ...a }.data, { value: 1, i });
    }
  });
});
