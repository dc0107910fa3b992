// While a start holds appends (the log is being checked and is not trusted), a write waits at most 2 s and then answers
// 503 problem+json writes-held with Retry-After; reads answer meanwhile; /ready says why. The check is made to last
// 4 s (TEST_INTEGRITY_CHECK_DELAY_MS, as a large log's can), over a log touched after its clean close (not trusted).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/harness.js';
import { LIMITS } from '../../src/limits.js';

const registration = (n: number) => ({
  documentType: 'DNI',
  documentNumber: String(71_000_000 + n),
  givenNames: 'Rosa Elena',
  familyNames: 'Mamani Flores',
  sex: 'female',
  birthDate: '1958-03-14',
  admissionDate: '2024-06-01',
  etiology: 'hypertensive nephropathy',
  dryWeightKg: 61.5,
});

/** Starts a server whose event log check lasts `delayMs` (NODE_ENV=test only, read when the check starts). */
async function startWithSlowCheck(dataDir: string, delayMs: number): Promise<TestServer> {
  const saved = { env: process.env.NODE_ENV, delay: process.env.TEST_INTEGRITY_CHECK_DELAY_MS };
  process.env.NODE_ENV = 'test';
  process.env.TEST_INTEGRITY_CHECK_DELAY_MS = String(delayMs);
  try {
    return await startTestServer({ dataDir });
  } finally {
    if (saved.env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved.env;
    if (saved.delay === undefined) delete process.env.TEST_INTEGRITY_CHECK_DELAY_MS;
    else process.env.TEST_INTEGRITY_CHECK_DELAY_MS = saved.delay;
  }
}

describe('writes held at start: a bounded wait, then 503 writes-held with Retry-After', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: TestServer | null = null;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-write-hold-'))));
  afterEach(async () => {
    await server?.close();
    server = null;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a write 503 problem+json with Retry-After while the log is checked, serves reads, and says why on /ready', async () => {
    const first = await startTestServer({ dataDir });
    const token = await first.signInAndSelect(first.admin);
    assert.equal((await first.request('POST', '/pacientes', { token, body: registration(1) })).status, 201);
    await first.close();
    const file = path.join(dataDir, 'events.sqlite');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later); // touched after its clean close: its check holds appends

    server = await startWithSlowCheck(dataDir, 4_000);
    const started = Date.now();
    const write = await server.request('POST', '/pacientes', { token, body: registration(2) });
    const waited = Date.now() - started;
    assert.equal(write.status, 503, JSON.stringify(write.body));
    assert.match(write.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(write.headers['retry-after'], String(LIMITS.startupWrites.retryAfterSeconds));
    assert.equal(write.body.type, '/problems/writes-held');
    assert.equal(write.body.status, 503);
    assert.equal(write.body.reason, 'integrity-check');
    assert.ok(waited >= LIMITS.startupWrites.maxWaitMs - 50, `the write waited for the check first (${waited} ms)`);

    const ready = await server.request('GET', '/ready');
    assert.equal(ready.status, 503);
    assert.equal(ready.body.checks.writes, 'held');
    assert.equal(ready.body.checks.integrityCheck, 'running');
    assert.equal(ready.body.checks.eventStore, 'checking', 'the existing check is kept');
    assert.equal(typeof ready.body.checks.projectionsLag, 'number');

    const list = await server.request('GET', '/pacientes', { token });
    assert.equal(list.status, 200, 'reads are served while writes are held');
    assert.equal(list.body.items.length, 1);

    await (server.services.events as unknown as { integrity: Promise<void> }).integrity;
    assert.equal((await server.request('POST', '/pacientes', { token, body: registration(3) })).status, 201);
    const after = await server.request('GET', '/ready');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.deepEqual(
      {
        writes: after.body.checks.writes,
        integrityCheck: after.body.checks.integrityCheck,
        reconciliation: after.body.checks.reconciliation,
      },
      { writes: 'accepted', integrityCheck: 'passed', reconciliation: 'done' },
    );
  });
});
