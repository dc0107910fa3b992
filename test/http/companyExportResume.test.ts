// Issue 24 item 3: exports resume from a position, restore as a new company (a new chain), and report progress to the
// command line through the library.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { openEventStore } from '../../src/stores/openEventStore.js';
import { importCompany } from '../../src/ops/importCompany.js';
import { companyRecords, exportCompany, type ExportProgress } from '../../src/ops/exportCompany.js';
import { startTestServer } from '../support/harness.js';
import { collections, importIntoEmptyDir, linesOf, normalize, startExportWorld, type ExportWorld } from './companyExportWorld.js';

describe('company export: resumable, restored as a new company, progress (issue 24 item 3)', function () {
  this.timeout(120_000);
  let w: ExportWorld;
  before(async () => (w = await startExportWorld()));
  after(() => w?.close());

  it('resumes from a position: the full export and the next one restore the chain up to the second', async () => {
    const { job, events } = await w.fullExport();
    const note = await w.source.request('POST', `/pacientes/${w.ids.patient}/notas`, {
      token: w.token,
      body: { noteType: 'general', text: 'despues' },
    });
    assert.equal(note.status, 201);
    const bad = await w.source.request('POST', '/sistema/exportaciones', { token: w.token, body: { after: '1' } });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    const next = await w.exportOver({ after: job.through });
    assert.equal(next.job.state, 'ready', JSON.stringify(next.job));
    assert.ok(next.job.progress.eventsTotal < job.progress.eventsTotal);
    const more = await w.download(next.job.id, 'eventos');
    const lines = await linesOf(more.file);
    assert.ok(lines.every((l) => l.kind !== 'event' || BigInt(l.position) > BigInt(job.through)));
    assert.ok(lines.some((l) => l.kind === 'event' && JSON.stringify(l.data).includes('despues')));

    const { dir, result } = await importIntoEmptyDir(events);
    const store = await openEventStore(loadConfig({ DATA_DIR: dir }), createLogger('error'));
    try {
      const second = await importCompany({ events: store }, more.file);
      assert.equal(second.sameChain, true);
      assert.equal(
        second.events + result.events,
        (await w.source.services.events.chainHead(w.tenant))!.count - (await countAfter(next.job.through)),
      );
    } finally {
      await store.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('restores as a new company: stream names, tenant ids and event ids rewritten, a new chain that verifies', async () => {
    const { events, records } = await w.fullExport();
    const newTenant = 'restored_company_1';
    const { dir, result } = await importIntoEmptyDir(events, newTenant);
    assert.equal(result.tenant, newTenant);
    assert.equal(result.sameChain, false, 'a new company id is a new chain');
    const target = await startTestServer({ dataDir: dir });
    try {
      assert.ok(await target.services.projections.waitFor(result.position, { timeoutMs: 30_000 }));
      const renamed = (doc: Record<string, unknown>) =>
        JSON.parse(JSON.stringify(normalize(doc)).split(w.tenant).join(newTenant)) as unknown;
      const expected = new Map<string, unknown>();
      for (const l of await linesOf(records))
        if (l.kind === 'record' && l.projection !== 'auditTrail')
          expected.set(`${l.projection}/${l.collection}/${String(l.doc.id)}`, renamed(l.doc));
      const found = new Map<string, unknown>();
      for await (const l of companyRecords(target.services.projections, newTenant, collections))
        if (l.projection !== 'auditTrail') found.set(`${l.projection}/${l.collection}/${String(l.doc.id)}`, normalize(l.doc));
      assert.ok(expected.size > 10);
      assert.deepEqual(found, expected);
      assert.equal((await target.services.events.readAll({ tenant: w.tenant, maxCount: 1 })).length, 0, 'nothing under the old id');
      const v = target.services.integrity.verifications.start(newTenant, 'test');
      let state = v.state;
      while (state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        state = target.services.integrity.verifications.get(newTenant, v.id)!.state;
      }
      assert.equal(state, 'intact');
      assert.equal(target.services.integrity.verifications.get(newTenant, v.id)!.checked, result.events);
    } finally {
      await target.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('reports progress from the library as it goes (what the command line draws)', async () => {
    const dir = await fs.mkdtemp(path.join(w.work, 'lib-'));
    const seen: ExportProgress[] = [];
    const result = await exportCompany(w.source.services, {
      tenantId: w.tenant,
      exportId: randomUUID(),
      directory: dir,
      collections,
      caller: { actor: 'test', correlationId: 'test' },
      onProgress: (p) => seen.push(p),
    });
    assert.equal(seen[0]!.eventsDone, 0);
    assert.equal(seen[0]!.eventsTotal, result.events);
    assert.deepEqual(
      seen.map((p) => p.percent),
      [...seen.map((p) => p.percent)].sort((a, b) => a - b),
    );
    assert.equal(seen.at(-1)!.percent, 100);
    assert.equal(seen.at(-1)!.recordsDone, result.records);
    assert.equal((await fs.stat(result.files.events)).mode & 0o777, 0o600);
  });

  async function countAfter(through: string): Promise<number> {
    return (await w.source.services.events.readChain(w.tenant, { after: BigInt(through), maxCount: 10_000 })).length;
  }
});
