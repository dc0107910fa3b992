// While a start holds appends (the log is being checked and is not trusted), a write waits at most 2 s and then answers
// 503 problem+json writes-held with Retry-After; reads answer meanwhile; /ready says why. The check is made to last
// 4 s (TEST_INTEGRITY_CHECK_DELAY_MS, as a large log's can), over a log touched after its clean close (not trusted).
// A probe of /ready meanwhile is an expected 503: logged at warn, never as a server error.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/harness.js';
import { LIMITS } from '../../src/limits.js';
import type { LogLevel } from '../../src/logger.js';
import { accessLine, captureLogs } from './capturedLogs.js';
import { recordReconciliations } from '../../src/ops/startupProgress.js';

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
async function startWithSlowCheck(dataDir: string, delayMs: number, logLevel?: LogLevel): Promise<TestServer> {
  const saved = { env: process.env.NODE_ENV, delay: process.env.TEST_INTEGRITY_CHECK_DELAY_MS };
  process.env.NODE_ENV = 'test';
  process.env.TEST_INTEGRITY_CHECK_DELAY_MS = String(delayMs);
  try {
    return await startTestServer({ dataDir, ...(logLevel ? { logLevel } : {}) });
  } finally {
    if (saved.env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved.env;
    if (saved.delay === undefined) delete process.env.TEST_INTEGRITY_CHECK_DELAY_MS;
    else process.env.TEST_INTEGRITY_CHECK_DELAY_MS = saved.delay;
  }
}

/** A log with one patient, touched after its clean close: the next start checks it before it takes writes. Its token. */
async function untrustedLog(dataDir: string): Promise<string> {
  const first = await startTestServer({ dataDir });
  const token = await first.signInAndSelect(first.admin);
  assert.equal((await first.request('POST', '/pacientes', { token, body: registration(1) })).status, 201);
  await first.close();
  const file = path.join(dataDir, 'events.sqlite');
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(file, later, later); // touched after its clean close: its check holds appends
  return token;
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
    const token = await untrustedLog(dataDir);
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

  it('a probe of /ready while starting is an answer, not a fault (a warn access line, no error line); a line says when the answer changes', async () => {
    await untrustedLog(dataDir);
    const logs = captureLogs();
    try {
      server = await startWithSlowCheck(dataDir, 4_000, 'info');
      const probe = await server.request('GET', '/ready', { headers: { 'x-request-id': 'probe-starting' } });
      assert.equal(probe.status, 503, JSON.stringify(probe.body));
      assert.match(probe.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.equal(probe.headers['retry-after'], '5');
      const { checks, projections, ...problem } = probe.body as Record<string, unknown>;
      assert.deepEqual(problem, {
        type: '/problems/not-ready',
        title: 'Service Unavailable',
        status: 503,
        detail: 'The service is starting or a store is unavailable; see checks',
        instance: '/ready',
        correlationId: 'probe-starting',
      });
      assert.equal((checks as Record<string, unknown>).writes, 'held');
      assert.ok(Array.isArray(projections));

      const line = await accessLine(logs.lines, 'probe-starting');
      assert.deepEqual([line.level, line.route, line.status, line.problem], ['warn', '/ready', 503, 'not-ready']);
      const errors = logs.lines.filter((l) => l.level === 'error' && l.correlationId === 'probe-starting');
      assert.deepEqual(
        errors.map((l) => l.raw),
        [],
        'no error line (server error, error-level access) for an expected 503',
      );

      await (server.services.events as unknown as { integrity: Promise<void> }).integrity;
      const ready = await server.request('GET', '/ready', { headers: { 'x-request-id': 'probe-ready' } });
      assert.equal(ready.status, 200, JSON.stringify(ready.body));
      const readyLine = await accessLine(logs.lines, 'probe-ready');
      assert.deepEqual([readyLine.level, readyLine.status, 'problem' in readyLine], ['info', 200, false]);
      assert.equal((await server.request('GET', '/ready')).status, 200);
      // Not ready again (a reconciliation running, as a store down or a refill would): one warn line, then none a probe.
      recordReconciliations(server.services, () => ['orphaned-claims']);
      for (let probe = 0; probe < 2; probe++) assert.equal((await server.request('GET', '/ready')).status, 503);
      assert.deepEqual(
        logs.lines.filter((l) => /^(not )?ready: /.test(String(l.msg))).map((l) => [l.level, l.msg]),
        [
          ['info', 'ready: /ready answers 200'],
          ['warn', 'not ready: /ready answers 503'],
        ],
        'one line a change of answer, none a probe',
      );
    } finally {
      await server?.close(); // its closing lines are captured too
      server = null;
      logs.restore();
    }
  });
});
