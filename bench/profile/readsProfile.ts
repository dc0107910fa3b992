// npx tsx bench/profile/readsProfile.ts [--seconds S] [--no-build]
// Where the CPU of each read of the `reads` section goes: the section's run on a service started with node --cpu-prof,
// then, for each read's load window, self time charged to the nearest src/ file and the top functions.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildService } from '../processes.js';
import { benchReads } from '../reads.js';
import { readCpuProfile, summariseCpuProfile } from './cpuProfileSummary.js';
import { BENCH_CREDS, BENCH_SERVICE_ENV } from '../benchAdmin.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf('--seconds') + 1] ?? 5) || 5;
const creds = BENCH_CREDS;
const env = BENCH_SERVICE_ENV;

async function main(): Promise<void> {
  if (!args.includes('--no-build')) buildService();
  const scratch = path.join(here, '..', 'tmp', 'readsProfile');
  const profileDir = path.join(scratch, 'cpuprofiles');
  fs.mkdirSync(profileDir, { recursive: true });
  const started = Date.now();
  const figures = await benchReads({
    scratch,
    ports: { service: 3933, floor: 3934 },
    env,
    creds,
    seconds,
    log: (s) => console.log(s),
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', '100'],
  });
  console.table(
    figures.reads.map(({ scenario, requestsPerSecond, p99Ms, cpuMicrosPerRequest }) => ({
      scenario,
      requestsPerSecond,
      p99Ms,
      cpuMicrosPerRequest,
    })),
  );
  const file = fs
    .readdirSync(profileDir)
    .filter((f) => f.endsWith('.cpuprofile') && fs.statSync(path.join(profileDir, f)).mtimeMs >= started)
    .at(-1);
  if (!file) throw new Error('no .cpuprofile written');
  const profile = readCpuProfile(path.join(profileDir, file));
  for (const [i, window] of figures.windows.entries()) {
    const answered = figures.reads[i]!.requestsPerSecond * seconds;
    const perReq = (ms: number) => Math.round((ms * 1000) / answered);
    const summary = summariseCpuProfile(profile, window, 12);
    console.log(
      `\n== ${window.scenario}: main thread busy ${summary.busyMs} of ${summary.wallMs} ms, ${perReq(summary.busyMs)} µs/request`,
    );
    console.table(summary.ownerFiles.slice(0, 12).map((r) => ({ ...r, usPerRequest: perReq(r.selfMs) })));
    console.table(summary.functions.map((r) => ({ ...r, usPerRequest: perReq(r.selfMs) })));
  }
  console.log(`\nprofile: ${path.join(profileDir, file)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
