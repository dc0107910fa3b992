// npm run bench [-- appends rebuild coldstart recovery http scale audit sistema widgets generador observability streams lists mix
// reads] [--events N] [--seconds S] [--scale-events N] [--audit-entries N] [--sistema-events N] [--patients N] [--no-settle]
// [--stream-events N] [--stream-runs N] (section streams) [--reps N] (sections lists, mix) [--profile] (section lists)
// [--resume bench/results/<file>.json] (a stopped run goes on: the sections it has are kept, the others measured)
// Prints a table per section and writes all figures as JSON under bench/results/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchAppends } from './appends.js';
import { ensureDataset } from './dataset.js';
import { benchRebuild } from './rebuild.js';
import { benchColdStart } from './coldStart.js';
import { benchRecovery } from './recovery.js';
import { benchHttp } from './http.js';
import { buildService } from './processes.js';
import { benchScale } from './scale.js';
import { benchAuditQuery } from './auditQuery.js';
import { benchSistema } from './sistema.js';
import { benchWidgets } from './widgets.js';
import { benchGenerador } from './generador.js';
import { benchObservability } from './observability.js';
import { benchStreams } from './streams.js';
import { judgeTargets } from './targets.js';
import { writeRunTable } from './benchTable.js';
import { benchListsSection } from './lists.js';
import { benchMix } from './mix.js';
import { benchReads } from './reads.js';
import { BENCH_CREDS, BENCH_SERVICE_ENV } from './benchAdmin.js';
import { codeMeasured, resumedRun } from './runResume.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const sections = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const resumeIndex = args.indexOf('--resume');
const resumed = resumeIndex >= 0 ? args[resumeIndex + 1] : undefined;
const EVENTS = option('events', 1_000_000);
const SECONDS = option('seconds', 10);
const SCALE_EVENTS = option('scale-events', 10_000_000);
const AUDIT_ENTRIES = option('audit-entries', 10_000_000);
const SISTEMA_EVENTS = option('sistema-events', 200_000);
// 1,000: at 10,000 (15.4M events) the first start's read models outgrow this machine's disk (37 GB after 30 minutes,
// still catching up); the widgets read the same documents whatever the company's size (bench/widgetsFloor.ts).
const PATIENTS = option('patients', 1_000);
const log = (s: string) => process.stdout.write(s + '\n');

const creds = BENCH_CREDS;
const serviceEnv = BENCH_SERVICE_ENV;

async function main(): Promise<void> {
  const code = codeMeasured(path.resolve(here, '..'));
  const outDir = path.join(here, 'results');
  const results: Record<string, unknown> = resumed
    ? resumedRun(resumed, code, { node: process.version, cpus: os.cpus().length })
    : {
        at: new Date().toISOString(),
        ...code,
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      };
  const file = resumed ?? path.join(outDir, `${(results.at as string).replace(/[:.]/g, '-')}.json`);
  const measured = (key: string) => key in results;
  // A resumed run skips what it measured before (keys as kept below: coldstart's figures are kept as coldStart).
  const wanted = (s: string) => (sections.length === 0 || sections.includes(s)) && !measured(s === 'coldstart' ? 'coldStart' : s);
  if (resumed)
    log(
      `Resuming ${file}: kept ${Object.keys(results)
        .filter((k) => typeof results[k] === 'object')
        .join(', ')}`,
    );
  log('Compiling the service (npm run build): every start below runs dist/src/main.js, as deployed ...');
  buildService();
  const scratch = path.join(here, 'tmp');
  fs.mkdirSync(scratch, { recursive: true });
  /** Each section's figures are written as it ends: a run stopped half-way keeps what it measured. */
  const keep = (section: string, figures: unknown): void => {
    results[section] = figures;
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  };

  if (wanted('appends')) {
    log('\n== Durable appends (SQLite, WAL, group commit, fdatasync of the WAL off the event loop) ==');
    const figures = await benchAppends();
    console.table(figures);
    keep('appends', figures);
  }
  let datasetDir: string | null = null;
  if (wanted('rebuild') || wanted('coldstart') || wanted('recovery')) {
    log(`\n== Event log of ${EVENTS} events (built once, reused) ==`);
    datasetDir = await ensureDataset(scratch, EVENTS, log);
  }
  if (wanted('rebuild') && datasetDir) {
    log('\n== Projection rebuild (patients + nursing notes: SQLite read store, then embedded) ==');
    const figures = await benchRebuild(datasetDir, scratch);
    console.table(figures);
    keep('rebuild', figures);
  }
  if (wanted('coldstart') && datasetDir) {
    log('\n== Cold start of the service over the event log ==');
    const figures = await benchColdStart(datasetDir, scratch, EVENTS, 3901, serviceEnv);
    console.table([figures]);
    keep('coldStart', figures);
  }
  if (wanted('recovery') && datasetDir) {
    log('\n== Recovery after kill -9 under registrations (ms from the restarted process spawn) ==');
    const figures = await benchRecovery({ datasetDir, scratch, events: EVENTS, port: 3929, env: serviceEnv, creds, log });
    const { burst, notReadySaid, beforeFirst, ...times } = figures;
    console.table([{ ...times, burstP50Ms: burst.p50Ms, burstP99Ms: burst.p99Ms }]);
    log(`burst statuses ${JSON.stringify(burst.statuses)}; before the first success ${JSON.stringify(beforeFirst)}`);
    for (const said of notReadySaid) log(`/ready while not ready: ${said}`);
    keep('recovery', figures);
  }
  if (wanted('http')) {
    log(`\n== HTTP at 100 connections, ${SECONDS} s per scenario (autocannon) ==`);
    const figures = await benchHttp(scratch, { service: 3902, bare: 3903 }, serviceEnv, creds, SECONDS);
    console.table([
      figures.bareKoa,
      figures.registerPatient,
      figures.listPatients,
      figures.hireStaff,
      figures.listStaff,
      figures.registerMachine,
      figures.listMachines,
      figures.receiveDialyzer,
      figures.listDialyzers,
      figures.dialisis.recordReading,
      figures.dialisis.dayBoard,
      figures.dialisis.sessionSheet,
      figures.supplies.issueStock,
      figures.supplies.listProducts,
      figures.supplies.registerClient,
      figures.supplies.listClients,
    ]);
    log(`commands/bare Koa = ${figures.commandRatio}   queries/bare Koa = ${figures.queryRatio}`);
    log('\n-- peers in the same run --');
    const p = figures.peers;
    console.table([p.listFloor, p.sqliteRegister, p.sqliteList, ...(p.pgRegister && p.pgList ? [p.pgRegister, p.pgList] : [])]);
    const r = p.ratios;
    log(`register/SQLite CRUD = ${r.registerVsSqlite}   list/SQLite CRUD = ${r.listVsSqlite}   list/floor = ${r.listVsFloor}`);
    log(`register/PostgreSQL CRUD = ${r.registerVsPostgres ?? 'n/a'}   list/PostgreSQL CRUD = ${r.listVsPostgres ?? 'n/a'}`);
    keep('http', figures);
  }
  if (wanted('scale')) {
    log(`\n== Scale: ${SCALE_EVENTS} events, SQLite read store (first start, restart, queries, rebuild) ==`);
    const figures = await benchScale({
      scratch,
      events: SCALE_EVENTS,
      ports: { scale: 3904, memory: 3905 },
      env: serviceEnv,
      creds,
      loadSeconds: 3,
      log,
    });
    const { sqlite, memory1M } = figures.queries;
    console.table([{ events: figures.events, ...figures.firstStart }]);
    console.table([figures.restart]);
    console.table({
      'SQLite, first page': sqlite.firstPage,
      'SQLite, deep page': sqlite.deepPage,
      'SQLite, by id': sqlite.byId,
      'in-memory 1M, first page': memory1M.firstPage,
      'in-memory 1M, deep page': memory1M.deepPage,
      'in-memory 1M, by id': memory1M.byId,
    });
    console.table([sqlite.firstPageLoad, sqlite.byIdLoad, memory1M.firstPageLoad, memory1M.byIdLoad]);
    console.table([figures.rebuild]);
    console.table(figures.targets.map((t) => ({ ...t, met: t.met ? 'met' : 'MISSED' })));
    keep('scale', figures);
  }
  if (wanted('audit')) {
    log(`\n== Audit trail query over ${AUDIT_ENTRIES} entries (SQLite read store filled in bulk) ==`);
    const figures = await benchAuditQuery(scratch, AUDIT_ENTRIES, log);
    console.table(figures.queries);
    log(
      `read-model file ${figures.fileGiB} GiB; ${figures.buildSeconds === null ? 'built in an earlier run' : `built in ${figures.buildSeconds} s`}`,
    );
    keep('audit', figures);
  }
  if (wanted('sistema')) {
    log(`\n== Sistema: change feed, webhooks, export and backup over ${SISTEMA_EVENTS} company events (real service, HTTP) ==`);
    const figures = await benchSistema({ scratch, companyEvents: SISTEMA_EVENTS, port: 3906, env: serviceEnv, creds, log });
    log(`log ${figures.logEvents} events, ${figures.companyEvents} of the company's; first start ${figures.firstStartSeconds} s`);
    console.table(figures.feed);
    console.table({
      'append -> SSE arrival': figures.sseAppendToArrival,
      'append -> webhook delivery': figures.webhooks.appendToDelivery,
    });
    console.table({ 'webhook burst': figures.webhooks.burst });
    console.table({ export: figures.export, backup: figures.backup });
    keep('sistema', figures);
  }

  if (wanted('widgets')) {
    log(`\n== Widgets: ${PATIENTS} patients and a year of their sessions (real service, HTTP, sequential requests) ==`);
    const figures = await benchWidgets({
      scratch,
      patients: PATIENTS,
      port: 3907,
      env: serviceEnv,
      creds,
      log,
      settle: !args.includes('--no-settle'),
    });
    const built = figures.generationSeconds === null ? 'reused' : `built in ${figures.generationSeconds} s`;
    log(`${figures.patients} patients, ${figures.sessions} sessions, ${figures.logEvents} events (log ${built})`);
    console.table({
      'first start (catch-up)': { ...figures.firstStart, settleSeconds: figures.settleSeconds, loadAverage: figures.loadAverage },
    });
    console.table(figures.latencies);
    keep('widgets', figures);
  }
  if (wanted('generador')) {
    log(`\n== Generador: a company's module beside Pacientes, ${SECONDS} s per scenario, each twice (autocannon, 100 connections) ==`);
    const figures = await benchGenerador(scratch, 3908, serviceEnv, creds, SECONDS);
    console.table([figures.registerPatient, figures.createRecord, figures.listPatients, figures.listRecords]);
    log(`create/register = ${figures.createRatio}   list/list = ${figures.listRatio}   (within 20 %: ${figures.met ? 'met' : 'MISSED'})`);
    keep('generador', figures);
  }
  if (wanted('observability')) {
    log(
      `\n== Metrics, access log and tracing: their cost on registration and list, ${SECONDS} s per scenario, each ${option('reps', 2)} times ==`,
    );
    const figures = await benchObservability(scratch, { service: 3909, sink: 3910 }, serviceEnv, creds, SECONDS, option('reps', 2));
    console.table(
      figures.runs.map(({ variant, scenario, requestsPerSecond, p99Ms, cpuMicrosPerRequest, non2xx }) => ({
        variant,
        scenario,
        requestsPerSecond,
        p99Ms,
        cpuMicrosPerRequest,
        non2xx,
      })),
    );
    console.table(figures.medians);
    log(
      `metrics: ${figures.metricsNanosPerRequest} ns per request; an access line: ${figures.accessLineNanos} ns, ${figures.accessLogBytesPerRequest} bytes; OTLP exports received: ${figures.spansExported}`,
    );
    keep('observability', figures);
  }

  if (wanted('reads')) {
    log(`\n== Reads beyond the lists (issue 29 item 3): 100 connections, ${SECONDS} s each, beside the list floor ==`);
    const figures = await benchReads({ scratch, ports: { service: 3911, floor: 3912 }, env: serviceEnv, creds, seconds: SECONDS, log });
    console.table([figures.listFloor]);
    console.table(figures.reads.map(({ met, ...f }) => ({ ...f, met: met ? 'met' : 'MISSED' })));
    log(`load average ${figures.loadAverage} (2 shared cores)`);
    keep('reads', figures);
  }
  if (wanted('mix')) {
    log(
      `\n== Reads and writes at once: 90/10 mix and 90 GET + 10 POST connections, ${SECONDS} s each, ${option('reps', 2)} reps alternated: the service with writes first off, as configured, and with WAL_FLUSHES_IN_FLIGHT=2, and the PostgreSQL peer ==`,
    );
    const figures = await benchMix(scratch, serviceEnv, creds, SECONDS, option('reps', 2), log);
    console.table(figures.rows);
    console.table(figures.summary);
    log(
      `load average ${figures.loadAverage}; split POST/s vs PostgreSQL = ${figures.splitPostVsPostgres ?? 'n/a'} (target >= 1 with p99 < 100 ms: ${figures.met === null ? 'n/a' : figures.met ? 'met' : 'MISSED'})`,
    );
    keep('mix', figures);
  }

  if (wanted('lists')) keep('lists', await benchListsSection({ scratch, env: serviceEnv, creds, seconds: SECONDS, args, log }));

  if (wanted('streams')) {
    log(
      `\n== Long streams: one stock issue on a stream of ${option('stream-events', 100_000)} movements and of 10 (snapshot vs whole fold) ==`,
    );
    keep('streams', await benchStreams({ events: option('stream-events', 100_000), runs: option('stream-runs', 60), log }));
    console.table(results.streams);
  }

  const targets = judgeTargets(results);
  log('\n== Targets ==');
  console.table(targets.map((t) => ({ ...t, met: t.met ? 'met' : 'MISSED' })));
  keep('targets', targets);
  fs.writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
  log(`\nFigures written to ${path.relative(process.cwd(), file)}`);
  if (sections.length === 0) {
    // Only a full run speaks for the service as a whole: the README's table is always the latest one.
    const root = path.resolve(here, '..');
    await writeRunTable(root, path.relative(root, file));
    log(`README's benchmark table written from ${path.relative(root, file)}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
