// Bytes the access audit stores per audited read, for a nurse's shift as the web client reads records: every visit to
// a patient loads the record and its notes and loads them again within two seconds (refetch on focus, and after the
// write the visit makes); a few visits open a note as well. Before coalescing every read was one RecordAccessed event
// holding the whole entry; the figures are in the report of issue 7 section 4.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccessAuditWriter, accessLogStream, type AccessRecord } from '../../src/http/accessAudit.js';
import type { Logger } from '../../src/logger.js';
import type { EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const SHIFT_START = Date.parse('2026-11-23T07:00:00.000Z');
const TENANT = '5f0c8e2a9b7d4c1e8a3f6b2d9c4e7a10';
const NURSE = '0d6c3b0e-6d2a-4b8e-9c51-2f7a8e4b1c93';
const SESSION = 'b3e1f2a4-7c9d-4e6f-8a1b-2c3d4e5f6a7b';
const USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** 2 turns of 4 patients; per patient 13 visits: 3 before connection, one every 30 min for 4 h, 2 after. */
function nurseShift(): AccessRecord[] {
  const reads: AccessRecord[] = [];
  let correlation = 0;
  const read = (atMs: number, recordType: string, recordId: string, route: string): void => {
    const entry = { recordType, recordId, route, method: 'GET', status: 200, actor: NURSE, sessionId: SESSION, tenantId: TENANT };
    reads.push({
      ...entry,
      ip: '10.20.30.41',
      userAgent: USER_AGENT,
      correlationId: uuid(++correlation),
      at: new Date(atMs).toISOString(),
    });
  };
  for (let patient = 0; patient < 8; patient++) {
    const patientId = uuid(1000 + patient);
    const turnStart = SHIFT_START + (patient < 4 ? 0 : 5 * 3_600_000) + (patient % 4) * 120_000;
    const visits = [0, 4, 9, ...[1, 2, 3, 4, 5, 6, 7, 8].map((h) => 10 + h * 30), 255, 260].map((min) => turnStart + min * 60_000);
    visits.forEach((at, visit) => {
      for (const again of [0, 1_500]) {
        read(at + again, 'patient', patientId, '/pacientes/{id}');
        read(at + again + 200, 'nursingNoteList', patientId, '/pacientes/{id}/notas');
        if (visit === 0 || visit === 6 || visit === 12)
          read(at + again + 400, 'nursingNote', uuid(5000 + patient), '/pacientes/{id}/notas/{noteId}');
      }
    });
  }
  return reads;
}

const bytesOf = (data: unknown, metadata: unknown) => Buffer.byteLength(JSON.stringify(data)) + Buffer.byteLength(JSON.stringify(metadata));

/** One event per read, its data the whole entry (the format before coalescing). */
const bytesBefore = (reads: AccessRecord[]) =>
  reads.reduce((sum, r) => {
    const metadata = { tenantId: r.tenantId, actor: r.actor, sessionId: r.sessionId, correlationId: r.correlationId, causationId: null };
    return sum + bytesOf(r, { ...metadata, commandId: uuid(0), occurredAt: r.at, ip: r.ip, userAgent: r.userAgent, reason: null });
  }, 0);

describe('bytes per audited read', () => {
  let dir: string;
  let store: EventStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-bytes-'));
    store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stores well under half the bytes per read of a nurse's shift that it stored with one event per read", async () => {
    const reads = nurseShift();
    const writer = createAccessAuditWriter({ events: store, logger: quiet, flushIntervalMs: 60_000 });
    for (const read of reads) writer.record(read);
    await writer.close();
    const events = await store.readStream(accessLogStream(TENANT, reads[0]!.at));
    const after = events.reduce((sum, e) => sum + bytesOf(e.data, e.metadata), 0) / reads.length;
    const before = bytesBefore(reads) / reads.length;
    console.log(
      `      ${reads.length} reads, ${events.length} events: ${before.toFixed(0)} bytes per read before, ${after.toFixed(0)} after`,
    );
    assert.equal(
      events.reduce((sum, e) => sum + (e.data.count as number), 0),
      reads.length,
      'every read is counted',
    );
    assert.ok(after < before / 2, `${after} bytes per read`);
  });
});
