// Issue 29 item 3, the reads beyond the plain lists: a session by id, the monthly adequacy, the alerts, the Sistema audit
// trail, a Widgets data read and the Generador main list, each at 100 connections on one seeded service beside the
// list floor (the same page of 50 patients from memory) measured in the same run; target: half the floor's requests/s,
// p99 under 50 ms, no timeout. CPU per request is the service's utime+stime (/proc/<pid>/stat) over the answered ones.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLoad, type LoadFigures, type LoadScenario } from './load.js';
import { startPeer, startService } from './processes.js';
import { signIn } from './scaleQueries.js';
import { seedReads } from './readsSeed.js';
import type { BenchCredentials } from './http.js';

export interface ReadFigures extends LoadFigures {
  cpuMicrosPerRequest: number;
  /** Requests/s over the floor's (the target: at least 0.5). */
  ratioToFloor: number;
  met: boolean;
}

export interface ReadsFigures {
  loadAverage: number;
  listFloor: LoadFigures;
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

const FLOOR_MIN_RATIO = 0.5;
const P99_MAX_MS = 50;

export async function benchReads(opts: {
  scratch: string;
  ports: { service: number; floor: number };
  env: Record<string, string>;
  creds: BenchCredentials;
  seconds: number;
  log: (s: string) => void;
  nodeArgs?: string[];
}): Promise<ReadsFigures> {
  const { scratch, seconds, log } = opts;
  const dataDir = path.join(scratch, 'reads');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const service = await startService({ ...opts.env, DATA_DIR: dataDir }, opts.ports.service, opts.nodeArgs ?? []);
  try {
    const token = await signIn(service.url, opts.creds);
    const headers = { authorization: `Bearer ${token}` };
    log('Seeding through the routes ...');
    const seed = await seedReads(service.url, token, log);
    const page = await (await fetch(`${service.url}/pacientes?limit=50`, { headers })).json();
    const pageFile = path.join(scratch, 'reads-floor-page.json');
    fs.writeFileSync(pageFile, JSON.stringify(page));
    const floor = await startPeer('listFloor', opts.ports.floor, { PAGE_FILE: pageFile });
    let listFloor: LoadFigures;
    try {
      listFloor = await runLoad({ scenario: 'peer: list floor (50 documents from memory)', url: floor.url, durationSeconds: seconds });
    } finally {
      await floor.stop();
    }
    const month = seed.today.slice(0, 7);
    const monthAgo = new Date(Date.parse(`${seed.today}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
    let s = 0;
    const scenarios: LoadScenario[] = [
      {
        scenario: `GET /dialisis/sesiones/{id} (${seed.sessionIds.length} sessions, ~120 readings)`,
        url: `${service.url}/dialisis/sesiones/${seed.sessionIds[0]!}`,
        path: () => `/dialisis/sesiones/${seed.sessionIds[s++ % seed.sessionIds.length]!}`,
      },
      { scenario: 'GET /dialisis/adecuacion?month (monthly adequacy)', url: `${service.url}/dialisis/adecuacion?month=${month}` },
      { scenario: 'GET /dialisis/alertas (30 days)', url: `${service.url}/dialisis/alertas?from=${monthAgo}&to=${seed.today}` },
      { scenario: 'GET /sistema/auditoria?limit=50 (audit trail)', url: `${service.url}/sistema/auditoria?limit=50` },
      { scenario: 'GET /widgets/fluid-outliers/datos', url: `${service.url}/widgets/fluid-outliers/datos` },
      { scenario: `GET /generador/m/${seed.moduleCode}?limit=50`, url: `${service.url}/generador/m/${seed.moduleCode}?limit=50` },
    ];
    const loadAverage = Number(os.loadavg()[0]!.toFixed(2));
    const reads: ReadFigures[] = [];
    const windows: ReadsFigures['windows'] = [];
    const nowUs = () => Number(process.hrtime.bigint() / 1000n);
    for (const scenario of scenarios) {
      const pid = service.child.pid!;
      const before = cpuMicrosOf(pid);
      const fromUs = nowUs();
      const figures = await runLoad({ ...scenario, headers, durationSeconds: seconds });
      windows.push({ scenario: scenario.scenario, fromUs, toUs: nowUs() });
      const used = cpuMicrosOf(pid) - before;
      const answered = Math.max(1, figures.requestsPerSecond * seconds);
      const ratioToFloor = Number((figures.requestsPerSecond / listFloor.requestsPerSecond).toFixed(2));
      reads.push({
        ...figures,
        cpuMicrosPerRequest: Math.round(used / answered),
        ratioToFloor,
        met: ratioToFloor >= FLOOR_MIN_RATIO && figures.p99Ms < P99_MAX_MS && figures.errors === 0 && figures.non2xx === 0,
      });
    }
    return { loadAverage, listFloor, reads, windows };
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
