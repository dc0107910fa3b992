// What a backup or a restore refuses: a damaged archive (naming the member, placing nothing), a data directory a
// running service holds, stores that have their own backup tools, and a company user on the platform route; and
// what it never does: delete the files a stopped data directory held (they are moved aside).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/harness.js';
import { registration } from '../http/pacientesWorld.js';
import { backupStores, BackupUnsupportedError } from '../../src/ops/backup/onlineBackup.js';
import { restoreBackup } from '../../src/ops/backup/restoreBackup.js';
import { BackupArchiveError } from '../../src/ops/backup/backupArchive.js';
import { DataDirInUseError } from '../../src/ops/backup/dataDirIdle.js';
import { sqliteEventFile } from '../../src/stores/openEventStore.js';
import { LOCK_FILE } from '../../src/ops/serviceLock.js';

/** Flips one byte inside a member's data of a plain tar (headers are 512-byte blocks, data follows its header). */
async function damageMember(file: string, member: string): Promise<void> {
  const bytes = await fs.readFile(file);
  for (let at = 0; at + 512 <= bytes.length;) {
    const name = bytes
      .subarray(at, at + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    const size = parseInt(
      bytes
        .subarray(at + 124, at + 136)
        .toString('utf8')
        .replace(/\0.*$/s, '')
        .trim() || '0',
      8,
    );
    if (name === member) {
      bytes[at + 512 + Math.floor(size / 2)]! ^= 0xff;
      return fs.writeFile(file, bytes);
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`no member ${member} in ${file}`);
}

describe('online backup: refusals', function () {
  let tmp: string;
  let server: TestServer;
  let archive: string;
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-backup-refusals-'));
    server = await startTestServer();
    const token = await server.signInAndSelect(server.admin);
    assert.equal((await server.request('POST', '/pacientes', { token, body: registration() })).status, 201);
    assert.ok(await server.services.integrity.checkpoints.checkpointNow(server.admin.companyId)); // a signed chain head too
    archive = (await backupStores(server.services.config, path.join(tmp, 'good.tar'))).file;
  });
  after(async () => {
    await server?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  for (const member of ['events.sqlite', 'readmodels.sqlite', 'totp.key']) {
    it(`refuses an archive whose ${member} was damaged, naming it, and places nothing`, async () => {
      const damaged = path.join(tmp, `damaged-${member}.tar`);
      await fs.copyFile(archive, damaged);
      await damageMember(damaged, member);
      const dataDir = path.join(tmp, `target-${member}`);
      await assert.rejects(restoreBackup(damaged, dataDir), (err: Error) => {
        assert.ok(err instanceof BackupArchiveError, String(err));
        assert.equal(err.member, member);
        assert.match(err.message, new RegExp(`member ${member.replace('.', '\\.')} is damaged`));
        return true;
      });
      assert.deepEqual(await fs.readdir(dataDir), [], 'nothing placed, the staging copy removed');
    });
  }

  it('refuses a truncated archive', async () => {
    const truncated = path.join(tmp, 'truncated.tar');
    const bytes = await fs.readFile(archive);
    await fs.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await assert.rejects(restoreBackup(truncated, path.join(tmp, 'target-truncated')), BackupArchiveError);
  });

  it('refuses to restore onto the data directory of a running service, and leaves its files alone', async () => {
    const file = sqliteEventFile(server.dataDir);
    const before = await fs.stat(file);
    await assert.rejects(restoreBackup(archive, server.dataDir), (err: Error) => {
      assert.ok(err instanceof DataDirInUseError, String(err));
      assert.match(err.message, /in use.*stop it first/);
      return true;
    });
    assert.equal((await fs.stat(file)).ino, before.ino);
    assert.ok(!(await fs.readdir(server.dataDir)).some((n) => n.startsWith('replaced-') || n.startsWith('.restore-')));
  });

  it("refuses while another live process holds the data directory's lock (no lease needed), naming it", async () => {
    const dataDir = path.join(tmp, 'locked');
    await fs.mkdir(dataDir, { recursive: true });
    const holder = { pid: process.ppid, hostname: os.hostname(), startedAt: new Date().toISOString(), url: 'http://127.0.0.1:9' };
    await fs.writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify(holder));
    await assert.rejects(restoreBackup(archive, dataDir), (err: Error) => {
      assert.ok(err instanceof DataDirInUseError, String(err));
      assert.match(err.message, new RegExp(`process ${process.ppid} .*http://127\\.0\\.0\\.1:9`));
      return true;
    });
    assert.deepEqual(await fs.readdir(dataDir), [LOCK_FILE]);
  });

  it('moves the files of a stopped data directory aside before placing the copies', async () => {
    const dataDir = path.join(tmp, 'stopped');
    await restoreBackup(archive, dataDir);
    const first = await fs.stat(sqliteEventFile(dataDir));
    const second = await restoreBackup(archive, dataDir, { now: () => new Date('2026-01-02T03:04:05Z') });
    assert.equal(second.setAside, path.join(dataDir, 'replaced-20260102T030405Z'));
    assert.equal((await fs.stat(path.join(second.setAside, 'events.sqlite'))).ino, first.ino, 'the old log kept, not deleted');
    assert.deepEqual((await fs.readdir(second.setAside)).sort(), [
      'chain-checkpoints',
      'chain-signing.key',
      'events.sqlite',
      'jwt.key',
      'readmodels.sqlite',
      'totp.key',
    ]);
    const signed = `chain-checkpoints/${server.admin.companyId}.ndjson`;
    assert.equal(await fs.readFile(path.join(dataDir, signed), 'utf8'), await fs.readFile(path.join(server.dataDir, signed), 'utf8'));
  });

  it('refuses stores that have their own backup tools, naming them', async () => {
    const config = server.services.config;
    await assert.rejects(backupStores({ ...config, mongoUrl: 'mongodb://db.example' }, path.join(tmp, 'm.tar')), (err: Error) => {
      assert.ok(err instanceof BackupUnsupportedError);
      return /mongodump/.test(err.message);
    });
    await assert.rejects(backupStores({ ...config, eventStoreUrl: 'esdb://es.example:2113' }, path.join(tmp, 'e.tar')), /EventStoreDB/);
  });

  it('keeps the platform route from company users', async () => {
    const other = await server.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase 2');
    const token = await server.signInAndSelect(other);
    assert.equal((await server.request('POST', '/sistema/respaldos', { token })).status, 403);
    assert.equal((await server.request('GET', '/sistema/respaldos', { token })).status, 403);
  });
});
