// The default read store is kept in DATA_DIR: a restart resumes every projection from its checkpoint, kept in
// the same file as the documents, instead of rebuilding from the whole log; new events after the restart are
// projected on top. (The resume is observed by a document changed behind the service's back, which a rebuild
// would have replaced.)
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from '../support/harness.js';
import { READ_STORE_FILE } from '../../src/stores/openReadStore.js';
import { registration } from './pacientesWorld.js';

async function register(server: TestServer, token: string, familyNames: string): Promise<string> {
  const answer = await server.request('POST', '/pacientes', { token, body: registration({ familyNames }) });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return (answer.body as { id: string }).id;
}

async function familyNamesListed(server: TestServer, token: string): Promise<string[]> {
  const answer = await server.request('GET', '/pacientes?limit=50', { token });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body as { items: { familyNames: string }[] }).items.map((p) => p.familyNames).sort();
}

describe('persistent read store across restarts', function () {
  let dataDir: string;
  beforeEach(async () => (dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-restart-'))));
  afterEach(async () => fs.rm(dataDir, { recursive: true, force: true }));

  it('resumes the projections from their checkpoints, and projects what comes after', async function () {
    const first = await startTestServer({ dataDir });
    try {
      const token = await first.signInAndSelect(first.admin);
      await register(first, token, 'Quispe Antes');
      assert.deepEqual(await familyNamesListed(first, token), ['Quispe Antes']);
    } finally {
      await first.close();
    }

    // Behind the service's back: a rebuild from the log would bring 'Quispe Antes' back, a resume keeps this.
    const file = path.join(dataDir, READ_STORE_FILE);
    const db = new Database(file);
    const tables = db.prepare(`SELECT tbl FROM read_collections WHERE name LIKE 'patients%'`).pluck().all() as string[];
    let changed = 0;
    for (const table of tables) {
      changed += db.prepare(`UPDATE ${table} SET doc = replace(doc, 'Quispe Antes', 'Quispe Marcado')`).run().changes;
    }
    db.close();
    assert.ok(changed > 0, 'the patients read model is in the file');

    const second = await startTestServer({ dataDir });
    try {
      second.clock.advance(10 * 60_000); // past the first server's accepted TOTP steps
      const token = await second.signInAndSelect(second.admin);
      assert.deepEqual(await familyNamesListed(second, token), ['Quispe Marcado'], 'resumed, not rebuilt');
      await register(second, token, 'Quispe Despues');
      assert.deepEqual(await familyNamesListed(second, token), ['Quispe Despues', 'Quispe Marcado']);
    } finally {
      await second.close();
    }
  });

  it('sets aside a file that is not a read store and rebuilds it from the log', async function () {
    const first = await startTestServer({ dataDir });
    try {
      await register(first, await first.signInAndSelect(first.admin), 'Quispe Uno');
    } finally {
      await first.close();
    }
    const file = path.join(dataDir, READ_STORE_FILE);
    await fs.rm(`${file}-wal`, { force: true });
    await fs.rm(`${file}-shm`, { force: true });
    await fs.writeFile(file, 'not a database at all, but the read models are derived data'.repeat(100));

    const second = await startTestServer({ dataDir });
    try {
      second.clock.advance(10 * 60_000);
      const token = await second.signInAndSelect(second.admin);
      assert.deepEqual(await familyNamesListed(second, token), ['Quispe Uno'], 'rebuilt from the event log');
      const aside = (await fs.readdir(dataDir)).find((f) => /^readmodels\.damaged-.+\.sqlite$/.test(f));
      assert.ok(aside, 'the damaged file is kept aside');
      assert.match(await fs.readFile(path.join(dataDir, aside), 'utf8'), /^not a database/);
    } finally {
      await second.close();
    }
  });
});
