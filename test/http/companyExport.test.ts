// Issue 24 item 3: a company exported over HTTP (gzip NDJSON, in the background, with progress) and restored into an
// EMPTY data directory answers the same records and verifies its chain; a tampered export is refused naming its event.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { openEventStore } from '../../src/stores/openEventStore.js';
import { grantMembership } from '../../src/commands/platform/platformWrites.js';
import { importCompany } from '../../src/ops/importCompany.js';
import { companyRecords } from '../../src/ops/exportCompany.js';
import { ExportRejectedError, type RecordLine } from '../../src/ops/exportFormat.js';
import { startTestServer, type ApiJson } from '../support/harness.js';
import {
  collections,
  importIntoEmptyDir,
  linesOf,
  normalize,
  startExportWorld,
  untilFound,
  type ExportWorld,
} from './companyExportWorld.js';

describe('company export and restore (issue 24 item 3), over HTTP', function () {
  this.timeout(120_000);
  let w: ExportWorld;
  before(async () => (w = await startExportWorld()));
  after(() => w?.close());

  it('exports, then an empty store restored from the export answers the same records and verifies its chain', async () => {
    const { job, events, records } = await w.fullExport();
    const eventLines = await linesOf(events);
    const header = eventLines[0]!;
    assert.equal(header.kind, 'header');
    assert.equal(header.kind === 'header' && header.tenant, w.tenant);
    assert.ok(
      eventLines.some((l) => l.kind === 'checkpoint'),
      'the signed checkpoints travel with the events',
    );
    assert.ok(eventLines.some((l) => l.kind === 'company' && l.type === 'CompanyRegistered'));
    const end = eventLines[eventLines.length - 1]!;
    assert.equal(end.kind === 'end' && end.events, job.progress.eventsTotal);

    const { dir, result } = await importIntoEmptyDir(events);
    assert.equal(result.tenant, w.tenant);
    assert.equal(result.sameChain, true, 'same company id, empty store: the very same chain');
    const target = await startTestServer({ dataDir: dir });
    try {
      assert.ok(await target.services.projections.waitFor(result.position, { timeoutMs: 30_000 }));
      // The company's trail also shows platform events that concern it (sign-ins, memberships, the bootstrap): those belong
      // to the w.source platform's accounts and do not travel. Every entry of an exported event must be there, equal.
      const exportedIds = new Set(eventLines.flatMap((l) => (l.kind === 'event' || l.kind === 'company' ? [l.id] : [])));
      // An audit entry's document is keyed by its log position, which a restore into another store changes: its event
      // (entryId) and patient name it there. A patient's row of an entry is named by its entry's event, whose line comes
      // first (the entries are exported before the patients' rows).
      const eventOfKey = new Map<string, string>();
      const eventOf = (l: RecordLine): string | undefined => {
        if (l.projection !== 'auditTrail') return undefined;
        if (l.doc.entryId !== undefined) eventOfKey.set(`${l.doc.tenantId as string}/${String(l.doc.id)}`, l.doc.entryId as string);
        const key = l.doc.patientId === undefined ? String(l.doc.id) : String(l.doc.id).split(':')[0]!;
        return eventOfKey.get(`${l.doc.tenantId as string}/${key}`);
      };
      const travels = (l: RecordLine) => {
        const event = eventOf(l);
        return event === undefined || exportedIds.has(event);
      };
      const keyOf = (l: RecordLine) => {
        const event = eventOf(l);
        const name = event === undefined ? String(l.doc.id) : `${event}:${String((l.doc.patientId as string | undefined) ?? '')}`;
        return `${l.projection}/${l.collection}/${name}`;
      };
      const comparable = (l: RecordLine) => (eventOf(l) !== undefined ? { ...l.doc, id: undefined } : l.doc);
      const expected = new Map<string, Record<string, unknown>>();
      for (const l of await linesOf(records)) if (l.kind === 'record' && travels(l)) expected.set(keyOf(l), comparable(l));
      eventOfKey.clear();
      const found = new Map<string, Record<string, unknown>>();
      for await (const l of companyRecords(target.services.projections, w.tenant, collections))
        if (travels(l)) found.set(keyOf(l), comparable(l));
      assert.ok(expected.size > 20, `records exported: ${expected.size}`);
      const only = (a: Map<string, Record<string, unknown>>, b: Map<string, Record<string, unknown>>) =>
        [...a].filter(([k]) => !b.has(k)).map(([k, d]) => `${k} ${String(d.action)} ${String(d.recordType)} ${String(d.recordId)}`);
      assert.deepEqual({ extra: only(found, expected), missing: only(expected, found) }, { extra: [], missing: [] });
      for (const [key, doc] of expected) assert.deepEqual(normalize(found.get(key)!), normalize(doc), key);

      const granted = await grantMembership(
        target.services,
        { companyId: w.tenant, userId: target.admin.userId, roles: ['admin'] },
        { actor: 'system' },
      );
      await target.services.projections.waitFor(granted.position!);
      const targetToken = await target.signInAndSelect({ ...target.admin, companyId: w.tenant });
      for (const p of Object.keys(w.answers)) assert.deepEqual(await untilFound(target, targetToken, p), w.answers[p], p);

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
    const { events } = await w.fullExport();
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
    const tampered = path.join(w.work, 'tampered.ndjson.gz');
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
    const { job } = await w.fullExport();
    const other = await w.source.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase 7');
    const otherToken = await w.source.signInAndSelect(other);
    assert.equal((await w.source.request('GET', `/sistema/exportaciones/${job.id}`, { token: otherToken })).status, 404);
    assert.equal((await w.download(job.id, 'eventos', otherToken)).status, 404);

    const [a, b] = await Promise.all([
      w.source.request('POST', '/sistema/exportaciones', { token: w.token, body: {} }),
      w.source.request('POST', '/sistema/exportaciones', { token: w.token, body: {} }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [202, 409]);
    const running = a.status === 202 ? a : b;
    for (let state = running.body.state; state === 'running';) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      state = (await w.source.request('GET', running.headers.location!, { token: w.token })).body.state;
    }

    const trail = await w.source.request('GET', '/sistema/auditoria?action=CompanyExported', { token: w.token });
    assert.equal(trail.status, 200, JSON.stringify(trail.body));
    const entry = trail.body.items.find((e: ApiJson) => e.recordId === job.id);
    assert.ok(entry, JSON.stringify(trail.body.items));
    assert.equal(entry.actor, w.source.admin.userId);
  });
});
