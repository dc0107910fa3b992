// The README's benchmark table, written from a full run's figures so it can only say what a run measured:
// `npx tsx bench/benchTable.ts [bench/results/<run>.json]` (a full `npm run bench` writes it itself).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadFigures } from './load.js';
import prettier from 'prettier';
import { judgeTargets } from './targets.js';

const START = /<!-- bench:table (\S+) -->\n/;
const END = '<!-- /bench:table -->';

const isLoad = (v: unknown): v is LoadFigures =>
  typeof v === 'object' && v !== null && typeof (v as LoadFigures).scenario === 'string' && 'requestsPerSecond' in v;

/** Every load scenario of the run (HTTP sections and their peers), in the order the run measured them. */
function loadsOf(value: unknown, found: LoadFigures[] = []): LoadFigures[] {
  if (isLoad(value)) found.push(value);
  else if (Array.isArray(value)) for (const v of value) loadsOf(v, found);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) loadsOf(v, found);
  return found;
}

const table = (head: string[], rows: (string | number)[][]): string =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** The markdown of one run: its targets (figure beside target) and every load scenario it measured. */
export function renderRunTable(results: Record<string, unknown>, file: string): string {
  const { at, node, cpus, memoryGiB, commit, resumedAt } = results as {
    at: string;
    node: string;
    cpus: number;
    memoryGiB: number;
    commit?: string;
    resumedAt?: string[];
  };
  const targets = judgeTargets(results);
  const missed = targets.filter((t) => !t.met).length;
  const loads = loadsOf(results);
  return [
    `Latest full run: ${at}${resumedAt?.length ? `, resumed ${resumedAt.join(', ')}` : ''} (\`${file}\`` +
      `${commit ? `, commit ${commit.slice(0, 7)}` : ''}; Node ${node}, ${cpus} cores, ${memoryGiB} GiB). ` +
      `Targets met: ${targets.length - missed} of ${targets.length}.`,
    '',
    table(
      ['section', 'figure', 'value', 'target', ''],
      targets.map((t) => [t.section, t.figure, t.value, t.target, t.met ? 'met' : '**MISSED**']),
    ),
    '',
    table(
      ['scenario (100 connections unless named)', 'requests/s', 'p50 ms', 'p99 ms', 'timeouts + errors', 'non-2xx'],
      loads.map((l) => [l.scenario, l.requestsPerSecond, l.p50Ms, l.p99Ms, l.errors, l.non2xx]),
    ),
  ].join('\n');
}

/** The README with its table block replaced by the run's (the block names the run's file), formatted as the repo's. */
export async function withRunTable(readmePath: string, readme: string, results: Record<string, unknown>, file: string): Promise<string> {
  const start = START.exec(readme);
  const end = readme.indexOf(END);
  if (!start || end < start.index) throw new Error(`README has no "<!-- bench:table <file> -->" ... "${END}" block`);
  const block = `<!-- bench:table ${file} -->\n${renderRunTable(results, file)}\n`;
  const replaced = readme.slice(0, start.index) + block + readme.slice(end);
  return prettier.format(replaced, { ...(await prettier.resolveConfig(readmePath)), filepath: readmePath });
}

/** The results file the README's block names, or null without a block. */
export function runTableSource(readme: string): string | null {
  return START.exec(readme)?.[1] ?? null;
}

export async function writeRunTable(root: string, file: string): Promise<void> {
  const readmePath = path.join(root, 'README.md');
  const results = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(readmePath, await withRunTable(readmePath, fs.readFileSync(readmePath, 'utf8'), results, file));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const file = process.argv[2] ?? runTableSource(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
  if (!file) throw new Error('name a results file: npx tsx bench/benchTable.ts bench/results/<run>.json');
  await writeRunTable(root, path.relative(root, path.resolve(root, file)));
  process.stdout.write(`README's benchmark table written from ${file}\n`);
}
