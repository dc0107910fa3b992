// Durable appends per second with 1, 10 and 100 concurrent single-event writers, next to raw
// better-sqlite3 autocommit inserts with the same pragmas, measured in the same run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteEventStore } from '../src/stores/sqlite/sqliteEventStore.js';
import { eventId } from '../src/commands/eventIds.js';
import type { EventMetadata } from '../src/stores/eventStore.js';

export interface AppendFigures {
  writers: number;
  appendsPerSecond: number;
  rawInsertsPerSecond: number;
  ratio: number;
}

const DURATION_MS = 3000;

const metadata = (): EventMetadata => ({
  tenantId: 'bench',
  actor: 'bench',
  sessionId: null,
  correlationId: 'bench',
  causationId: null,
  commandId: 'bench',
  occurredAt: new Date().toISOString(),
  ip: null,
  userAgent: null,
  reason: null,
});

async function measureStore(writers: number): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-appends-'));
  const store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  let count = 0;
  const deadline = Date.now() + DURATION_MS;
  const writer = async (w: number) => {
    const stream = `bench.benchItem-${w}`;
    for (let rev = -1; Date.now() < deadline; rev++) {
      await store.appendToStream(
        stream,
        [
          {
            id: eventId('bench', `${w}`, rev + 1),
            type: 'BenchEventRecorded',
            data: { writer: w, n: rev + 1, note: 'x'.repeat(200) },
            metadata: metadata(),
          },
        ],
        { expectedRevision: rev < 0 ? 'no_stream' : rev },
      );
      count++;
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return count / seconds;
}

/** Raw better-sqlite3: one autocommit INSERT per event, WAL + synchronous=FULL (a durable commit, fsynced inline). */
function measureRaw(): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-raw-'));
  const db = new Database(path.join(dir, 'raw.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'CREATE TABLE events (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL, event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE(stream, revision))',
  );
  const insert = db.prepare('INSERT INTO events (stream, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  let count = 0;
  const deadline = Date.now() + DURATION_MS;
  const started = process.hrtime.bigint();
  const meta = JSON.stringify(metadata());
  while (Date.now() < deadline) {
    insert.run(
      'bench.benchItem-0',
      count,
      eventId('bench', 'raw', count),
      'BenchEventRecorded',
      JSON.stringify({ n: count, note: 'x'.repeat(200) }),
      meta,
    );
    count++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return count / seconds;
}

export async function benchAppends(): Promise<AppendFigures[]> {
  const raw = measureRaw();
  const out: AppendFigures[] = [];
  for (const writers of [1, 10, 100]) {
    const rate = await measureStore(writers);
    out.push({ writers, appendsPerSecond: Math.round(rate), rawInsertsPerSecond: Math.round(raw), ratio: Number((rate / raw).toFixed(2)) });
  }
  return out;
}
