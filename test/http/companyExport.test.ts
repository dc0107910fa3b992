// Issue 24 item 3: a company exported over HTTP (gzip NDJSON, in the background, with progress) and restored into an
// EMPTY data directory answers the same records and verifies its chain; a tampered export is refused naming its event.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { openEventStore } from '../../src/stores/openEventStore.js';
import { registeredGroups } from '../../src/http/groups.js';
import { grantMembership } from '../../src/commands/platform/platformWrites.js';
import { importCompany, type ImportResult } from '../../src/ops/importCompany.js';
import { companyRecords, exportCompany, recordCollectionsOf, type ExportProgress } from '../../src/ops/exportCompany.js';
import { ExportRejectedError, readExportLines, type ExportLine, type RecordLine } from '../../src/ops/exportFormat.js';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';
import { seedDialisis } from './dialisisSeeds.js';
import { seedEquipment } from './equipmentSeeds.js';

const collections = recordCollectionsOf(registeredGroups().flatMap((g) => g.projections));
/** Positions of one log mean nothing in another: every other field of a document must be the same. */
const POSITION_FIELDS = ['_position', 'seq'];

const normalize = (doc: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(doc).filter(([k]) => !POSITION_FIELDS.includes(k)));

async function linesOf(file: string): Promise<ExportLine[]> {
  const lines: ExportLine[] = [];
  for await (const { value } of readExportLines(file)) lines.push(value);
  return lines;
}

/** Imports into a fresh data directory with the service stopped (what `ops import` does), answering the directory. */
async function importIntoEmptyDir(file: string, asTenant?: string): Promise<{ dir: string; result: ImportResult }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-import-'));
  const events = await openEventStore(loadConfig({ DATA_DIR: dir }), createLogger('error'));
  try {
    return { dir, result: await importCompany({ events }, file, asTenant ? { asTenant } : {}) };
  } finally {
    await events.close();
  }
}

describe('company export and restore (issue 24 item 3), over HTTP', function () {
  this.timeout(120_000);
  let source: TestServer;
  let token: string;
  let tenant: string;
  let work: string;
  const ids: Record<string, string> = {};
  const before_: Record<string, ApiJson> = {};

  before(async () => {
    source = await startTestServer();
    token = await source.signInAndSelect(source.admin);
    tenant = source.admin.companyId;
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-export-test-'));
    const dialisis = await seedDialisis(source, token);
    const equipment = await seedEquipment(source, token);
    ids.patient = dialisis.valueFor('/dialisis/pacientes/{patientId}', 'patientId')!;
    ids.session = dialisis.valueFor('/dialisis/sesiones/{id}', 'id')!;
    ids.machine = equipment.valueFor('/monitores/{id}', 'id')!;
    const note = await source.request('POST', `/pacientes/${ids.patient}/notas`, { token, body: { noteType: 'general', text: 'estable' } });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    for (const p of answersCompared()) before_[p] = await untilFound(source, token, p);
    await source.flushAccessAudit();
  });
  after(async () => {
    await source?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  const answersCompared = () => [`/pacientes/${ids.patient}`, `/dialisis/sesiones/${ids.session}`, `/monitores/${ids.machine}`];

  async function untilFound(server: TestServer, as: string, p: string): Promise<ApiJson> {
    for (let tries = 0; ; tries++) {
      const answer = await server.request('GET', p, { token: as });
      if (answer.status === 200 || tries > 100) {
        assert.equal(answer.status, 200, `${p}: ${JSON.stringify(answer.body)}`);
        return answer.body;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function exportOver(body: Record<string, unknown> = {}): Promise<{ job: ApiJson; seen: ApiJson[] }> {
    const started = await source.request('POST', '/sistema/exportaciones', { token, body });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.headers.location, `/sistema/exportaciones/${started.body.id}`);
    const seen = [started.body];
    for (let tries = 0; tries < 500; tries++) {
      const status = await source.request('GET', started.headers.location, { token });
      assert.equal(status.status, 200, JSON.stringify(status.body));
      seen.push(status.body);
      if (status.body.state !== 'running') return { job: status.body, seen };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the export did not finish');
  }

  async function download(
    id: string,
    part: 'eventos' | 'registros',
    as = token,
  ): Promise<{ status: number; file: string; headers: Headers }> {
    const res = await fetch(`${source.url}/sistema/exportaciones/${id}/${part}`, { headers: { authorization: `Bearer ${as}` } });
    const file = path.join(work, `${id}-${part}-${res.status}-${as.slice(-8)}.ndjson.gz`);
    await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
    return { status: res.status, file, headers: res.headers };
  }

  let exported: { job: ApiJson; events: string; records: string };
  async function fullExport() {
    if (exported) return exported;
    const { job, seen } = await exportOver();
    assert.equal(job.state, 'ready', JSON.stringify(job));
    assert.equal(seen[0].state, 'running', 'the 202 answers while the export runs');
    for (const s of seen)
      for (const k of ['eventsDone', 'eventsTotal', 'recordsDone', 'percent', 'bytes']) assert.equal(typeof s.progress[k], 'number', k);
    assert.equal(job.progress.percent, 100);
    assert.equal(job.progress.eventsDone, job.progress.eventsTotal);
    const events = await download(job.id, 'eventos');
    const records = await download(job.id, 'registros');
    for (const d of [events, records]) {
      assert.equal(d.status, 200);
      assert.equal(d.headers.get('content-type'), 'application/gzip');
      assert.equal(d.headers.get('content-encoding'), null, 'the gzip is the file itself, not a transfer coding');
    }
    assert.match(events.headers.get('content-disposition') ?? '', /events\.ndjson\.gz/);
    exported = { job, events: events.file, records: records.file };
    return exported;
  }

  it('exports, then an empty store restored from the export answers the same records and verifies its chain', async () => {
    const { job, events, records } = await fullExport();
    const eventLines = await linesOf(events);
    const header = eventLines[0]!;
    assert.equal(header.kind, 'header');
    assert.equal(header.kind === 'header' && header.tenant, tenant);
    assert.ok(
      eventLines.some((l) => l.kind === 'checkpoint'),
      'the signed checkpoints travel with the events',
    );
    assert.ok(eventLines.some((l) => l.kind === 'company' && l.type === 'CompanyRegistered'));
    const end = eventLines[eventLines.length - 1]!;
    assert.equal(end.kind === 'end' && end.events, job.progress.eventsTotal);

    const { dir, result } = await importIntoEmptyDir(events);
    assert.equal(result.tenant, tenant);
    assert.equal(result.sameChain, true, 'same company id, empty store: the very same chain');
    const target = await startTestServer({ dataDir: dir });
    try {
      assert.ok(await target.services.projections.waitFor(result.position, { timeoutMs: 30_000 }));
      // The company's trail also shows platform events that concern it (sign-ins, memberships, the bootstrap): those belong
      // to the source platform's accounts and do not travel. Every entry of an exported event must be there, equal.
      const exportedIds = new Set(eventLines.flatMap((l) => (l.kind === 'event' || l.kind === 'company' ? [l.id] : [])));
      const travels = (l: RecordLine) =>
        l.projection !== 'auditTrail' || l.doc.entryId === undefined || exportedIds.has(l.doc.entryId as string);
      const expected = new Map<string, Record<string, unknown>>();
      for (const l of await linesOf(records))
        if (l.kind === 'record' && travels(l)) expected.set(`${l.projection}/${l.collection}/${String(l.doc.id)}`, l.doc);
      const found = new Map<string, Record<string, unknown>>();
      for await (const l of companyRecords(target.services.projections, tenant, collections))
        if (travels(l)) found.set(`${l.projection}/${l.collection}/${String(l.doc.id)}`, l.doc);
      assert.ok(expected.size > 20, `records exported: ${expected.size}`);
      const only = (a: Map<string, Record<string, unknown>>, b: Map<string, Record<string, unknown>>) =>
        [...a].filter(([k]) => !b.has(k)).map(([k, d]) => `${k} ${String(d.action)} ${String(d.recordType)} ${String(d.recordId)}`);
      assert.deepEqual({ extra: only(found, expected), missing: only(expected, found) }, { extra: [], missing: [] });
      for (const [key, doc] of expected) assert.deepEqual(normalize(found.get(key)!), normalize(doc), key);

      const granted = await grantMembership(
        target.services,
        { companyId: tenant, userId: target.admin.userId, roles: ['admin'] },
        { actor: 'system' },
      );
      await target.services.projections.waitFor(granted.position!);
      const targetToken = await target.signInAndSelect({ ...target.admin, companyId: tenant });
      for (const p of answersCompared()) assert.deepEqual(await untilFound(target, targetToken, p), before_[p], p);

      const started = await target.request('POST', '/sistema/integridad/verificacion', { token: targetToken });
      assert.equal(started.status, 202);
      let verification = started.body;
      while (verification.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        verification = (await target.request('GET', started.headers.location!, { token: targetToken })).body;
      }
      assert.equal(verification.state, 'intact', JSON.stringify(verification));
    } finally {
      await target.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a tampered export, naming the event whose data changed, and writes nothing', async () => {
    const { events } = await fullExport();
    const text = gunzipSync(await fs.readFile(events))
      .toString('utf8')
      .split('\n');
    const at = text.findIndex(
      (l) =>
        (l.includes('"kind":"event"') && l.includes('"type":"NursingNoteWritten"')) ||
        (l.includes('"kind":"event"') && l.includes('estable')),
    );
    assert.ok(at > 0, 'the note is in the export');
    const event = JSON.parse(text[at]!) as { id: string; position: string };
    text[at] = text[at]!.replace('estable', 'estab1e');
    const tampered = path.join(work, 'tampered.ndjson.gz');
    await fs.writeFile(tampered, gzipSync(text.join('\n')));
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-import-'));
    const store = await openEventStore(loadConfig({ DATA_DIR: dir }), createLogger('error'));
    try {
      await assert.rejects(importCompany({ events: store }, tampered), (err: unknown) => {
        assert.ok(err instanceof ExportRejectedError, String(err));
        assert.equal(err.eventId, event.id);
        assert.equal(err.position, event.position);
        assert.match(err.message, new RegExp(event.id));
        return true;
      });
      assert.equal(await store.headPosition(), 0n, 'verified before anything is written');
    } finally {
      await store.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("answers 404 for another company's export, 409 while one runs, and audits the export", async () => {
    const { job } = await fullExport();
    const other = await source.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase 7');
    const otherToken = await source.signInAndSelect(other);
    assert.equal((await source.request('GET', `/sistema/exportaciones/${job.id}`, { token: otherToken })).status, 404);
    assert.equal((await download(job.id, 'eventos', otherToken)).status, 404);

    const [a, b] = await Promise.all([
      source.request('POST', '/sistema/exportaciones', { token, body: {} }),
      source.request('POST', '/sistema/exportaciones', { token, body: {} }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [202, 409]);
    const running = a.status === 202 ? a : b;
    for (let state = running.body.state; state === 'running';) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      state = (await source.request('GET', running.headers.location!, { token })).body.state;
    }

    const trail = await source.request('GET', '/sistema/auditoria?action=CompanyExported', { token });
    assert.equal(trail.status, 200, JSON.stringify(trail.body));
    const entry = trail.body.items.find((e: ApiJson) => e.recordId === job.id);
    assert.ok(entry, JSON.stringify(trail.body.items));
    assert.equal(entry.actor, source.admin.userId);
  });

  it('resumes from a position: the full export and the next one restore the chain up to the second', async () => {
    const { job, events } = await fullExport();
    const note = await source.request('POST', `/pacientes/${ids.patient}/notas`, { token, body: { noteType: 'general', text: 'despues' } });
    assert.equal(note.status, 201);
    const bad = await source.request('POST', '/sistema/exportaciones', { token, body: { after: '1' } });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    const next = await exportOver({ after: job.through });
    assert.equal(next.job.state, 'ready', JSON.stringify(next.job));
    assert.ok(next.job.progress.eventsTotal < job.progress.eventsTotal);
    const more = await download(next.job.id, 'eventos');
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
        (await source.services.events.chainHead(tenant))!.count - (await countAfter(next.job.through)),
      );
    } finally {
      await store.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('restores as a new company: stream names, tenant ids and event ids rewritten, a new chain that verifies', async () => {
    const { events, records } = await fullExport();
    const newTenant = 'restored_company_1';
    const { dir, result } = await importIntoEmptyDir(events, newTenant);
    assert.equal(result.tenant, newTenant);
    assert.equal(result.sameChain, false, 'a new company id is a new chain');
    const target = await startTestServer({ dataDir: dir });
    try {
      assert.ok(await target.services.projections.waitFor(result.position, { timeoutMs: 30_000 }));
      const renamed = (doc: Record<string, unknown>) => JSON.parse(JSON.stringify(normalize(doc)).split(tenant).join(newTenant)) as unknown;
      const expected = new Map<string, unknown>();
      for (const l of await linesOf(records))
        if (l.kind === 'record' && l.projection !== 'auditTrail')
          expected.set(`${l.projection}/${l.collection}/${String(l.doc.id)}`, renamed(l.doc));
      const found = new Map<string, unknown>();
      for await (const l of companyRecords(target.services.projections, newTenant, collections))
        if (l.projection !== 'auditTrail') found.set(`${l.projection}/${l.collection}/${String(l.doc.id)}`, normalize(l.doc));
      assert.ok(expected.size > 10);
      assert.deepEqual(found, expected);
      assert.equal((await target.services.events.readAll({ tenant, maxCount: 1 })).length, 0, 'nothing under the old id');
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
    const dir = await fs.mkdtemp(path.join(work, 'lib-'));
    const seen: ExportProgress[] = [];
    const result = await exportCompany(source.services, {
      tenantId: tenant,
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
    return (await source.services.events.readChain(tenant, { after: BigInt(through), maxCount: 10_000 })).length;
  }
});
