// Two stores on one SQLite file (two connections, as two processes would have): revision checks hold across
// them and a subscription sees the other writer's appends through its poll.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../../src/stores/eventStore.js';
import { WrongExpectedRevisionError, streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { newEvent, uniqueTenant, waitUntil } from '../support/eventFixtures.js';

describe('SQLite event store: one file, two writers', () => {
  let dir: string;
  let a: EventStore;
  let b: EventStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-shared-'));
    const file = path.join(dir, 'events.sqlite');
    a = await openSqliteEventStore({ file, pollMs: 50 });
    b = await openSqliteEventStore({ file, pollMs: 50 });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('checks expected revisions across connections', async () => {
    const tenant = uniqueTenant();
    const stream = streamName(tenant, 'patient', 'p1');
    await a.appendToStream(stream, [newEvent(tenant)], { expectedRevision: 'no_stream' });
    const results = await Promise.allSettled(
      [a, b, a, b].map((s) => s.appendToStream(stream, [newEvent(tenant)], { expectedRevision: 0 })),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof WrongExpectedRevisionError);
    assert.deepEqual(
      (await b.readStream(stream)).map((e) => e.revision),
      [0, 1],
    );
  });

  it("a subscription sees the other connection's appends", async () => {
    const tenant = uniqueTenant();
    const seen: RecordedEvent[] = [];
    const sub = b.subscribe({ tenant }, (e) => void seen.push(e));
    const written = [newEvent(tenant), newEvent(tenant), newEvent(tenant)];
    for (const [i, e] of written.entries()) {
      await a.appendToStream(streamName(tenant, 'patient', `p${i}`), [e], { expectedRevision: 'no_stream' });
    }
    await waitUntil(() => seen.length >= 3, "the other writer's events");
    await sub.stop();
    assert.deepEqual(
      seen.map((e) => e.id),
      written.map((e) => e.id),
    );
  });
});
