// npx tsx bench/profile/registerProfile.ts [--seconds S] [--interval US] [--connections C] [--no-build] [--no-profile]
// [--node-arg ARG]... (extra flags for the service's node, e.g. --node-arg --import=/path/to/probe.mjs)
// [--env K=V]... (extra environment of the service, e.g. --env PROJECTIONS_THREAD=main)
// Profiles `POST /pacientes` on the compiled service under autocannon load (node --cpu-prof), stops it with SIGTERM
// so the profile is written, and prints CPU µs per request, self time by module group and the top functions.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadFigures } from '../load.js';
import { buildService, cpuSecondsOf, startService } from '../processes.js';
import { signInAndSelect } from '../signIn.js';
import { patientBody } from '../http.js';
import { inclusiveMs, readCpuProfile, summariseCpuProfile } from './cpuProfileSummary.js';
import { BENCH_CREDS, BENCH_SERVICE_ENV } from '../benchAdmin.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = option('seconds', 20);
const INTERVAL_US = option('interval', 100);
const CONNECTIONS = option('connections', 100);
const PORT = option('port', 3931);
// --no-profile: the same run without the profiler, for the CPU per request it costs.
const PROFILE = !args.includes('--no-profile');
const EXTRA_NODE_ARGS = args.flatMap((a, i) => (args[i - 1] === '--node-arg' ? [a] : []));
const EXTRA_ENV: Record<string, string> = Object.fromEntries(
  args.flatMap((a, i): [string, string][] => (args[i - 1] === '--env' ? [[a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]] : [])),
);
const creds = BENCH_CREDS;

/** CPU µs of a process; of its main thread alone (its task id is the pid) with `mainThread`. */
const cpuUs = (pid: number, mainThread = false): number => cpuSecondsOf(pid, mainThread ? pid : undefined) * 1e6;
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<void> {
  if (!args.includes('--no-build')) buildService();
  const scratch = path.join(here, '..', 'tmp', 'profile');
  const dataDir = path.join(scratch, 'data');
  const profileDir = path.join(scratch, 'cpuprofiles');
  fs.rmSync(dataDir, { recursive: true, force: true }); // earlier profiles stay, newest last
  fs.mkdirSync(profileDir, { recursive: true });
  const service = await startService(
    {
      ...BENCH_SERVICE_ENV,
      DATA_DIR: dataDir,
      ...EXTRA_ENV,
    },
    PORT,
    [...EXTRA_NODE_ARGS, ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', String(INTERVAL_US)] : [])],
  );
  const pid = service.child.pid!;
  let requests: number;
  let window = { fromUs: 0, toUs: 0 };
  let cpu: number;
  let mainCpu: number;
  let figures: LoadFigures;
  try {
    const token = await signInAndSelect(service.url, creds.email, creds.password, creds.totpSecret);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          fetch(`${service.url}/pacientes`, { method: 'POST', headers: auth, body: patientBody(i + k, '5') }).then((r) => {
            if (r.status !== 201) throw new Error(`seeding answered ${r.status}`);
          }),
        ),
      );
    }
    await new Promise((r) => setTimeout(r, 1000)); // projections of the seed settle outside the window
    let n = 100_000;
    const cpuBefore = cpuUs(pid);
    const mainBefore = cpuUs(pid, true);
    window.fromUs = nowUs();
    figures = await runLoad({
      scenario: PROFILE ? 'POST /pacientes (register, profiled)' : 'POST /pacientes (register)',
      url: `${service.url}/pacientes`,
      method: 'POST',
      headers: auth,
      body: () => patientBody(n++, '5'),
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
    });
    window.toUs = nowUs();
    cpu = cpuUs(pid) - cpuBefore;
    mainCpu = cpuUs(pid, true) - mainBefore;
    requests = n - 100_000;
  } finally {
    await service.stop();
  }
  const ok = figures.requestsPerSecond * SECONDS;
  const wallUs = window.toUs - window.fromUs;
  console.table([
    {
      ...figures,
      requestsSent: requests,
      serviceCpuMs: Math.round(cpu / 1000),
      cpuUsPerRequest: Math.round(cpu / ok),
      // The main thread's own CPU (/proc/<pid>/task/<pid>): the request loop's busy share of the window.
      mainThreadUsPerRequest: Math.round(mainCpu / ok),
      mainThreadBusy: `${Math.round((mainCpu / wallUs) * 100)} %`,
      env: JSON.stringify(EXTRA_ENV),
    },
  ]);
  if (!PROFILE) return;
  const file = fs
    .readdirSync(profileDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => fs.statSync(path.join(profileDir, a)).mtimeMs - fs.statSync(path.join(profileDir, b)).mtimeMs)
    .at(-1);
  if (!file) throw new Error('no .cpuprofile written: did the service exit through SIGTERM?');
  const profile = readCpuProfile(path.join(profileDir, file));
  // The profile's clock is CLOCK_MONOTONIC in µs, as process.hrtime: keep only the load window.
  if (window.fromUs < profile.startTime) window = { fromUs: profile.startTime, toUs: window.toUs };
  const summary = summariseCpuProfile(profile, window);
  const perReq = (ms: number) => Math.round((ms * 1000) / ok);
  const withPerReq = (rows: { name: string; selfMs: number; share: number }[]) =>
    rows.map((r) => ({ ...r, usPerRequest: perReq(r.selfMs) }));
  console.log(`profile window ${summary.wallMs} ms, main-thread busy ${summary.busyMs} ms (${perReq(summary.busyMs)} µs/request)`);
  console.log('\nSelf time by group');
  console.table(withPerReq(summary.groups));
  console.log('\nSelf time charged to the nearest src/ frame, by group (native SQLite and builtins go to their caller)');
  console.table(withPerReq(summary.owners));
  console.log('\n... by src file');
  console.table(withPerReq(summary.ownerFiles));
  console.log('\nTop functions (self time)');
  console.table(withPerReq(summary.functions));
  console.log('\nProjections (self time by file)');
  console.table(withPerReq(summary.projections));
  const inclusive = {
    'src/projections (incl.)': inclusiveMs(profile, (_fn, url) => url.includes('/src/projections/'), window),
    'src/processes (incl.)': inclusiveMs(profile, (_fn, url) => url.includes('/src/processes/'), window),
    'accessAudit (incl.)': inclusiveMs(profile, (_fn, url) => /accessAudit/.test(url), window),
    'validation (incl.)': inclusiveMs(profile, (_fn, url) => /http\/validation/.test(url), window),
    'authenticate (incl.)': inclusiveMs(profile, (_fn, url) => /http\/authenticate/.test(url), window),
    'handleCommand (incl.)': inclusiveMs(profile, (_fn, url) => /commands\/handleCommand/.test(url), window),
    'sqlite stores (incl.)': inclusiveMs(profile, (_fn, url) => /src\/stores\/sqlite\//.test(url), window),
  };
  // JSON.stringify/parse are builtins without a frame of their own: their time is in their caller's self time.
  console.log('\nInclusive time of subtrees');
  console.table(Object.entries(inclusive).map(([name, ms]) => ({ name, ms, usPerRequest: perReq(ms) })));
  console.log(`\nprofile: ${path.join(profileDir, file)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
