// Issue 29 item 3 (part A): the first page of 50 of staff, machines, dialyzers, products and payers on one service,
// each beside the list floor serving that same page from memory, alternated, with the service's CPU per request.
import fs from 'node:fs';
import path from 'node:path';
import { runLoad, type LoadFigures } from './load.js';
import { cpuSecondsOf, freePort, startPeer, startService } from './processes.js';
import { signInAndSelect } from './signIn.js';
import { dialyzerBody, machineRegistration, staffBody, type BenchCredentials } from './http.js';
import { clientBody, productBody } from './supplies.js';
import { readCpuProfile, summariseCpuProfile } from './profile/cpuProfileSummary.js';

export interface ListRow {
  list: string;
  requestsPerSecond: number;
  p99Ms: number;
  timeouts: number;
  non2xx: number;
  cpuUsPerRequest: number;
  floorRequestsPerSecond: number;
  floorP99Ms: number;
  ratio: number;
  met: 'met' | 'MISSED';
}

export interface ListsFigures {
  records: number;
  loadAverageBefore: number[];
  rows: ListRow[];
  /** With --profile: the service's self time by src file (charged to the nearest src/ frame) per list, µs per request. */
  profiles?: Record<string, { name: string; usPerRequest: number }[]>;
}

export interface ListsOptions {
  scratch: string;
  ports: { service: number; floor: number };
  env: Record<string, string>;
  creds: BenchCredentials;
  seconds: number;
  /** Records seeded per group (the task: 1,000+). */
  records?: number;
  /** Floor and list alternated this many times; each figure is the better of its runs. */
  reps?: number;
  /** Runs the service under node --cpu-prof and summarises each list's window. */
  profile?: boolean;
  log?: (line: string) => void;
}

const LISTS = ['/colaboradores', '/monitores', '/filtros-dialisis', '/productos', '/clientes'] as const;

const cpuUs = (pid: number): number => cpuSecondsOf(pid) * 1e6;
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const better = (a: LoadFigures | null, b: LoadFigures): LoadFigures => (a && a.requestsPerSecond >= b.requestsPerSecond ? a : b);

/** Seeds `count` records of one group, 50 at a time, through its create route. */
async function seed(base: string, auth: Record<string, string>, route: string, count: number, body: (k: number) => string): Promise<void> {
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async (_, k) => {
        const r = await fetch(`${base}${route}`, { method: 'POST', headers: auth, body: body(i + k) });
        if (r.status !== 201) throw new Error(`seeding ${route} answered ${r.status}: ${await r.text()}`);
      }),
    );
  }
}

export async function benchLists(o: ListsOptions): Promise<ListsFigures> {
  const records = o.records ?? 1000;
  const reps = o.reps ?? 1;
  const log = o.log ?? (() => {});
  const dataDir = path.join(o.scratch, 'lists');
  const profileDir = path.join(o.scratch, 'lists-cpuprofiles');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(profileDir, { recursive: true, force: true });
  const nodeArgs = o.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', '200'] : [];
  const service = await startService({ ...o.env, DATA_DIR: dataDir }, o.ports.service, nodeArgs);
  const pid = service.child.pid!;
  const rows: ListRow[] = [];
  const windows: Record<string, { fromUs: number; toUs: number; requests: number }> = {};
  let figures: ListsFigures;
  try {
    const token = await signInAndSelect(service.url, o.creds.email, o.creds.password, o.creds.totpSecret);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = async (route: string, body: unknown): Promise<Record<string, unknown>> => {
      const r = await fetch(`${service.url}${route}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      if (r.status !== 201) throw new Error(`POST ${route} answered ${r.status}: ${await r.text()}`);
      return (await r.json()) as Record<string, unknown>;
    };
    log(`seeding ${records} records in each of ${LISTS.length} groups through their routes ...`);
    const position = await post('/cargos-laborales', {
      code: 'ENF',
      name: 'Enfermera',
      clinical: true,
      licenceRequired: true,
      licensingBody: 'CEP',
      suggestedRoles: ['nurse'],
    });
    const sede = await post('/empresas/actual/sedes', { name: 'Sede benchmark' });
    const sedePath = `/empresas/actual/sedes/${String(sede.id)}`;
    const roomId = (await post(`${sedePath}/salas`, { name: 'Sala 1' })).createdId as string;
    const stationId = (await post(`${sedePath}/puestos`, { code: 'P-01', roomId })).createdId as string;
    await seed(service.url, auth, '/colaboradores', records, (k) => staffBody(k, position.id as string));
    await seed(service.url, auth, '/monitores', records, (k) => machineRegistration(k, sede.id as string, stationId));
    await seed(service.url, auth, '/filtros-dialisis', records, dialyzerBody);
    await seed(service.url, auth, '/productos', records, (k) => JSON.stringify(productBody(k)));
    await seed(service.url, auth, '/clientes', records, (k) => JSON.stringify(clientBody(k)));
    await new Promise((r) => setTimeout(r, 1000)); // the seed's projections and process managers settle
    const loadAverageBefore = (await import('node:os')).loadavg().map((l) => Number(l.toFixed(2)));
    log(`load average before the runs: ${loadAverageBefore.join(' ')}`);

    for (const route of LISTS) {
      const url = `${service.url}${route}?limit=50`;
      const answer = await fetch(url, { headers: auth });
      if (answer.status !== 200) throw new Error(`GET ${route} answered ${answer.status}`);
      const page = (await answer.json()) as { items: unknown[] };
      if (page.items.length !== 50) throw new Error(`GET ${route}?limit=50 held ${page.items.length} items, not 50`);
      const pageFile = path.join(o.scratch, 'lists-floor-page.json');
      fs.writeFileSync(pageFile, JSON.stringify(page));
      let floor: LoadFigures | null = null;
      let list: LoadFigures | null = null;
      let cpuPerRequest = 0;
      for (let rep = 0; rep < reps; rep++) {
        const peer = await startPeer('listFloor', o.ports.floor, { PAGE_FILE: pageFile });
        try {
          floor = better(floor, await runLoad({ scenario: `floor: ${route} page`, url: peer.url, durationSeconds: o.seconds }));
        } finally {
          await peer.stop();
        }
        const cpuBefore = cpuUs(pid);
        const fromUs = nowUs();
        const run = await runLoad({ scenario: `GET ${route}?limit=50`, url, headers: auth, durationSeconds: o.seconds });
        const answered = run.requestsPerSecond * o.seconds;
        if (run === better(list, run)) {
          list = run;
          cpuPerRequest = Math.round((cpuUs(pid) - cpuBefore) / Math.max(1, answered));
          windows[route] = { fromUs, toUs: nowUs(), requests: answered };
        }
      }
      const ratio = Number((list!.requestsPerSecond / floor!.requestsPerSecond).toFixed(2));
      const timeouts = list!.timeouts ?? 0;
      const met = ratio >= 0.5 && list!.p99Ms < 50 && timeouts === 0 && list!.non2xx === 0;
      rows.push({
        list: `GET ${route}?limit=50`,
        requestsPerSecond: list!.requestsPerSecond,
        p99Ms: list!.p99Ms,
        timeouts,
        non2xx: list!.non2xx,
        cpuUsPerRequest: cpuPerRequest,
        floorRequestsPerSecond: floor!.requestsPerSecond,
        floorP99Ms: floor!.p99Ms,
        ratio,
        met: met ? 'met' : 'MISSED',
      });
      log(`${route}: ${list!.requestsPerSecond}/s p99 ${list!.p99Ms} ms, floor ${floor!.requestsPerSecond}/s, ratio ${ratio}`);
    }
    figures = { records, loadAverageBefore, rows };
  } finally {
    await service.stop(); // SIGTERM: the profile is written
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (o.profile) figures.profiles = profilesOf(profileDir, windows);
  return figures;
}

/** Self time by src file within each list's window, in µs per request (the profile's clock is hrtime's, in µs). */
function profilesOf(dir: string, windows: Record<string, { fromUs: number; toUs: number; requests: number }>) {
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return {};
  const profile = readCpuProfile(path.join(dir, file));
  const out: Record<string, { name: string; usPerRequest: number }[]> = {};
  for (const [route, w] of Object.entries(windows)) {
    const summary = summariseCpuProfile(profile, w, 12);
    const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, w.requests));
    out[route] = [
      { name: '(main thread busy)', usPerRequest: per(summary.busyMs) },
      ...summary.groups.map((r) => ({ name: `group: ${r.name}`, usPerRequest: per(r.selfMs) })),
      ...summary.ownerFiles.map((r) => ({ name: r.name, usPerRequest: per(r.selfMs) })),
    ];
  }
  return out;
}

/** The section as `npm run bench -- lists [--seconds S] [--reps N] [--records N] [--profile]` runs it: its tables, then its figures. */
export async function benchListsSection(o: {
  scratch: string;
  env: Record<string, string>;
  creds: BenchCredentials;
  seconds: number;
  args: string[];
  log: (line: string) => void;
}): Promise<ListsFigures> {
  const option = (name: string, fallback: number) => {
    const i = o.args.indexOf(`--${name}`);
    return i >= 0 ? Number(o.args[i + 1]) : fallback;
  };
  const records = option('records', 1000);
  o.log(
    `\n== Lists: first page of 50 of ${records} staff, machines, dialyzers, products, payers beside the list floor, ${o.seconds} s each ==`,
  );
  const figures = await benchLists({
    ...o,
    ports: { service: await freePort(), floor: await freePort() },
    records,
    reps: option('reps', 2),
    profile: o.args.includes('--profile'),
  });
  console.table(figures.rows);
  for (const [route, rows] of Object.entries(figures.profiles ?? {})) {
    o.log(`\nprofile of GET ${route}: µs per request`);
    console.table(rows);
  }
  return figures;
}
