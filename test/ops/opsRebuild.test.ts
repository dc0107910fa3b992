// `ops rebuild pacientes` over a store with patients: a progress display, then the same read-model documents, both
// offline on the data directory of a stopped server and through a running one; `projections` and errors too.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pacientesProjection, PACIENTES_PROJECTION } from '../../src/projections/pacientes/pacientesProjection.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { runOps } from '../support/opsCli.js';
import { registration } from '../http/pacientesWorld.js';

const PATIENTS = 30;

/** Every document of the pacientes read model, per logical collection, as the service serves them now. */
async function pacientesDocs(server: TestServer): Promise<Record<string, unknown[]>> {
  const docs: Record<string, unknown[]> = {};
  for (const logical of Object.keys(pacientesProjection.collections)) {
    const page = await server.services.projections
      .collection(PACIENTES_PROJECTION, logical)
      .find(server.admin.companyId, {}, { limit: 100_000 });
    docs[logical] = page.items;
  }
  return docs;
}

async function addPatients(server: TestServer): Promise<void> {
  const token = await server.signInAndSelect(server.admin);
  for (let i = 0; i < PATIENTS; i++) {
    const answer = await server.request('POST', '/pacientes', { token, body: registration({ familyNames: `Paciente ${i}` }) });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
  }
}

describe('ops rebuild and projections', function () {
  this.timeout(60_000);
  let dataDir: string;
  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-ops-'));
    const server = await startTestServer({ dataDir });
    try {
      await addPatients(server);
    } finally {
      await server.close();
    }
  });
  after(async () => fs.rm(dataDir, { recursive: true, force: true }));

  it('offline: rebuilds pacientes with progress lines and ends with the same documents', async () => {
    let server = await startTestServer({ dataDir });
    const before = await pacientesDocs(server);
    await server.close();
    assert.equal(before.patients!.length, PATIENTS);

    const run = await runOps(dataDir, ['rebuild', 'pacientes', '--progress', 'lines']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /on the data directory .* \(service stopped\)/);
    assert.match(run.stdout, /Rebuilt pacientes: \d+ events/);
    assert.match(run.stderr, /rebuild pacientes: \d+\.\d% \(\d+\/\d+\) \d+\/s ETA/, 'progress lines');

    server = await startTestServer({ dataDir });
    try {
      assert.deepEqual(await pacientesDocs(server), before);
    } finally {
      await server.close();
    }
  });

  it('through the running service: a progress bar, --json, and the same documents', async () => {
    const server = await startTestServer({ dataDir });
    try {
      const before = await pacientesDocs(server);
      const bar = await runOps(dataDir, ['rebuild', 'pacientes', '--progress', 'bar']);
      assert.equal(bar.code, 0, bar.stderr);
      assert.match(bar.stdout, new RegExp(`through the running service at ${server.url}`));
      assert.match(bar.stderr, /rebuild pacientes \[[█░]+\] 100% \| \d+\/\d+ \| \d+\/s \| ETA/, 'a bar with percent, rate and ETA');
      const json = await runOps(dataDir, ['--json', 'rebuild', 'pacientes']);
      assert.equal(json.code, 0, json.stderr);
      assert.equal(json.json.ok, true);
      assert.equal(json.json.mode, 'service');
      assert.equal(json.json.rebuilt[0].projection, 'pacientes');
      assert.equal(json.json.rebuilt[0].percent, 100);
      assert.ok(json.json.rebuilt[0].done > PATIENTS);
      assert.equal(json.stderr, '', 'nothing but the result with --json');
      assert.deepEqual(await pacientesDocs(server), before);
    } finally {
      await server.close();
    }
  });

  it('lists projections with their lag, rebuilds --all, and refuses an unknown projection with a non-zero exit', async () => {
    const list = await runOps(dataDir, ['--json', 'projections']);
    assert.equal(list.code, 0, list.stderr);
    const pacientes = list.json.projections.find((p: { name: string }) => p.name === 'pacientes');
    assert.equal(pacientes.lag, 0);
    const all = await runOps(dataDir, ['--json', 'rebuild', '--all']);
    assert.equal(all.code, 0, all.stdout + all.stderr);
    assert.deepEqual(
      all.json.rebuilt.map((r: { projection: string }) => r.projection),
      list.json.projections.map((p: { name: string }) => p.name),
    );
    const neither = await runOps(dataDir, ['rebuild']);
    assert.equal(neither.code, 1);
    assert.match(neither.stderr, /name one projection, or --all/);
    const unknown = await runOps(dataDir, ['rebuild', 'nope']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^dialysis-ops: error: No projection named nope/m);
    assert.equal(unknown.stderr.trim().split('\n').length, 1, 'one line');
  });
});
