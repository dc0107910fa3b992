// The audit trail query at scale (issue 23 item 1): the SQLite read store filled in bulk with N audit entries (default
// 10M), then the real query (auditPage, the read model's indexes) timed for each filter an auditor uses.
// Standalone: npx tsx bench/auditQuery.ts [--entries N]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { openSqliteReadStore } from '../src/stores/sqliteRead/sqliteReadStore.js';
import { tableNameOf } from '../src/stores/sqliteRead/readTable.js';
import type { Collection, ReadStore } from '../src/stores/readStore.js';
import { AUDIT_COLLECTIONS, AUDIT_TRAIL, patientRow, storedEntry, type AuditEntryDoc } from '../src/projections/sistema/auditEntryDoc.js';
import { auditExport, auditPage, type AuditQuery } from '../src/queries/sistema/auditTrail.js';
import { versionSuffix } from '../src/projections/runner/checkpoints.js';
import { auditProjection } from '../src/projections/sistema/auditProjection.js';
import type { LatencyFigures } from './scaleQueries.js';

const VERSION = 3; // bump when the generated entries change: a new directory is built
const TENANT = 'benchA';
const OTHER = 'benchB';
const ACTORS = 500;
const PATIENTS = 20_000;
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const SPAN_MS = 365 * 24 * 3600_000;
const RUNS = 200;
const ROUTES = [
  '/pacientes/{id}',
  '/pacientes',
  '/dialisis/sesiones/{id}',
  '/dialisis/sesiones',
  '/pacientes/{id}/notas',
  '/dialisis/sesiones/{id}/hoja',
];
const CHANGES = [
  'PatientCorrected',
  'NursingNoteRecorded',
  'NursingNoteAmended',
  'DialysisSessionStarted',
  'ReadingRecorded',
  'DialysisSessionEnded',
];

const uuid = (kind: number, n: number): string =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const benchAuditPatient = (n: number): string => uuid(1, n % PATIENTS);
const actorOf = (n: number): string => uuid(2, n % ACTORS);

/** Entry n of `total`, spread evenly over a year: 70 % reads (2 % denied, 1 % not found), 30 % changes; 80 % name one patient; 10 % are the other company's. */
function entryOf(n: number, total: number): AuditEntryDoc {
  const r = (n * 2654435761) >>> 0; // a cheap scramble, the same on every build
  const at = new Date(T0 + Math.floor((n / total) * SPAN_MS)).toISOString();
  const read = r % 10 < 7;
  const outcome = !read ? 'succeeded' : r % 100 < 2 ? 'denied' : r % 100 < 3 ? 'not-found' : 'allowed';
  const patientIds = r % 5 === 0 ? [] : [benchAuditPatient(r >>> 3)];
  const route = read ? ROUTES[(r >>> 5) % ROUTES.length]! : null;
  return storedEntry(r % 10 === 9 ? OTHER : TENANT, {
    entryId: uuid(3, n),
    at,
    position: n + 1,
    kind: read ? 'read' : 'change',
    action: read ? 'read' : CHANGES[(r >>> 7) % CHANGES.length]!,
    outcome,
    actor: actorOf(r >>> 11),
    sessionId: uuid(4, (r >>> 11) % ACTORS),
    ip: `10.0.${(r >>> 13) % 256}.${(r >>> 21) % 256}`,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
    correlationId: uuid(5, n),
    reason: null,
    route,
    method: read ? 'GET' : null,
    status: read ? (outcome === 'denied' ? 403 : outcome === 'not-found' ? 404 : 200) : null,
    recordType: patientIds.length > 0 ? 'patient' : 'machine',
    recordId: patientIds[0] ?? uuid(6, r % 300),
    patientIds,
    count: 1,
    lastAt: at,
  });
}

const names = {
  entries: AUDIT_TRAIL.entries + versionSuffix(auditProjection.version),
  byPatient: AUDIT_TRAIL.byPatient + versionSuffix(auditProjection.version),
};

/**
 * Builds the read-model file once: rows inserted with plain INSERTs in transactions of 10,000 into the tables the
 * read store made (the same rows its writes store: tenant, id, position, JSON), the indexes created afterwards.
 */
async function buildFile(file: string, entries: number, log: (s: string) => void): Promise<void> {
  const started = Date.now();
  const bare = await openSqliteReadStore({ file });
  await bare.collection(names.entries, []);
  await bare.collection(names.byPatient, []);
  await bare.close();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = (collection: string) => db.prepare(`INSERT INTO ${tableNameOf(collection)} (tenant_id, id, pos, doc) VALUES (?, ?, ?, ?)`);
  const intoEntries = insert(names.entries);
  const intoPatients = insert(names.byPatient);
  const batch = db.transaction((from: number, to: number) => {
    for (let n = from; n < to; n++) {
      const entry = entryOf(n, entries);
      intoEntries.run(entry.tenantId, entry.id, entry._position, JSON.stringify(entry));
      for (const patientId of entry.patientIds ?? []) {
        const row = patientRow(entry, patientId);
        intoPatients.run(row.tenantId, row.id, row._position, JSON.stringify(row));
      }
    }
  });
  for (let from = 0; from < entries; from += 10_000) {
    batch(from, Math.min(entries, from + 10_000));
    if (from % 1_000_000 === 0 && from > 0) log(`  ${from} entries (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  // The store learns which paths hold arrays from its writes: these rows came in beside it.
  db.prepare(`UPDATE read_collections SET array_paths = ? WHERE name = ?`).run(JSON.stringify(['patientIds']), names.entries);
  db.close();
  log(`  rows in ${Math.round((Date.now() - started) / 1000)} s; creating the indexes ...`);
  const indexed = await openSqliteReadStore({ file });
  await indexed.collection(names.entries, AUDIT_COLLECTIONS[AUDIT_TRAIL.entries]);
  await indexed.collection(names.byPatient, AUDIT_COLLECTIONS[AUDIT_TRAIL.byPatient]);
  await indexed.close();
  log(`  built in ${Math.round((Date.now() - started) / 1000)} s`);
}

function latencies(samples: number[]): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { meanMs: round(samples.reduce((s, x) => s + x, 0) / samples.length), p50Ms: round(at(0.5)), p99Ms: round(at(0.99)) };
}

async function timed(run: (i: number) => Promise<unknown>): Promise<LatencyFigures> {
  for (let i = 0; i < 10; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return latencies(samples);
}

export interface AuditBenchFigures {
  entries: number;
  fileGiB: number;
  buildSeconds: number | null;
  queries: Record<string, LatencyFigures & { items: number }>;
}

export async function benchAuditQuery(scratch: string, entries: number, log: (s: string) => void): Promise<AuditBenchFigures> {
  const dir = path.join(scratch, `audit-v${VERSION}-${entries}`);
  const file = path.join(dir, 'readmodels.sqlite');
  let buildSeconds: number | null = null;
  if (!fs.existsSync(path.join(dir, 'complete'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    const started = Date.now();
    await buildFile(file, entries, log);
    fs.writeFileSync(path.join(dir, 'complete'), new Date().toISOString());
    buildSeconds = Math.round((Date.now() - started) / 1000);
  }
  const reads: ReadStore = await openSqliteReadStore({ file });
  const collections: Record<string, Collection> = {
    [AUDIT_TRAIL.entries]: await reads.collection(names.entries, AUDIT_COLLECTIONS[AUDIT_TRAIL.entries]),
    [AUDIT_TRAIL.byPatient]: await reads.collection(names.byPatient, AUDIT_COLLECTIONS[AUDIT_TRAIL.byPatient]),
  };
  const services = { projections: { collection: (_p: string, logical: string) => collections[logical]! } } as Parameters<
    typeof auditPage
  >[0];
  const month = (i: number) => new Date(T0 + (i % 11) * 30 * 24 * 3600_000).toISOString();
  const monthEnd = (i: number) => new Date(T0 + ((i % 11) + 1) * 30 * 24 * 3600_000).toISOString();
  const page = (q: Partial<AuditQuery>) => auditPage(services, TENANT, { limit: 50, ...q });
  const cases: Record<string, (i: number) => Partial<AuditQuery>> = {
    'newest 50': () => ({}),
    'one month, no other filter': (i) => ({ from: month(i), to: monthEnd(i) }),
    'patient, whole trail': (i) => ({ patientId: benchAuditPatient(i * 7) }),
    'patient, one month': (i) => ({ patientId: benchAuditPatient(i * 7), from: month(i), to: monthEnd(i) }),
    'actor, one month': (i) => ({ actor: actorOf(i * 13), from: month(i), to: monthEnd(i) }),
    'outcome denied': () => ({ outcome: 'denied' }),
    'action NursingNoteAmended, one month': (i) => ({ action: 'NursingNoteAmended', from: month(i), to: monthEnd(i) }),
    'record (type and id)': (i) => ({ recordType: 'machine', recordId: uuid(6, (i * 5) % 300) }),
    'route, time range': (i) => ({ route: '/pacientes/{id}', from: month(i), to: monthEnd(i) }),
  };
  const queries: AuditBenchFigures['queries'] = {};
  for (const [name, of] of Object.entries(cases)) {
    let items = 0;
    const figures = await timed(async (i) => (items = (await page(of(i))).items.length));
    queries[name] = { ...figures, items };
  }
  // A page 40 cursors deep: each sample follows the chain from the page before (the cursor of the previous run).
  let cursor: string | null = null;
  for (let i = 0; i < 40; i++) cursor = (await page({ patientId: benchAuditPatient(1), limit: 10, cursor })).nextCursor;
  const deep = cursor;
  let deepItems = 0;
  const deepFigures = await timed(
    async () => (deepItems = (await page({ patientId: benchAuditPatient(1), limit: 10, cursor: deep })).items.length),
  );
  queries['patient, page 40 deep (10 a page)'] = { ...deepFigures, items: deepItems };
  // A whole patient's year as CSV (every matching entry streamed from the store), fewer runs.
  const started = process.hrtime.bigint();
  let bytes = 0;
  for await (const chunk of auditExport(services, TENANT, { patientId: benchAuditPatient(3) }, 'csv')) bytes += chunk.length;
  const exportMs = Number(process.hrtime.bigint() - started) / 1e6;
  queries['patient CSV export, whole year'] = {
    meanMs: Math.round(exportMs),
    p50Ms: Math.round(exportMs),
    p99Ms: Math.round(exportMs),
    items: bytes,
  };
  await reads.close();
  const fileGiB = Math.round((fs.statSync(file).size / 2 ** 30) * 100) / 100;
  return { entries, fileGiB, buildSeconds, queries };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--entries');
  const entries = i >= 0 ? Number(process.argv[i + 1]) : 10_000_000;
  const scratch = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tmp');
  const figures = await benchAuditQuery(scratch, entries, (s) => process.stdout.write(s + '\n'));
  console.table(figures.queries);
  console.log({ entries: figures.entries, fileGiB: figures.fileGiB, buildSeconds: figures.buildSeconds });
}
