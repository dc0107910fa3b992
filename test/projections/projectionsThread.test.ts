// PROJECTIONS_THREAD=worker (and, with the SQLite stores, unset): the projector runs in a worker thread with its own
// connections, and the service still reads its own writes (register then get and list), serves no prepared page a
// write made stale, rebuilds, stops on SIGTERM with every projection flushed to the head of the log, and recovers from
// the thread's death.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACIENTES_PROJECTION, PATIENTS } from '../../src/projections/pacientes/pacientesProjection.js';
import { projectionThreadOf } from '../../src/projections/runner/threadedRunner.js';
import { openSqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { CHECKPOINTS_COLLECTION, type CheckpointDoc } from '../../src/projections/runner/checkpoints.js';
import { PLATFORM_DOCS } from '../../src/stores/readStore.js';
import { READ_STORE_FILE } from '../../src/stores/openReadStore.js';
import { readStoreRecoveryOf } from '../../src/stores/sqliteRead/recoverableReadStore.js';
import { sqliteEventFile } from '../../src/stores/openEventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { freePort } from '../../bench/processes.js';
import { registeredGroups } from '../../src/http/groups.js';
import { PROJECTOR_REGISTRY, projectionsFor } from '../../src/projections/projectorRegistry.js';
import { signInAndSelect } from '../../bench/signIn.js';
import { expectStatus, registration, startPacientesWorld, type Answer, type Json, type PacientesWorld } from '../http/pacientesWorld.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const idsOf = (answer: Answer): string[] => (expectStatus(answer, 200).body.items as Json[]).map((p) => p.id as string);
const WORKER = { PROJECTIONS_THREAD: 'worker' };

/** Waits (bounded) until `check` holds; fails with `what` otherwise. */
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000, detail = (): string => ''): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what} ${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('projections in a worker thread (PROJECTIONS_THREAD=worker, SQLite read store)', function () {
  this.timeout(60_000);
  let world: PacientesWorld;
  const list = (token: string, query = ''): Promise<Answer> => world.call(token, 'GET', `/pacientes?limit=200${query}`);

  before(async () => {
    world = await startPacientesWorld({ env: WORKER });
  });
  after(async () => world?.close());

  it('runs the projector in a worker thread, not on the request loop', () => {
    const thread = projectionThreadOf(world.server.services.projections);
    assert.ok(thread, 'the runner is the threaded one');
    assert.ok(thread.worker, 'a worker thread is running');
  });

  it('reads its own writes: many concurrent registrations, each then got and listed', async () => {
    const created = await Promise.all(Array.from({ length: 40 }, (_, n) => world.register(world.a, { familyNames: `Hilo ${n}` })));
    await Promise.all(
      created.map(async (answer) => {
        const id = answer.body.id as string;
        expectStatus(await world.call(world.a, 'GET', `/pacientes/${id}`), 200);
      }),
    );
    const listed = new Set(idsOf(await list(world.a, '&q=hilo')));
    for (const answer of created) assert.ok(listed.has(answer.body.id as string), 'each registration is in the next list');
  });

  it('serves each write in the next list even while the same page is being prepared alongside', async () => {
    for (let n = 0; n < 10; n++) {
      const lists = Array.from({ length: 3 }, () => list(world.a, '&q=alongside'));
      const created = await world.register(world.a, { givenNames: `Paralela ${n}`, familyNames: 'Alongside' });
      await Promise.all(lists);
      assert.ok(idsOf(await list(world.a, '&q=alongside')).includes(created.body.id as string), `write ${n} in the next list`);
    }
  });

  it('rebuilds through the worker and serves what the rebuild wrote, not a page kept from before', async () => {
    const created = await world.register(world.a, { givenNames: 'Rigoberto', familyNames: 'Reconstruido' });
    const id = created.body.id as string;
    const { services } = world.server;
    const serving = services.projections.collection(PACIENTES_PROJECTION, PATIENTS).name;
    const raw = await services.reads.collection(serving);
    await raw.updateOne(world.server.admin.companyId, { id }, { $set: { givenNames: 'Dañado' } });
    assert.equal((expectStatus(await list(world.a, '&q=reconstruido'), 200).body.items as Json[])[0]!.givenNames, 'Dañado');
    const progress: number[] = [];
    await services.projections.rebuild(PACIENTES_PROJECTION, (p) => progress.push(p.percent));
    assert.ok(progress.length > 0, 'progress reached the main thread');
    assert.notEqual(services.projections.collection(PACIENTES_PROJECTION, PATIENTS).name, serving);
    assert.equal((expectStatus(await list(world.a, '&q=reconstruido'), 200).body.items as Json[])[0]!.givenNames, 'Rigoberto');
    const status = (await services.projections.status()).find((s) => s.name === PACIENTES_PROJECTION)!;
    assert.equal(status.state, 'live');
    assert.equal(status.rebuild?.percent, 100);
  });

  it('recovers when the worker thread dies: restarted from its checkpoints, reads its writes again, /ready again', async () => {
    const thread = projectionThreadOf(world.server.services.projections)!;
    const before = thread.restarts;
    await thread.worker!.terminate();
    await until('the worker restarted', () => thread.restarts > before && thread.worker !== null);
    await until('GET /ready answers 200', async () => (await world.server.request('GET', '/ready')).status === 200);
    const created = await world.register(world.a, { familyNames: 'Tras Reinicio' });
    expectStatus(await world.call(world.a, 'GET', `/pacientes/${created.body.id as string}`), 200);
    assert.ok(idsOf(await list(world.a, '&q=reinicio')).includes(created.body.id as string));
  });
});

describe('projections in a worker thread: damage only the thread meets', function () {
  this.timeout(90_000);

  it('is reported to the main thread, whose store sets the file aside and refills it; reads and writes go on', async () => {
    // No glance and no background check: only SQLite's word tells, and only the thread reads the lease table.
    const world = await startPacientesWorld({ env: { ...WORKER, READ_STORE_WATCH_MS: '0' } });
    try {
      const file = path.join(world.server.dataDir, READ_STORE_FILE);
      const recovery = readStoreRecoveryOf(world.server.services.reads)!;
      const before = await world.register(world.a, { familyNames: 'Antes Del Dano' });
      const db = new Database(file);
      db.pragma('wal_checkpoint(TRUNCATE)'); // the pages in the main file, where the damage goes
      const tbl = db.prepare(`SELECT tbl FROM read_collections WHERE name = 'leases'`).pluck().get() as string;
      const root = db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = ?`).pluck().get(tbl) as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.close();
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, pageSize * (root - 1));
      fs.closeSync(fd);
      await until('the damage the thread met is reported', () => recovery.lastDamage !== null, 30_000);
      assert.match(recovery.lastDamage!.reason, /projector thread/);
      await until('the read models are refilled', () => recovery.state === 'ok', 30_000);
      const after = await world.register(world.a, { familyNames: 'Tras El Dano' });
      for (const answer of [before, after]) expectStatus(await world.call(world.a, 'GET', `/pacientes/${answer.body.id as string}`), 200);
    } finally {
      await world.close();
    }
  });
});

describe("the projector thread's registry", () => {
  it('holds exactly the projections the groups register, at their versions', () => {
    const registered = registeredGroups().flatMap((g) => g.projections.map((p): [string, number] => [p.name, p.version]));
    assert.deepEqual(
      projectionsFor(registered).map((p) => p.name),
      registered.map(([name]) => name),
    );
    assert.deepEqual(PROJECTOR_REGISTRY.map((p) => p.name).sort(), registered.map(([name]) => name).sort());
    assert.throws(() => projectionsFor([['pacientes', 999]]), /projectorRegistry\.ts/);
  });
});

describe('projections in a worker thread by default (PROJECTIONS_THREAD unset): SIGTERM', function () {
  this.timeout(90_000);
  let dataDir: string;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'projections-thread-'))));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('projects in the thread, and stops with every projection flushed to the head of the log and every answered registration in its read model', async () => {
    const port = await freePort();
    const { PROJECTIONS_THREAD: _asked, ...environment } = process.env; // the service's default, whatever the suite runs with
    const creds = {
      email: 'stopper@example.test',
      password: 'graceful lifecycle passphrase 7',
      totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    };
    const child = spawn(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...environment,
        NODE_OPTIONS: '',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        BOOTSTRAP_ADMIN_EMAIL: creds.email,
        BOOTSTRAP_ADMIN_PASSWORD: creds.password,
        BOOTSTRAP_ADMIN_TOTP_SECRET: creds.totpSecret,
        BOOTSTRAP_COMPANY_NAME: 'Clinica Hilo',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until(
        'the service listens',
        () => output.includes('"msg":"listening"'),
        40_000,
        () => output,
      );
      assert.match(output, /"msg":"projections run in a worker thread"/);
      const base = `http://127.0.0.1:${port}`;
      const token = await signInAndSelect(base, creds.email, creds.password, creds.totpSecret);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const tenants = (await (await fetch(`${base}/tenants`, { headers })).json()) as { items: { id: string }[] };
      const tenantId = tenants.items[0]!.id;
      const register = (n: number) =>
        fetch(`${base}/pacientes`, { method: 'POST', headers, body: JSON.stringify(registration({ familyNames: `Term ${n}` })) }).then(
          async (r) => (r.status === 201 ? ((await r.json()) as { id: string }).id : null),
        );
      const answered = (await Promise.all(Array.from({ length: 30 }, (_, n) => register(n)))).filter((id) => id !== null);
      assert.equal(answered.length, 30);
      // Writes in flight when the signal comes: those answered 201 must be in the read model after the stop.
      const inFlight = Promise.all(Array.from({ length: 30 }, (_, n) => register(100 + n).catch(() => null)));
      await new Promise((resolve) => setTimeout(resolve, 30));
      child.kill('SIGTERM');
      const late = (await inFlight).filter((id): id is string => id !== null);
      assert.equal(await exited, 0, output);
      assert.match(output, /projector thread stopped/);

      const events = await openSqliteEventStore({ file: sqliteEventFile(dataDir) });
      const head = await events.headPosition();
      await events.close();
      const reads = await openSqliteReadStore({ file: path.join(dataDir, READ_STORE_FILE) });
      try {
        const checkpoints = await (await reads.collection<CheckpointDoc>(CHECKPOINTS_COLLECTION)).find(PLATFORM_DOCS, {}, { limit: 1000 });
        assert.ok(checkpoints.items.length > 10, 'the checkpoints were written');
        for (const saved of checkpoints.items) assert.equal(BigInt(saved.position), head, `${saved.id} flushed to the head`);
        const patients = checkpoints.items.find((c) => c.id === PACIENTES_PROJECTION)!;
        const table = await reads.collection(`${PATIENTS}${patients.suffix}`);
        for (const id of [...answered, ...late]) {
          const found = (await table.find(tenantId, { id }, { limit: 1 })).items;
          assert.equal(found.length, 1, `patient ${id} in the read model`);
        }
      } finally {
        await reads.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
