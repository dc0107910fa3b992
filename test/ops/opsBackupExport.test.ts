// `ops backup|restore|export|import`: a backup taken through the running service restores (offline, the lock held) into
// a fresh data directory whose service answers the same patient; a restore is refused while a service runs; a company
// exported through the running service imports into an empty data directory whose service answers its patient. Each
// action is an operator event (ops:<user>, with the reason where one is asked).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { grantMembership } from '../../src/commands/platform/platformWrites.js';
import { EVENTS_PART, RECORDS_PART } from '../../src/ops/exportFormat.js';
import { TOTP_PERIOD_SECONDS } from '../../src/auth/totp.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { runOps } from '../support/opsCli.js';
import { registration } from '../http/pacientesWorld.js';

/** A clock well after the source's: the copied store's used TOTP steps are behind it. */
const later = () => new Date(Math.floor(Date.now() / (TOTP_PERIOD_SECONDS * 1000) + 20) * TOTP_PERIOD_SECONDS * 1000 + 1000);

async function operatorEvent(server: TestServer, type: string) {
  const found = (await server.services.events.readAll({ tenant: 'platform' })).filter((e) => e.type === type);
  assert.equal(found.length, 1, `one ${type}`);
  assert.match(found[0]!.metadata.actor, /^ops:/);
  return found[0]!;
}

describe('ops backup, restore, export, import', function () {
  this.timeout(120_000);
  let dataDir: string;
  let work: string;
  let server: TestServer;
  let companyId: string;
  let patientId: string;
  const dirs: string[] = [];
  const freshDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-ops-target-'));
    dirs.push(dir);
    return dir;
  };
  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-ops-backup-'));
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-ops-files-'));
    server = await startTestServer({ dataDir });
    companyId = server.admin.companyId;
    const token = await server.signInAndSelect(server.admin);
    const answer = await server.request('POST', '/pacientes', { token, body: registration({ familyNames: 'Quispe Mamani' }) });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    patientId = answer.body.id as string;
  });
  after(async () => {
    await server?.close();
    for (const dir of [dataDir, work, ...dirs]) await fs.rm(dir, { recursive: true, force: true });
  });

  async function patientOn(dir: string, tenant: string, grant: boolean): Promise<string> {
    const target = await startTestServer({ dataDir: dir, startAt: later() });
    try {
      if (grant) {
        const granted = await grantMembership(
          target.services,
          { companyId: tenant, userId: target.admin.userId, roles: ['admin'] },
          { actor: 'system' },
        );
        await target.services.projections.waitFor(granted.position!);
      }
      const token = await target.signInAndSelect({ ...target.admin, companyId: tenant });
      for (let tries = 0; ; tries++) {
        const answer = await target.request('GET', `/pacientes/${patientId}`, { token });
        if (answer.status === 200 || tries > 100) {
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          return JSON.stringify(answer.body);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await target.close();
    }
  }

  it('backup through the running service (0600, audited), restore refused while it runs, restored offline elsewhere', async () => {
    const file = path.join(work, 'nightly.tar');
    const backup = await runOps(dataDir, ['--json', 'backup', file]);
    assert.equal(backup.code, 0, backup.stdout + backup.stderr);
    assert.equal(backup.json.mode, 'service');
    assert.equal(backup.json.backup.file, file);
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    assert.equal((await fs.stat(file)).size, backup.json.backup.size);
    assert.deepEqual(await fs.readdir(path.join(dataDir, 'backups')), [], 'moved out of DATA_DIR/backups');
    const taken = await operatorEvent(server, 'BackupTaken');
    assert.equal(taken.data.headPosition, backup.json.backup.headPosition);

    const refused = await runOps(dataDir, ['restore', file, '--reason', 'drill']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`process ${process.pid}.*${server.url}`));

    const target = await freshDir();
    const noReason = await runOps(target, ['restore', file]);
    assert.notEqual(noReason.code, 0);
    assert.match(noReason.stderr, /--reason/);
    const restored = await runOps(target, ['--json', '--progress', 'lines', 'restore', file, '--reason', 'restore drill']);
    assert.equal(restored.code, 0, restored.stdout + restored.stderr);
    assert.equal(restored.json.mode, 'offline');
    assert.equal(restored.json.restore.headPosition, backup.json.backup.headPosition);
    assert.match(restored.stderr, /restore: 100\.0%/);
    await fs.access(path.join(target, 'service.lock')).then(
      () => assert.fail('the lock is released'),
      () => undefined,
    );

    const source = await server.request('GET', `/pacientes/${patientId}`, { token: await server.signInAndSelect(server.admin) });
    assert.equal(await patientOn(target, companyId, false), JSON.stringify(source.body));
    const check = await startTestServer({ dataDir: target, startAt: later() });
    try {
      const event = await operatorEvent(check, 'BackupRestored');
      assert.equal(event.metadata.reason, 'restore drill');
      assert.equal(event.data.headPosition, backup.json.backup.headPosition);
    } finally {
      await check.close();
    }
    const offline = await runOps(target, ['--json', 'backup', path.join(work, 'offline.tar')]);
    assert.equal(offline.code, 0, offline.stdout + offline.stderr);
    assert.equal(offline.json.mode, 'offline');
    assert.equal((await fs.stat(path.join(work, 'offline.tar'))).mode & 0o777, 0o600);
    assert.equal((await runOps(target, ['backup', path.join(work, 'offline.tar')])).code, 1, 'an existing file is kept');
  });

  it('export through the running service (audited), import into an empty data directory answers the patient', async () => {
    const out = path.join(work, 'export');
    const exported = await runOps(dataDir, ['--json', '--progress', 'lines', 'export', companyId, out]);
    assert.equal(exported.code, 0, exported.stdout + exported.stderr);
    assert.equal(exported.json.mode, 'service');
    assert.equal(exported.json.export.state, 'ready');
    assert.match(exported.stderr, /export .*100\.0%/);
    for (const part of [EVENTS_PART, RECORDS_PART]) assert.ok((await fs.stat(path.join(out, part))).size > 0, part);
    const audit = (await server.services.events.readAll({ tenant: companyId })).filter((e) => e.type === 'CompanyExported');
    assert.equal(audit.length, 1);
    assert.match(audit[0]!.metadata.actor, /^ops:/);
    const unknown = await runOps(dataDir, ['export', 'nadie', out]);
    assert.equal(unknown.code, 1);

    const empty = await freshDir();
    const refused = await runOps(dataDir, ['import', path.join(out, EVENTS_PART), '--reason', 'move']);
    assert.equal(refused.code, 1, 'not while a service runs');
    const imported = await runOps(empty, ['--json', 'import', path.join(out, EVENTS_PART), '--reason', 'moved to a new host']);
    assert.equal(imported.code, 0, imported.stdout + imported.stderr);
    assert.equal(imported.json.mode, 'offline');
    assert.equal(imported.json.import.tenant, companyId);
    assert.equal(imported.json.import.sameChain, true);
    assert.ok(imported.json.import.events > 0);

    const source = await server.request('GET', `/pacientes/${patientId}`, { token: await server.signInAndSelect(server.admin) });
    assert.equal(await patientOn(empty, companyId, true), JSON.stringify(source.body));
    const check = await startTestServer({ dataDir: empty, startAt: later() });
    try {
      const event = await operatorEvent(check, 'CompanyImported');
      assert.equal(event.metadata.reason, 'moved to a new host');
      assert.equal(event.data.tenant, companyId);
    } finally {
      await check.close();
    }
  });
});
