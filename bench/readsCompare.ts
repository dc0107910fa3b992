// npx tsx bench/readsCompare.ts [--base <git rev>] [--seconds S]
// The `reads` section's reads on two builds of the service at once (the checkout's and an earlier commit's, built once
// under the OS's temporary directory), each seeded through its routes alike, run alternately (base, head, base, head)
// so both see the same machine: requests/s, p99 and the service's CPU µs per answered request, beside the list floor.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildService } from './processes.js';
import { measureFloor, measureRead, readScenarios, seededService, type ReadFigures } from './reads.js';
import { BENCH_CREDS, BENCH_SERVICE_ENV } from './benchAdmin.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback);
const seconds = Number(option('seconds', '5'));
const creds = BENCH_CREDS;
const env = BENCH_SERVICE_ENV;
const log = (s: string) => console.log(s);

/**
 * The commit's tree compiled once per commit (its dist/src/main.js), outside the checkout: under it, the type check and
 * the dependency rules of `src test bench` would read the other tree's sources as the checkout's.
 */
function buildBase(rev: string): string {
  const sha = execFileSync('git', ['rev-parse', rev], { cwd: root, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `reads-compare-base-${sha.slice(0, 12)}`);
  const main = path.join(dir, 'dist/src/main.js');
  if (fs.existsSync(main)) return main;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], { cwd: root });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: dir,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`building ${rev} failed`);
  return main;
}

async function main(): Promise<void> {
  const scratch = path.join(root, 'bench/tmp/readsCompare');
  fs.mkdirSync(scratch, { recursive: true });
  const rev = option('base', 'main');
  const baseMain = buildBase(rev);
  buildService();
  const base = await seededService({ scratch, port: 3941, env, creds, log }, 'base', baseMain);
  const head = await seededService({ scratch, port: 3942, env, creds, log }, 'head');
  try {
    const page = await (await fetch(`${head.service.url}/pacientes?limit=50`, { headers: head.headers })).json();
    const floor = await measureFloor(scratch, 3943, page, seconds);
    const loadBefore = os.loadavg()[0]!.toFixed(2);
    const sides = [
      { name: rev, run: base, scenarios: readScenarios(base.service.url, base.seed) },
      { name: 'head', run: head, scenarios: readScenarios(head.service.url, head.seed) },
    ];
    const rows: Record<string, string | number>[] = [];
    for (let i = 0; i < sides[0]!.scenarios.length; i++) {
      const runs: ReadFigures[][] = [[], []];
      for (let round = 0; round < 2; round++)
        for (const [k, side] of sides.entries())
          runs[k]!.push(
            (await measureRead(side.run.service, side.scenarios[i]!, side.run.headers, seconds, floor.requestsPerSecond)).figures,
          );
      const mean = (list: ReadFigures[], f: (r: ReadFigures) => number) => Math.round(list.reduce((a, r) => a + f(r), 0) / list.length);
      const row: Record<string, string | number> = { scenario: sides[1]!.scenarios[i]!.scenario, bytes: runs[1]![0]!.bytes };
      for (const [k, side] of sides.entries()) {
        const list = runs[k]!;
        row[`${side.name} req/s`] = mean(list, (r) => r.requestsPerSecond);
        row[`${side.name} p99 ms`] = Math.max(...list.map((r) => r.p99Ms));
        row[`${side.name} CPU µs/req`] = mean(list, (r) => r.cpuMicrosPerRequest);
        row[`${side.name} non-2xx+errors`] = list.reduce((a, r) => a + r.non2xx + r.errors, 0);
      }
      rows.push(row);
      console.table([row]);
    }
    console.log(
      `\nlist floor ${floor.requestsPerSecond} req/s (p99 ${floor.p99Ms} ms, ${floor.bytes} bytes); load average ${loadBefore} -> ${os.loadavg()[0]!.toFixed(2)}`,
    );
    console.table(rows);
  } finally {
    await base.service.stop();
    await head.service.stop();
    fs.rmSync(base.dataDir, { recursive: true, force: true });
    fs.rmSync(head.dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
