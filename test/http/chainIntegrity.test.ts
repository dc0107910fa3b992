// Tamper evidence over HTTP: a company's verification of its hash chain runs in the background with progress, finds
// the chain intact, and after a byte of one event is edited in the SQLite file names that event as the first broken link.
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { streamName } from '../../src/stores/eventStore.js';
import { sqliteEventFile } from '../../src/stores/openEventStore.js';
import { newEvent } from '../support/eventFixtures.js';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';

describe('tamper evidence: verification of the hash chain, over HTTP', () => {
  let server: TestServer;
  let token: string;
  let tenant: string;
  before(async () => {
    server = await startTestServer();
    token = await server.signInAndSelect(server.admin);
    tenant = server.admin.companyId;
  });
  after(() => server?.close());

  async function verify(as = token): Promise<ApiJson> {
    const started = await server.request('POST', '/sistema/integridad/verificacion', { token: as });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.headers.location, `/sistema/integridad/verificacion/${started.body.id}`);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = await server.request('GET', started.headers.location, { token: as });
      assert.equal(status.status, 200, JSON.stringify(status.body));
      if (status.body.state !== 'running') return status.body;
      assert.ok(Date.now() < deadline, 'the verification finishes');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('finds the chain intact, then names the event whose data was edited in the file', async () => {
    const stream = streamName(tenant, 'patient', 'p-tamper');
    const given = [newEvent(tenant, { name: 'Ana' }), newEvent(tenant, { name: 'Luis' }), newEvent(tenant, { name: 'Eva' })];
    await server.services.events.appendToStream(stream, given, { expectedRevision: 'no_stream' });

    const intact = await verify();
    assert.equal(intact.state, 'intact', JSON.stringify(intact));
    assert.equal(intact.checked, intact.total);
    assert.ok(intact.total >= 3);
    assert.equal(intact.brokenLink, undefined);

    // A second connection edits one byte of Luis's data: what someone with the file could do.
    const file = new Database(sqliteEventFile(server.dataDir));
    const changed = file.prepare(`UPDATE events SET data = replace(data, 'Luis', 'Lui5') WHERE event_id = ?`).run(given[1]!.id).changes;
    const position = file.prepare<[string], { position: number }>('SELECT position FROM events WHERE event_id = ?').get(given[1]!.id)!;
    file.close();
    assert.equal(changed, 1);

    const broken = await verify();
    assert.equal(broken.state, 'broken', JSON.stringify(broken));
    assert.equal(broken.brokenLink.eventId, given[1]!.id);
    assert.equal(broken.brokenLink.stream, stream);
    assert.equal(broken.brokenLink.position, String(position.position));
    assert.equal(broken.brokenLink.revision, 1);
    assert.match(broken.brokenLink.expectedHash, /^[0-9a-f]{64}$/);
    assert.notEqual(broken.brokenLink.foundHash, broken.brokenLink.expectedHash);
    assert.ok(broken.checked < broken.total);
  });

  it("another company's verification is a 404; an unknown one too", async () => {
    const started = await server.request('POST', '/sistema/integridad/verificacion', { token });
    const other = await server.createCompanyWithAdmin('Clinica Dos', 'admin2@dos.example', 'another long passphrase');
    const otherToken = await server.signInAndSelect(other);
    assert.equal((await server.request('GET', started.headers.location!, { token: otherToken })).status, 404);
    const unknown = await server.request('GET', '/sistema/integridad/verificacion/00000000-0000-4000-8000-000000000000', { token });
    assert.equal(unknown.status, 404);
    assert.equal(path.basename(started.headers.location!), started.body.id);
  });
});
