// The patient list served from pages prepared once per change (src/queries/preparedPages.ts): a write is in the next
// list of its writer, a company never gets another's page, a rebuild and a correction replace what was kept, and
// every read is still audited.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sqliteEventFile } from '../../src/stores/openEventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { startTestServer } from '../support/harness.js';
import { accessLogStream } from '../../src/http/accessAudit.js';
import { PACIENTES_PROJECTION, PATIENTS } from '../../src/projections/pacientes/pacientesProjection.js';
import { expectStatus, startPacientesWorld, type Answer, type Json, type PacientesWorld } from './pacientesWorld.js';

const idsOf = (answer: Answer): string[] => (expectStatus(answer, 200).body.items as Json[]).map((p) => p.id as string);

for (const readStore of ['sqlite', 'memory'])
  describe(`Pacientes over HTTP: prepared list pages (${readStore} read store)`, () => {
    let world: PacientesWorld;
    const list = (token: string, query = ''): Promise<Answer> => world.call(token, 'GET', `/pacientes?limit=50${query}`);

    before(async () => {
      world = await startPacientesWorld({ env: { READ_STORE: readStore } });
    });
    after(async () => world?.close());

    it('shows each write in the next list of its writer, also while other lists of the same page run alongside', async () => {
      const before = idsOf(await list(world.a));
      for (let n = 0; n < 12; n++) {
        const lists = Array.from({ length: 4 }, () => list(world.a));
        const created = await world.register(world.a, { givenNames: `Aurelio ${n}`, familyNames: 'Concurrente' });
        await Promise.all(lists);
        const position = created.headers.get('x-event-position')!;
        assert.ok(idsOf(await list(world.a)).includes(created.body.id as string), `write ${n} in the next list`);
        assert.ok(idsOf(await list(world.a, `&minPosition=${position}`)).includes(created.body.id as string));
      }
      assert.equal(idsOf(await list(world.a)).length, Math.min(50, before.length + 12));
    });

    it('never answers one company with the page of another, for the very same query', async () => {
      const mine = await world.register(world.a, { familyNames: 'Soloenuno' });
      const theirs = await world.register(world.b, { familyNames: 'Soloenuno' });
      for (let round = 0; round < 3; round++) {
        assert.deepEqual(idsOf(await list(world.a, '&q=soloenuno')), [mine.body.id]);
        assert.deepEqual(idsOf(await list(world.b, '&q=soloenuno')), [theirs.body.id]);
      }
    });

    it('shows a correction in the next list', async () => {
      const created = await world.register(world.a, { givenNames: 'Clotilde', familyNames: 'Enmendada' });
      const id = created.body.id as string;
      assert.equal((expectStatus(await list(world.a, '&q=enmendada'), 200).body.items as Json[])[0]!.givenNames, 'Clotilde');
      const etag = created.headers.get('etag')!;
      const body = { givenNames: 'Clotilda', reason: 'typo in the admission form' };
      expectStatus(await world.call(world.a, 'PATCH', `/pacientes/${id}`, { json: body, headers: { 'if-match': etag } }), 200);
      assert.equal((expectStatus(await list(world.a, '&q=enmendada'), 200).body.items as Json[])[0]!.givenNames, 'Clotilda');
    });

    it('serves what a rebuild wrote, not the page kept from the collection it replaced', async () => {
      const created = await world.register(world.a, { givenNames: 'Rigoberto', familyNames: 'Reconstruido' });
      const id = created.body.id as string;
      const { services } = world.server;
      // A document changed behind the runner's back (as a damaged read model would be): the page kept from it shows it.
      const serving = services.projections.collection(PACIENTES_PROJECTION, PATIENTS).name;
      const raw = await services.reads.collection(serving);
      await raw.updateOne(world.server.admin.companyId, { id }, { $set: { givenNames: 'Dañado' } });
      assert.equal((expectStatus(await list(world.a, '&q=reconstruido'), 200).body.items as Json[])[0]!.givenNames, 'Dañado');
      await services.projections.rebuild(PACIENTES_PROJECTION);
      assert.notEqual(services.projections.collection(PACIENTES_PROJECTION, PATIENTS).name, serving);
      assert.equal((expectStatus(await list(world.a, '&q=reconstruido'), 200).body.items as Json[])[0]!.givenNames, 'Rigoberto');
    });
  });

describe('Pacientes over HTTP: prepared list pages are audited', () => {
  it('records every list read in the access log, served from a kept page or not', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prepared-lists-'));
    try {
      const server = await startTestServer({ dataDir });
      const tenantId = server.admin.companyId;
      const at = server.services.now().toISOString();
      try {
        const token = await server.signInAndSelect(server.admin);
        for (let n = 0; n < 7; n++) assert.equal((await server.request('GET', '/pacientes?limit=50', { token })).status, 200);
      } finally {
        await server.close(); // writes what the audit still coalesces
      }
      const events = await openSqliteEventStore({ file: sqliteEventFile(dataDir) });
      try {
        const lists = (await events.readStream(accessLogStream(tenantId, at))).filter((e) => e.data.recordType === 'patientList');
        assert.equal(
          lists.reduce((sum, e) => sum + (e.data.count as number), 0),
          7,
        );
      } finally {
        await events.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
