// Group commit when the disk fills up mid-batch (SQLITE_FULL through max_page_count): SQLite may roll the whole
// transaction back. No batch member may then be written outside a transaction; the one at fault fails, the
// others are tried again in a fresh transaction, and what is reported is exactly what is in the file.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openEventDatabase } from '../../src/stores/sqlite/sqliteSchema.js';
import { prepareStatements } from '../../src/stores/sqlite/sqliteStatements.js';
import { createBatchWriter, type PendingAppend } from '../../src/stores/sqlite/sqliteAppendBatch.js';

const append = (name: string, blobBytes: number, events = 1): PendingAppend => ({
  stream: `fulltest.patient-${name}`,
  events: Array.from({ length: events }, (_, n) => ({
    id: randomUUID(),
    type: 'Noted',
    data: { n, blob: 'x'.repeat(blobBytes) },
    metadata: { tenantId: 'fulltest' } as never,
  })),
  expected: 'no_stream',
  resolve: () => undefined,
  reject: () => undefined,
});

describe('SQLite group commit on a full disk', () => {
  let dir: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'full-'));
    db = openEventDatabase(path.join(dir, 'events.sqlite')).db;
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fails only the append that did not fit, writes the others in a transaction, and reports what is in the file', () => {
    const write = createBatchWriter(db, prepareStatements(db));
    db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true })) + 4}`);
    const outcomes = write([append('a', 500), append('huge', 200_000, 3), append('c', 500)]);

    assert.equal(db.inTransaction, false);
    const stored = db.prepare('SELECT stream FROM events ORDER BY position').pluck().all() as string[];
    assert.deepEqual(stored, ['fulltest.patient-a', 'fulltest.patient-c']);
    assert.deepEqual(
      outcomes.map((o) => ('error' in o ? `failed ${(o.error as { code?: string }).code}` : 'ok')),
      ['ok', 'failed SQLITE_FULL', 'ok'],
    );
    // Each acknowledged append names its own row.
    const positions = outcomes.flatMap((o) => ('ok' in o ? [o.ok.position] : []));
    const rows = db.prepare('SELECT position FROM events ORDER BY position').pluck().all() as number[];
    assert.deepEqual(positions, rows.map(BigInt));
  });
});
