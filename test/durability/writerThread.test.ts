// The SQLite store's writer thread: once it runs the group commits, every outcome (success, conflict,
// idempotent retry, reused id, an append that cannot be serialised) is what the store's own connection gives,
// the rows are durable for a reader on another connection, and closing leaves the store's connection last.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { IdempotencyConflictError, WrongExpectedRevisionError, streamName, type AppendResult, type NewEvent } from '../../src/stores/eventStore.js';
import { openEventDatabase } from '../../src/stores/sqlite/sqliteSchema.js';
import { prepareStatements } from '../../src/stores/sqlite/sqliteStatements.js';
import type { AppendOutcome, PendingAppend } from '../../src/stores/sqlite/sqliteAppendBatch.js';
import { createStoreWriter, type BatchWriter } from '../../src/stores/sqlite/sqliteWriter.js';
import { newEvent, uniqueTenant, waitUntil } from '../support/eventFixtures.js';

const append = (stream: string, events: NewEvent[], expected: PendingAppend['expected']): PendingAppend =>
  ({ stream, events, expected, resolve: () => undefined, reject: () => undefined });

const okOf = (o: AppendOutcome): AppendResult => {
  if ('error' in o) throw o.error;
  return o.ok;
};

describe('SQLite event store: the writer thread', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let writer: BatchWriter;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-writer-'));
    file = path.join(dir, 'events.sqlite');
    db = openEventDatabase(file).db;
    writer = createStoreWriter({ file, db, st: prepareStatements(db), threadAfterMs: 0 });
    // The first batch runs here and starts the thread; later ones run there once it is ready.
    const tenant = uniqueTenant();
    okOf((await writer.write([append(streamName(tenant, 'patient', 'first'), [newEvent(tenant)], 'no_stream')]))[0]!);
    await waitUntil(() => writer.runsOn === 'thread', 'the writer thread');
  });
  afterEach(async () => {
    await writer.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives every outcome of a batch as the store connection would', async () => {
    const tenant = uniqueTenant();
    const stream = streamName(tenant, 'patient', 'p1');
    const first = newEvent(tenant);
    const [created] = await writer.write([append(stream, [first, newEvent(tenant)], 'no_stream')]);
    assert.equal(okOf(created!).nextExpectedRevision, 1);

    const outcomes = await writer.write([
      append(stream, [newEvent(tenant)], 1), // the next revision: written
      append(stream, [newEvent(tenant)], 1), // the same expected revision again: a conflict
      append(streamName(tenant, 'patient', 'p2'), [{ ...first, data: { other: true } }], 'any'), // a used id, other data
      append(streamName(tenant, 'patient', 'p3'), [{ ...newEvent(tenant), data: { n: 1n } as never }], 'any'), // not JSON
    ]);
    assert.equal(okOf(outcomes[0]!).nextExpectedRevision, 2);
    const conflict = 'error' in outcomes[1]! ? outcomes[1].error : null;
    assert.ok(conflict instanceof WrongExpectedRevisionError);
    assert.equal(conflict.actual, 2);
    assert.ok('error' in outcomes[2]! && outcomes[2].error instanceof IdempotencyConflictError);
    assert.ok('error' in outcomes[3]! && outcomes[3].error instanceof TypeError);
    const rows = db.prepare('SELECT revision FROM events WHERE stream = ? ORDER BY revision').all(stream) as { revision: number }[];
    assert.deepEqual(rows.map((r) => r.revision), [0, 1, 2]);
  });

  it('acknowledges a retry of a committed append without writing it twice', async () => {
    const tenant = uniqueTenant();
    const stream = streamName(tenant, 'patient', 'p1');
    const events = [newEvent(tenant), newEvent(tenant)];
    const [a] = await writer.write([append(stream, events, 'no_stream')]);
    const [b] = await writer.write([append(stream, events, 'no_stream')]);
    assert.deepEqual(okOf(b!), okOf(a!));
    assert.equal((db.prepare('SELECT count(*) AS n FROM events WHERE stream = ?').get(stream) as { n: number }).n, 2);
  });

  it('closes its connection before the store closes its own, which removes the WAL', async () => {
    await writer.close();
    db.close();
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.startsWith('events.sqlite-')), []);
    db = openEventDatabase(file).db; // for afterEach
  });
});
