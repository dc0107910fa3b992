// The platform's company export routes (what `dialysis-ops export` uses with the operator token): any company by id,
// 404 for an unknown one or another company's export, never reachable by a company role; audited as ops:<user>.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { OPS_TOKEN_FILE } from '../../src/ops/serviceLock.js';
import { startTestServer, type TestServer } from '../support/harness.js';

describe('platform company export routes', function () {
  this.timeout(60_000);
  let server: TestServer;
  let ops: Record<string, string>;
  before(async () => {
    server = await startTestServer();
    const token = (await fs.readFile(path.join(server.dataDir, OPS_TOKEN_FILE), 'utf8')).trim();
    ops = { authorization: `Ops ${token}`, 'x-ops-user': 'alice' };
  });
  after(() => server?.close());

  it('exports a company for the platform, audited as ops:<user>; unknown company or export is a 404', async () => {
    const tenant = server.admin.companyId;
    const base = `/sistema/empresas/${tenant}/exportaciones`;
    assert.equal((await server.request('POST', '/sistema/empresas/nadie/exportaciones', { headers: ops, body: {} })).status, 404);
    const started = await server.request('POST', base, { headers: ops, body: { reason: 'move' } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.headers.location, `${base}/${started.body.id}`);
    let job = started.body;
    for (let tries = 0; job.state === 'running' && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await server.request('GET', started.headers.location, { headers: ops })).body;
    }
    assert.equal(job.state, 'ready', JSON.stringify(job));
    assert.equal(job.requestedBy, 'ops:alice');
    const other = await server.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase 2');
    const elsewhere = `/sistema/empresas/${other.companyId}/exportaciones/${job.id}`;
    assert.equal((await server.request('GET', elsewhere, { headers: ops })).status, 404, "another company's path");
    const audit = (await server.services.events.readAll({ tenant })).filter((e) => e.type === 'CompanyExported');
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.metadata.actor, 'ops:alice');
    assert.equal(audit[0]!.metadata.reason, 'move');

    const token = await server.signInAndSelect(other);
    const own = `/sistema/empresas/${other.companyId}/exportaciones`;
    assert.equal((await server.request('POST', own, { token, body: {} })).status, 403, 'a company role never reaches it');
    assert.equal((await server.request('GET', `${own}/${job.id}`, { token })).status, 403);
  });
});
