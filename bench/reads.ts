// Issue 29 item 3, the reads beyond the plain lists: a session by id, the monthly adequacy, the alerts, the Sistema audit
// trail, a Widgets data read and the Generador main list, each at 100 connections on one seeded service beside the
// list floor (the same page of 50 patients from memory) measured in the same run; target: half the floor's requests/s,
// p99 under 50 ms, no timeout. CPU per request is the service's utime+stime (/proc/<pid>/stat) over the answered ones.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLoad, type LoadFigures, type LoadScenario } from './load.js';
import { startPeer, startService, type Started } from './processes.js';
import { signIn } from './scaleQueries.js';
import { seedReads, type ReadsSeed } from './readsSeed.js';
import type { BenchCredentials } from './http.js';

export interface ReadFigures extends LoadFigures {
  /** Bytes of one answer (uncompressed, as autocannon asks): the floor's page is the yardstick. */
  bytes: number;
  cpuMicrosPerRequest: number;
  /** Requests/s over the floor's (the target: at least 0.5). */
  ratioToFloor: number;
  met: boolean;
}

export interface ReadsFigures {
  loadAverage: number;
  listFloor: LoadFigures & { bytes: number };
  reads: ReadFigures[];
  /** Each read's load window on CLOCK_MONOTONIC in µs (process.hrtime, a .cpuprofile's clock): for profiles. */
  windows: { scenario: string; fromUs: number; toUs: number }[];
}

const CLOCK_TICK_MICROS = 10_000; // USER_HZ = 100 on Linux

/** utime + stime of a process, in µs. */
export function cpuMicrosOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MICROS;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const FLOOR_MIN_RATIO = 0.5;
const P99_MAX_MS = 50;

/** The reads of the section over a seeded service (the session read rotates over the day's sessions). */
export function readScenarios(url: string, seed: ReadsSeed): LoadScenario[] {
  const month = seed.today.slice(0, 7);
  const monthAgo = new Date(Date.parse(`${seed.today}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
  let s = 0;
  return [
    {
      scenario: `GET /dialisis/sesiones/{id} (${seed.sessionIds.length} sessions, ~120 readings)`,
      url: `${url}/dialisis/sesiones/${seed.sessionIds[0]!}`,
      path: () => `/dialisis/sesiones/${seed.sessionIds[s++ % seed.sessionIds.length]!}`,
    },
    { scenario: 'GET /dialisis/adecuacion?month (monthly adequacy)', url: `${url}/dialisis/adecuacion?month=${month}` },
    { scenario: 'GET /dialisis/alertas (30 days)', url: `${url}/dialisis/alertas?from=${monthAgo}&to=${seed.today}` },
    { scenario: 'GET /sistema/auditoria?limit=50 (audit trail)', url: `${url}/sistema/auditoria?limit=50` },
    { scenario: 'GET /widgets/fluid-outliers/datos', url: `${url}/widgets/fluid-outliers/datos` },
    { scenario: `GET /generador/m/${seed.moduleCode}?limit=50`, url: `${url}/generador/m/${seed.moduleCode}?limit=50` },
    // Not a target of this section: the plain list beside the Generador's (the same prepared-page path).
    { scenario: 'GET /pacientes?limit=50 (reference: the plain list)', url: `${url}/pacientes?limit=50` },
  ];
}

/** One read at 100 connections with the service's CPU per answered request; `window` on the profile's clock. */
export async function measureRead(
  service: Started,
  scenario: LoadScenario,
  headers: Record<string, string>,
  seconds: number,
  floorRps: number,
): Promise<{ figures: ReadFigures; window: ReadsFigures['windows'][number] }> {
  const pid = service.child.pid!;
  const sample = await fetch(scenario.path ? `${service.url}${scenario.path()}` : scenario.url, { headers });
  const bytes = (await sample.arrayBuffer()).byteLength;
  const before = cpuMicrosOf(pid);
  const fromUs = nowUs();
  const load = await runLoad({ ...scenario, headers, durationSeconds: seconds });
  const window = { scenario: scenario.scenario, fromUs, toUs: nowUs() };
  const used = cpuMicrosOf(pid) - before;
  const answered = Math.max(1, load.requestsPerSecond * seconds);
  const ratioToFloor = Number((load.requestsPerSecond / floorRps).toFixed(2));
  const met = ratioToFloor >= FLOOR_MIN_RATIO && load.p99Ms < P99_MAX_MS && load.errors === 0 && load.non2xx === 0;
  return { figures: { ...load, bytes, cpuMicrosPerRequest: Math.round(used / answered), ratioToFloor, met }, window };
}

/** The list floor on the service's own first page of 50 patients, in its own process. */
export async function measureFloor(scratch: string, port: number, page: unknown, seconds: number): Promise<ReadsFigures['listFloor']> {
  const pageFile = path.join(scratch, 'reads-floor-page.json');
  fs.writeFileSync(pageFile, JSON.stringify(page));
  const floor = await startPeer('listFloor', port, { PAGE_FILE: pageFile });
  try {
    const figures = await runLoad({ scenario: 'peer: list floor (50 documents from memory)', url: floor.url, durationSeconds: seconds });
    return { ...figures, bytes: Buffer.byteLength(JSON.stringify(page)) };
  } finally {
    await floor.stop();
  }
}

/** A fresh service seeded through its routes (`mainJs`: another build of the service, for a comparison). */
export async function seededService(
  opts: {
    scratch: string;
    port: number;
    env: Record<string, string>;
    creds: BenchCredentials;
    log: (s: string) => void;
    nodeArgs?: string[];
  },
  name = 'reads',
  mainJs?: string,
): Promise<{ service: Started; headers: Record<string, string>; seed: ReadsSeed; dataDir: string }> {
  const dataDir = path.join(opts.scratch, name);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const service = await startService({ ...opts.env, DATA_DIR: dataDir }, opts.port, opts.nodeArgs ?? [], 300_000, 'ignore', mainJs);
  try {
    const token = await signIn(service.url, opts.creds);
    opts.log(`Seeding ${name} through the routes ...`);
    return { service, headers: { authorization: `Bearer ${token}` }, seed: await seedReads(service.url, token, opts.log), dataDir };
  } catch (err) {
    await service.stop();
    throw err;
  }
}

export async function benchReads(opts: {
  scratch: string;
  ports: { service: number; floor: number };
  env: Record<string, string>;
  creds: BenchCredentials;
  seconds: number;
  log: (s: string) => void;
  nodeArgs?: string[];
}): Promise<ReadsFigures> {
  const { scratch, seconds } = opts;
  const { service, headers, seed, dataDir } = await seededService({ ...opts, port: opts.ports.service });
  try {
    const page = await (await fetch(`${service.url}/pacientes?limit=50`, { headers })).json();
    const listFloor = await measureFloor(scratch, opts.ports.floor, page, seconds);
    const loadAverage = Number(os.loadavg()[0]!.toFixed(2));
    const reads: ReadFigures[] = [];
    const windows: ReadsFigures['windows'] = [];
    for (const scenario of readScenarios(service.url, seed)) {
      const { figures, window } = await measureRead(service, scenario, headers, seconds, listFloor.requestsPerSecond);
      reads.push(figures);
      windows.push(window);
    }
    return { loadAverage, listFloor, reads, windows };
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
