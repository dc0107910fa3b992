// The access audit writer over a real SQLite store: appends stay under the byte limit an event store imposes
// (EventStoreDB: 1 MiB per append), and one stream that keeps failing never blocks the others' audit.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccessAuditWriter, accessLogStream, type AccessRecord } from '../../src/http/accessAudit.js';
import { LIMITS } from '../../src/limits.js';
import type { Logger } from '../../src/logger.js';
import type { EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';

/** Polls until `condition` holds; a bounded wait for asynchronous delivery, never a timing assertion. */
async function waitUntilAsync(condition: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const AT = '2026-11-22T10:00:00.000Z';
const read = (tenantId: string, n: number, userAgent = 'Mozilla/5.0'): AccessRecord => ({
  recordType: 'patient',
  recordId: `p${n}`,
  route: '/pacientes/{id}',
  method: 'GET',
  status: 200,
  actor: 'nurse-1',
  sessionId: 's1',
  tenantId,
  ip: '10.0.0.1',
  userAgent,
  correlationId: `c${n}`,
  at: AT,
});

describe('access audit batches', () => {
  let dir: string;
  let store: EventStore;
  const logged: { level: string; msg: string }[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (msg) => void logged.push({ level: 'warn', msg }),
    error: (msg) => void logged.push({ level: 'error', msg }),
  };
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'));
    store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    logged.length = 0;
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('splits a batch of long entries so that no append exceeds the byte limit, and writes them all', async () => {
    const sizes: number[] = [];
    const measured: EventStore = Object.create(store) as EventStore;
    measured.appendToStream = (stream, events, options) => {
      sizes.push(Buffer.byteLength(JSON.stringify(events)));
      return store.appendToStream(stream, events, options);
    };
    const writer = createAccessAuditWriter({ events: measured, logger, flushIntervalMs: 10_000 });
    for (let n = 0; n < 500; n++) writer.record(read('tenantA', n, 'X'.repeat(4000)));
    await writer.close();
    assert.ok(sizes.length > 1, 'several appends');
    assert.ok(Math.max(...sizes) <= LIMITS.accessAudit.maxAppendBytes, `largest append ${Math.max(...sizes)} bytes`);
    assert.equal((await store.readStream(accessLogStream('tenantA', AT))).length, 500);
  });

  it('keeps writing the other tenants while one stream keeps failing, and sets the failing entries aside', async () => {
    const poisoned = accessLogStream('tenantBad', AT);
    const failing: EventStore = Object.create(store) as EventStore;
    failing.appendToStream = (stream, events, options) =>
      stream === poisoned ? Promise.reject(new Error('append refused')) : store.appendToStream(stream, events, options);
    const writer = createAccessAuditWriter({ events: failing, logger, flushIntervalMs: 1, maxBatch: 4 });
    for (let n = 0; n < 10; n++) writer.record(read(n % 2 === 0 ? 'tenantBad' : 'tenantGood', n));
    for (let attempt = 0; attempt < 20 && writer.pending > 0; attempt++) await writer.flush();
    for (let n = 10; n < 14; n++) writer.record(read('tenantGood', n));
    await writer.flush();
    assert.equal((await store.readStream(accessLogStream('tenantGood', AT))).length, 9);
    assert.equal(writer.pending, 0, 'the failing entries do not stay queued forever');
    assert.ok(logged.some((l) => l.level === 'error' && /set aside/.test(l.msg)));
  });

  it("writes the other tenants' entries on time while one stream backs off", async () => {
    const poisoned = accessLogStream('tenantBad', AT);
    const failing: EventStore = Object.create(store) as EventStore;
    failing.appendToStream = (stream, events, options) =>
      stream === poisoned ? Promise.reject(new Error('append refused')) : store.appendToStream(stream, events, options);
    const writer = createAccessAuditWriter({ events: failing, logger, flushIntervalMs: 20, coalesceWindowMs: 0 });
    // The poisoned stream fails again and again: its backoff grows to seconds (20 ms doubled per failure).
    for (let n = 0; n < 12; n++) {
      writer.record(read('tenantBad', n));
      await writer.flush();
    }
    await new Promise((r) => setTimeout(r, 100)); // the timers set meanwhile have fired
    for (let n = 0; n < 3; n++) writer.record(read('tenantGood', n));
    const good = accessLogStream('tenantGood', AT);
    await waitUntilAsync(async () => (await store.readStream(good)).length === 3, 'the good tenant written at its own pace', 10_000);
    await writer.close();
  });

  it('folds repeated reads of one record by the same actor within the window into one event with a count', async () => {
    const writer = createAccessAuditWriter({ events: store, logger, flushIntervalMs: 10_000 });
    const at = (seconds: number) => new Date(Date.parse(AT) + seconds * 1000).toISOString();
    for (let n = 0; n < 50; n++) writer.record({ ...read('tenantA', 1), correlationId: `c${n}`, at: at(n * 0.1) });
    writer.record({ ...read('tenantA', 1), actor: 'nurse-2' }); // someone else
    writer.record({ ...read('tenantA', 2) }); // another record
    const windowSeconds = LIMITS.accessAudit.coalesceWindowMs / 1000;
    writer.record({ ...read('tenantA', 1), at: at(windowSeconds + 1) }); // after the window: a new event
    await writer.close();
    const events = await store.readStream(accessLogStream('tenantA', AT));
    assert.deepEqual(
      events.map((e) => [e.metadata.actor, e.data.recordId, e.data.count, e.metadata.occurredAt, e.data.lastAt]).sort(),
      [
        ['nurse-2', 'p1', 1, AT, AT],
        ['nurse-1', 'p2', 1, AT, AT],
        ['nurse-1', 'p1', 50, AT, at(4.9)],
        ['nurse-1', 'p1', 1, at(windowSeconds + 1), at(windowSeconds + 1)],
      ].sort(),
    );
  });
});
