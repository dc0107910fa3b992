// A damaged read-model file (deleted, truncated, pages overwritten while the service runs, or found damaged at start)
// is set aside, rebuilt from the event log while reads answer 503 /problems/read-model-rebuilding (never 500), and
// then every acknowledged write shows again, the ones made during the rebuild too.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, type HttpAnswer, type TestServer } from '../support/harness.js';
import { READ_STORE_FILE } from '../../src/stores/openReadStore.js';
import { readStoreRecoveryOf } from '../../src/stores/sqliteRead/recoverableReadStore.js';
import { datasetRandom, patientStreams } from '../../bench/dataset.js';
import { registration } from '../http/pacientesWorld.js';

/** Patients seeded straight into the log (16 events each): a rebuild long enough for a reader to meet it. */
const SEEDED = 400;
const MEANWHILE = 3;
/** A glance every 10 ms, so a full check of a changed file every 3 s (every 10 minutes at the default 2 s). */
const ENV = { READ_STORE_WATCH_MS: '10' };

async function seed(server: TestServer): Promise<void> {
  const rand = datasetRandom();
  const tenant = server.admin.companyId;
  for (let n = 0; n < SEEDED; n += 50) {
    const streams = [];
    for (let i = n; i < n + 50; i++) streams.push(...patientStreams(tenant, i, rand));
    await Promise.all(streams.map((s) => server.services.events.appendToStream(s.stream, s.events, { expectedRevision: 'no_stream' })));
  }
  assert.ok(await server.services.projections.waitFor(await server.services.events.headPosition(), { timeoutMs: 60_000 }), 'seeded');
}

async function patientIds(server: TestServer, token: string): Promise<string[] | HttpAnswer> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const answer = await server.request('GET', `/pacientes?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    if (answer.status !== 200) return answer;
    ids.push(...(answer.body.items as { id: string }[]).map((p) => p.id));
    cursor = answer.body.nextCursor;
  } while (cursor);
  return ids.sort();
}

interface Watch {
  statuses: Map<number, number>;
  problems: Set<string>;
  readyReasons: Set<string>;
  healthBad: number;
  stop(): Promise<void>;
}

/** Reads the list, /ready and /health in a loop, recording what they answer. */
function watchAnswers(server: TestServer, token: string): Watch {
  const watch: Watch = { statuses: new Map(), problems: new Set(), readyReasons: new Set(), healthBad: 0, stop: async () => undefined };
  let running = true;
  const loop = (async () => {
    while (running) {
      const answer = await server.request('GET', '/pacientes?limit=5', { token });
      watch.statuses.set(answer.status, (watch.statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 503) {
        watch.problems.add(`${answer.body.type} retry-after=${answer.headers['retry-after'] ?? 'none'}`);
      }
      const ready = await server.request('GET', '/ready');
      if (ready.status === 503) watch.readyReasons.add(String(ready.body.checks?.readStore));
      if ((await server.request('GET', '/health')).status !== 200) watch.healthBad++;
    }
  })();
  watch.stop = async () => {
    running = false;
    await loop;
  };
  return watch;
}

async function registerPatient(server: TestServer, token: string, n: number): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const body = registration({ familyNames: `Durante ${n}`, documentNumber: String(70_000_000 + n) });
    const answer = await server.request('POST', '/pacientes', { token, body, headers: { 'idempotency-key': `meanwhile-${n}` } });
    if (answer.status === 201) return answer.body.id as string;
    assert.equal(answer.status, 503, `a write during the rebuild: ${answer.status} ${JSON.stringify(answer.body)}`);
    assert.ok(answer.headers['retry-after'], 'a 503 says when to retry');
    assert.ok(Date.now() < deadline, 'the write was accepted within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the damage was found and the file set aside, then until every write is listed again. */
async function eventually(server: TestServer, token: string, expected: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (damagedFiles(server.dataDir).length === 0) {
    assert.ok(Date.now() < deadline, 'the damage was found and the file set aside within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let last: string[] | HttpAnswer = [];
  while (Date.now() < deadline) {
    last = await patientIds(server, token);
    if (Array.isArray(last) && last.length === expected.length) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(Array.isArray(last), `the list answers again: ${JSON.stringify(last)}`);
  assert.deepEqual(last, expected, 'every acknowledged write is in the rebuilt read models');
}

const damagedFiles = (dataDir: string): string[] => fs.readdirSync(dataDir).filter((f) => /^readmodels\.damaged-.+\.sqlite$/.test(f));

function checkpointElsewhere(file: string): void {
  // The service's pages live in the main file, where the damage goes (a second connection: the service keeps its own).
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function overwriteMiddlePages(file: string): void {
  const size = fs.statSync(file).size;
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, 'r+');
  fs.readSync(fd, header, 0, 100, 0);
  const pageSize = header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16);
  const pages = Math.floor(size / pageSize);
  const noise = Buffer.alloc(pageSize * 8);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(Math.random() * 256);
  fs.writeSync(fd, noise, 0, noise.length, pageSize * Math.floor(pages / 2));
  fs.closeSync(fd);
}

/** Random bytes over the root page of the projection checkpoints' table, the first thing a start reads. */
function overwriteCheckpointsPage(file: string): void {
  const db = new Database(file, { readonly: true });
  const tbl = db.prepare(`SELECT tbl FROM read_collections WHERE name = 'projection_checkpoints'`).pluck().get() as string;
  const root = db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = ?`).pluck().get(tbl) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const noise = Buffer.alloc(pageSize);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(Math.random() * 256);
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, noise, 0, noise.length, pageSize * (root - 1));
  fs.closeSync(fd);
}

const DAMAGES: Record<string, (file: string) => void> = {
  'deleted while running': (file) => fs.rmSync(file),
  'truncated to half while running': (file) => {
    checkpointElsewhere(file);
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
  },
  'pages in the middle overwritten with random bytes while running': (file) => {
    checkpointElsewhere(file);
    overwriteMiddlePages(file);
  },
};

describe('a damaged read-model file', function () {
  this.timeout(180_000);
  let dataDir: string;
  let server: TestServer | null = null;
  beforeEach(async () => (dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'read-model-damage-'))));
  afterEach(async () => {
    await server?.close();
    server = null;
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  // Checkpoints inside commits (the default), and in a worker past 256 pages (READ_STORE_CHECKPOINT_PAGES).
  for (const [name, damage, pages] of Object.entries(DAMAGES).flatMap(([n, d]) => [[n, d, '0'] as const, [n, d, '256'] as const])) {
    it(`${name}${pages === '0' ? '' : ` (WAL checkpoints in a worker)`}: set aside, rebuilt from the log, 503 meanwhile, no write lost`, async () => {
      server = await startTestServer({ dataDir, env: { ...ENV, READ_STORE_CHECKPOINT_PAGES: pages } });
      const token = await server.signInAndSelect(server.admin);
      await seed(server);
      const before = await patientIds(server, token);
      assert.ok(Array.isArray(before) && before.length === SEEDED, 'the seeded patients are listed');

      const watch = watchAnswers(server, token);
      damage(path.join(dataDir, READ_STORE_FILE));
      const added: string[] = [];
      for (let n = 0; n < MEANWHILE; n++) added.push(await registerPatient(server, token, n));
      await eventually(server, token, [...before, ...added].sort());
      await watch.stop();

      const statuses = Object.fromEntries(watch.statuses);
      assert.deepEqual(Object.keys(statuses).sort(), ['200', '503'], `reads answered only 200 or 503: ${JSON.stringify(statuses)}`);
      assert.deepEqual([...watch.problems], ['/problems/read-model-rebuilding retry-after=5'], 'the 503 says why and when');
      assert.ok(watch.readyReasons.has('rebuilding'), `/ready said why: ${[...watch.readyReasons].join(', ')}`);
      assert.equal(watch.healthBad, 0, '/health stayed up');
      assert.equal(damagedFiles(dataDir).length, 1, 'the damaged file is kept aside for the operator');
      assert.equal(fs.statSync(path.join(dataDir, damagedFiles(dataDir)[0]!)).mode & 0o777, 0o600, 'kept private (patient data)');
      if (name.startsWith('deleted')) {
        // Not derived from the log: the process managers' positions are carried over from what the connection still saw.
        const positions = await server.services.reads.collection('process_checkpoints');
        assert.ok((await positions.find('platform', {})).items.length > 0, 'the process checkpoints were kept');
      }
    });
  }

  const AT_START: Record<string, (file: string) => void> = {
    'pages in the middle overwritten (found by the background check)': overwriteMiddlePages,
    'the projection checkpoints page overwritten (found at open, not by the start)': overwriteCheckpointsPage,
    'truncated to half (found at open)': (file) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2)),
  };
  for (const [name, damage] of Object.entries(AT_START)) {
    it(`found damaged at start, ${name}: set aside and rebuilt, with every write`, async () => {
      server = await startTestServer({ dataDir, env: ENV });
      const token = await server.signInAndSelect(server.admin);
      await seed(server);
      const before = await patientIds(server, token);
      await server.close();
      server = null;
      damage(path.join(dataDir, READ_STORE_FILE));

      server = await startTestServer({ dataDir, env: ENV });
      server.clock.advance(10 * 60_000); // past the first server's accepted TOTP steps
      const again = await signInWhileRebuilding(server);
      const added = [await registerPatient(server, again, 0)];
      await eventually(server, again, [...(before as string[]), ...added].sort());
      assert.equal(damagedFiles(dataDir).length, 1, 'the damaged file is kept aside for the operator');
    });
  }

  it('leaves the in-memory read store alone (READ_STORE=memory)', async () => {
    server = await startTestServer({ dataDir, env: { ...ENV, READ_STORE: 'memory' } });
    assert.equal(readStoreRecoveryOf(server.services.reads), null);
    assert.ok(!fs.existsSync(path.join(dataDir, READ_STORE_FILE)), 'no read-model file');
  });
});

/** Signs in, retrying while sign-in answers 503 (its read models are refilled first). */
async function signInWhileRebuilding(server: TestServer): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await server.signInAndSelect(server.admin);
    } catch (error) {
      assert.match(String(error), / answered 503/, 'sign-in during the rebuild answers 503 or succeeds');
      assert.ok(Date.now() < deadline, 'signed in within 60 s');
      server.clock.advance(60_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
