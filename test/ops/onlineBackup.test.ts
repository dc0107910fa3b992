// Online backup under write load: patients are registered over HTTP while a backup is taken through the library and
// through the platform route; each archive, restored into a fresh data directory, starts a service that answers every
// write acknowledged at or before the backup's head, with the log's integrity and chain intact and the read models
// caught up and equal to a rebuild.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';
import { registration } from '../http/pacientesWorld.js';
import { consistencyTokens } from '../../src/http/consistencyToken.js';
import { backgroundIntegrityOf } from '../../src/stores/sqlite/integrityCheck.js';
import { backupStores, type BackupProgress } from '../../src/ops/backup/onlineBackup.js';
import { restoreBackup } from '../../src/ops/backup/restoreBackup.js';
import { manifestOf } from '../../src/ops/backup/backupsDirectory.js';
import { READ_STORE_FILE } from '../../src/stores/openReadStore.js';
import Database from 'better-sqlite3';

interface Acked {
  id: string;
  position: bigint;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!ok()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function patientList(server: TestServer, token: string): Promise<ApiJson[]> {
  const items: ApiJson[] = [];
  let cursor: string | null = null;
  do {
    const page = await server.request('GET', `/pacientes?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    items.push(...(page.body.items as ApiJson[]));
    cursor = page.body.nextCursor as string | null;
  } while (cursor);
  return items;
}

/** Every document serving reads, by projection and logical collection (the version and rebuild suffix left out). */
function readModels(dataDir: string): Record<string, unknown[]> {
  const db = new Database(path.join(dataDir, READ_STORE_FILE), { readonly: true });
  try {
    const tableOf = (name: string) =>
      db.prepare<[string], { tbl: string }>('SELECT tbl FROM read_collections WHERE name = ?').get(name)!.tbl;
    const checkpoints = db
      .prepare(`SELECT doc FROM ${tableOf('projection_checkpoints')}`)
      .pluck()
      .all() as string[];
    const out: Record<string, unknown[]> = {};
    for (const checkpoint of checkpoints.map((c) => JSON.parse(c) as { id: string; suffix: string; collections: string[] })) {
      for (const full of checkpoint.collections) {
        const rows = db.prepare(`SELECT tenant_id, id, doc FROM ${tableOf(full)} ORDER BY tenant_id, id`).all();
        out[`${checkpoint.id}/${full.slice(0, full.length - checkpoint.suffix.length)}`] = rows;
      }
    }
    return out;
  } finally {
    db.close();
  }
}

async function verifyChain(server: TestServer, token: string): Promise<ApiJson> {
  const started = await server.request('POST', '/sistema/integridad/verificacion', { token });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  for (;;) {
    const status = await server.request('GET', started.headers.location!, { token });
    if (status.body.state !== 'running') return status.body;
    await sleep(20);
  }
}

describe('online backup and restore under write load', function () {
  let tmp: string;
  let server: TestServer | undefined;
  before(async () => (tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-backup-'))));
  after(async () => {
    await server?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('restores every acknowledged write up to the head of a backup taken through the library and through the route', async () => {
    server = await startTestServer();
    const running = server;
    const token = await running.signInAndSelect(running.admin);
    const platform = (await running.signIn(running.admin.email, running.admin.password, running.admin.totpSecret)).accessToken;
    const tokens = await consistencyTokens(running.services);
    const acked: Acked[] = [];
    let writing = true;
    const writer = async (): Promise<void> => {
      while (writing) {
        const answer = await running.request('POST', '/pacientes', { token, body: registration() });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        acked.push({ id: answer.body.id as string, position: tokens.open(answer.headers['x-event-position']!)! });
      }
    };
    const writers = [writer(), writer(), writer()];

    await until('writes before the first backup', () => acked.length >= 30);
    const stages: BackupProgress[] = [];
    const viaLibrary = await backupStores(running.services.config, path.join(tmp, 'library.tar'), { onProgress: (p) => stages.push(p) });
    const afterLibrary = acked.length;
    await until('writes between the backups', () => acked.length >= afterLibrary + 30);
    const viaRoute = await running.request('POST', '/sistema/respaldos', { token: platform });
    assert.equal(viaRoute.status, 201, JSON.stringify(viaRoute.body));
    const afterRoute = acked.length;
    await until('writes after the backups', () => acked.length >= afterRoute + 10);
    writing = false;
    await Promise.all(writers);

    assert.deepEqual([...new Set(stages.map((s) => s.stage))], ['keys', 'read-store', 'event-log', 'archive']);
    assert.ok(
      acked.some((a) => a.position > BigInt(viaLibrary.manifest.headPosition)),
      'writes went on during and after the backup',
    );
    assert.equal((await fs.stat(viaLibrary.file)).mode & 0o777, 0o600, 'the archive holds the keys: private');
    const listed = await running.request('GET', '/sistema/respaldos', { token: platform });
    assert.deepEqual(listed.body.items, [viaRoute.body]);
    const routeFile = path.join(tmp, 'route.tar');
    await fs.copyFile(path.join(running.dataDir, 'backups', viaRoute.body.name as string), routeFile);
    const taken = await running.services.events.readAll({ after: BigInt(viaRoute.body.headPosition) - 1n, maxCount: 10_000 });
    assert.ok(
      taken.some((e) => e.type === 'BackupTaken' && e.metadata.actor === running.admin.userId),
      'the backup is audited',
    );
    await running.close();
    server = undefined;

    for (const [file, head] of [
      [viaLibrary.file, BigInt(viaLibrary.manifest.headPosition)],
      [routeFile, BigInt(viaRoute.body.headPosition as string)],
    ] as const) {
      const manifest = (await manifestOf(file))!;
      assert.ok(manifest.checkpoints.length > 0 && manifest.checkpoints.every((c) => BigInt(c.position) <= head));
      const dataDir = path.join(tmp, `restored-${path.basename(file, '.tar')}`);
      const restored = await restoreBackup(file, dataDir);
      assert.equal(restored.setAside, null, 'a fresh directory: nothing set aside');

      server = await startTestServer({ dataDir });
      const again = server;
      again.clock.advance(10 * 60_000); // past the TOTP steps the first service accepted
      // Projecting at once (the copy holds no live lease of the first service), caught up with the restored log.
      const logHead = await again.services.events.headPosition();
      for (const status of await again.services.projections.status()) {
        assert.equal(status.state, 'live', status.name);
        assert.ok(BigInt(status.checkpoint) >= head && BigInt(status.checkpoint) <= logHead, `${status.name} caught up`);
      }
      assert.equal(await again.services.events.identity(), manifest.storeIdentity);
      await backgroundIntegrityOf(again.services.events)!.integrity;
      const restoredToken = await again.signInAndSelect(again.admin);
      for (const write of acked.filter((a) => a.position <= head)) {
        const answer = await again.request('GET', `/pacientes/${write.id}`, { token: restoredToken });
        assert.equal(answer.status, 200, `write at ${write.position} (head ${head}) is restored`);
      }
      assert.equal((await verifyChain(again, restoredToken)).state, 'intact');
      const resumed = await patientList(again, restoredToken);
      await again.flushAccessAudit();
      await again.services.projections.waitFor(await again.services.events.headPosition());
      const before = readModels(dataDir);
      assert.ok(before['pacientes/patients']!.length >= acked.filter((a) => a.position <= head).length);
      for (const { name } of await again.services.projections.status()) await again.services.projections.rebuild(name);
      assert.deepEqual(readModels(dataDir), before, 'the restored read models equal a rebuild of every projection');
      assert.deepEqual(await patientList(again, restoredToken), resumed);
      await again.close();
      server = undefined;
    }
  });
});
