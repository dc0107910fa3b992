// `ops verify`: a clean store verifies intact (through the service, the read audited as ops:<user>; offline, every
// chain), and after one byte of an event is edited in the file it exits 1 naming that event.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { accessLogStream, RECORD_ACCESSED } from '../../src/http/accessAudit.js';
import { sqliteEventFile } from '../../src/stores/openEventStore.js';
import { startTestServer } from '../support/harness.js';
import { runOps } from '../support/opsCli.js';
import { registration } from '../http/pacientesWorld.js';

describe('ops verify', function () {
  this.timeout(60_000);
  let dataDir: string;
  let companyId: string;
  let patientEventId: string;
  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-ops-verify-'));
    const server = await startTestServer({ dataDir });
    try {
      companyId = server.admin.companyId;
      const token = await server.signInAndSelect(server.admin);
      const answer = await server.request('POST', '/pacientes', { token, body: registration({ familyNames: 'Rojas Vera' }) });
      assert.equal(answer.status, 201);
      const events = await server.services.events.readAll({ tenant: companyId });
      patientEventId = events.find((e) => JSON.stringify(e.data).includes('Rojas Vera'))!.id;
    } finally {
      await server.close();
    }
  });
  after(async () => fs.rm(dataDir, { recursive: true, force: true }));

  it("through the running service: a company's chain is intact, and the verification is an audited read by ops:<user>", async () => {
    const server = await startTestServer({ dataDir });
    try {
      const run = await runOps(dataDir, ['--json', 'verify', companyId]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(run.json.mode, 'service');
      const [v] = run.json.verifications;
      assert.equal(v.state, 'intact');
      assert.equal(v.checked, v.total);
      assert.match(v.requestedBy, /^ops:/);
      await server.flushAccessAudit();
      const log = await server.services.events.readStream(accessLogStream('platform', server.services.now().toISOString()));
      const entry = log.find((e) => e.type === RECORD_ACCESSED && e.data.recordId === companyId);
      assert.ok(entry, 'an access entry for the event log read');
      assert.equal(entry.data.recordType, 'eventLog');
      assert.match(entry.metadata.actor, /^ops:/);
    } finally {
      await server.close();
    }
  });

  it('offline: every chain intact with progress; after a byte is edited, exit 1 naming the event', async () => {
    const clean = await runOps(dataDir, ['verify', '--progress', 'lines']);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /service stopped/);
    assert.match(clean.stdout, /^platform: intact \(\d+ events\)$/m);
    assert.match(clean.stdout, new RegExp(`^${companyId}: intact \\(\\d+ events\\)$`, 'm'));
    assert.match(clean.stderr, new RegExp(`verify ${companyId}: 100\\.0%`));

    const file = new Database(sqliteEventFile(dataDir));
    const changed = file.prepare(`UPDATE events SET data = replace(data, 'Rojas', 'R0jas') WHERE event_id = ?`).run(patientEventId).changes;
    file.close();
    assert.equal(changed, 1);

    const tampered = await runOps(dataDir, ['verify', companyId]);
    assert.equal(tampered.code, 1);
    assert.match(tampered.stdout, new RegExp(`${companyId}: BROKEN at position \\d+: event ${patientEventId}`));
    const json = await runOps(dataDir, ['--json', 'verify', companyId]);
    assert.equal(json.code, 1);
    assert.equal(json.json.ok, false);
    assert.equal(json.json.verifications[0].brokenLink.eventId, patientEventId);
  });
});
