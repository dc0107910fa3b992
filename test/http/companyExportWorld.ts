// The company export suites' world: a company with a patient, a session, a note, a machine... (the Dialisis and
// equipment seeds), and helpers to export it over HTTP, download its parts and import them into an empty directory.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { openEventStore } from '../../src/stores/openEventStore.js';
import { registeredGroups } from '../../src/http/groups.js';
import { importCompany, type ImportResult } from '../../src/ops/importCompany.js';
import { recordCollectionsOf } from '../../src/ops/exportCompany.js';
import { readExportLines, type ExportLine } from '../../src/ops/exportFormat.js';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';
import { seedDialisis } from './dialisisSeeds.js';
import { seedEquipment } from './equipmentSeeds.js';

export const collections = recordCollectionsOf(registeredGroups().flatMap((g) => g.projections));
/** Positions of one log mean nothing in another: every other field of a document must be the same. */
const POSITION_FIELDS = ['_position', 'seq'];

export const normalize = (doc: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(doc).filter(([k]) => !POSITION_FIELDS.includes(k)));

export async function linesOf(file: string): Promise<ExportLine[]> {
  const lines: ExportLine[] = [];
  for await (const { value } of readExportLines(file)) lines.push(value);
  return lines;
}

/** Imports into a fresh data directory with the service stopped (what `ops import` does), answering the directory. */
export async function importIntoEmptyDir(file: string, asTenant?: string): Promise<{ dir: string; result: ImportResult }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-import-'));
  const events = await openEventStore(loadConfig({ DATA_DIR: dir }), createLogger('error'));
  try {
    return { dir, result: await importCompany({ events }, file, asTenant ? { asTenant } : {}) };
  } finally {
    await events.close();
  }
}

export async function untilFound(server: TestServer, as: string, p: string): Promise<ApiJson> {
  for (let tries = 0; ; tries++) {
    const answer = await server.request('GET', p, { token: as });
    if (answer.status === 200 || tries > 100) {
      assert.equal(answer.status, 200, `${p}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface ExportWorld {
  source: TestServer;
  token: string;
  tenant: string;
  /** A folder for downloads, removed by close(). */
  work: string;
  ids: { patient: string; session: string; machine: string };
  /** GET answers taken before any export, by path. */
  answers: Record<string, ApiJson>;
  exportOver(body?: Record<string, unknown>): Promise<{ job: ApiJson; seen: ApiJson[] }>;
  download(id: string, part: 'eventos' | 'registros', as?: string): Promise<{ status: number; file: string; headers: Headers }>;
  /** One full export, made once and checked (202 while running, progress, headers of the parts). */
  fullExport(): Promise<{ job: ApiJson; events: string; records: string }>;
  close(): Promise<void>;
}

export async function startExportWorld(): Promise<ExportWorld> {
  const source = await startTestServer();
  const token = await source.signInAndSelect(source.admin);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-export-test-'));
  const dialisis = await seedDialisis(source, token);
  const equipment = await seedEquipment(source, token);
  const ids = {
    patient: dialisis.valueFor('/dialisis/pacientes/{patientId}', 'patientId'),
    session: dialisis.valueFor('/dialisis/sesiones/{id}', 'id'),
    machine: equipment.valueFor('/monitores/{id}', 'id'),
  };
  const note = await source.request('POST', `/pacientes/${ids.patient}/notas`, { token, body: { noteType: 'general', text: 'estable' } });
  assert.equal(note.status, 201, JSON.stringify(note.body));
  const answers: Record<string, ApiJson> = {};
  for (const p of [`/pacientes/${ids.patient}`, `/dialisis/sesiones/${ids.session}`, `/monitores/${ids.machine}`])
    answers[p] = await untilFound(source, token, p);
  await source.flushAccessAudit(); // the reads' audit events are in the log before the export, not racing it

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

  let exported: { job: ApiJson; events: string; records: string } | undefined;
  async function fullExport(): Promise<{ job: ApiJson; events: string; records: string }> {
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

  const close = async () => {
    await source.close();
    await fs.rm(work, { recursive: true, force: true });
  };
  return { source, token, tenant: source.admin.companyId, work, ids, answers, exportOver, download, fullExport, close };
}
