// The README's benchmark table is the run it names, every target judged beside its figure (issue 29, item 6).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderRunTable, runTableSource, withRunTable } from '../../bench/benchTable.js';
import { judgeTargets } from '../../bench/targets.js';
import type { LoadFigures } from '../../bench/load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const load = (scenario: string, requestsPerSecond: number, p99Ms: number, errors = 0): LoadFigures => ({
  scenario,
  requestsPerSecond,
  p50Ms: 1,
  p99Ms,
  non2xx: 0,
  errors,
});

function httpFigures(overrides: Partial<Record<'listStaff' | 'board', LoadFigures>> = {}): Record<string, unknown> {
  return {
    registerPatient: load('POST /pacientes (register)', 4000, 40),
    listPatients: load('GET /pacientes?limit=50', 8000, 20),
    listStaff: overrides.listStaff ?? load('GET /colaboradores?limit=50', 6000, 20),
    listMachines: load('GET /monitores?limit=50', 6000, 20),
    listDialyzers: load('GET /filtros-dialisis?limit=50', 6000, 20),
    dialisis: { dayBoard: overrides.board ?? load('GET /dialisis/agenda', 6000, 20) },
    supplies: { listProducts: load('GET /productos?limit=50', 6000, 20), listClients: load('GET /clientes?limit=50', 6000, 20) },
    peers: { listFloor: load('peer: list floor', 10000, 10), ratios: { registerVsPostgres: 2.1 } },
  };
}

describe('bench targets and the README table', () => {
  it('judges a list below half the floor, slow at p99, or with timeouts as missed, and the rest as met', () => {
    const judged = judgeTargets({
      at: 'x',
      http: httpFigures({
        listStaff: load('GET /colaboradores?limit=50', 4900, 20),
        board: load('GET /dialisis/agenda', 9000, 20, 3),
      }),
    });
    const missed = judged.filter((t) => !t.met).map((t) => t.figure);
    assert.deepEqual(missed, [
      "GET /colaboradores?limit=50: requests/s over the list floor's",
      'GET /dialisis/agenda: p99 ms (timeouts and errors)',
    ]);
    assert.equal(judged.length, 16, 'registration (2) and seven lists (2 each)');
  });

  it("takes a section's own targets, adds the first start's to scale, and skips sections not run", () => {
    const judged = judgeTargets({
      scale: {
        events: 10_000_000,
        firstStart: { readySeconds: 130, peakRssMiB: 900 },
        targets: [{ figure: 'rebuild (events/s)', value: 160_000, target: '>= 150000', met: true }],
      },
    });
    assert.deepEqual(
      judged.map((t) => [t.section, t.met]),
      [
        ['scale', false],
        ['scale', true],
        ['scale', true],
      ],
    );
  });

  it('judges a long stream by the events a command reads and its CPU beside a short stream', () => {
    const stream = (n: number, load: string, key: string, eventsRead: number, cpu: number) => ({
      stream: n,
      load,
      key,
      runs: 10,
      medianMs: 1,
      cpuMicrosPerCommand: cpu,
      eventsRead,
    });
    const judged = judgeTargets({
      streams: [
        stream(100_000, 'snapshot', 'none', 38, 560),
        stream(100_000, 'snapshot', 'new', 56, 1000),
        stream(100_000, 'whole', 'none', 100_205, 400_000),
        stream(10, 'snapshot', 'none', 10, 300),
      ],
    });
    assert.deepEqual(
      judged.map((t) => t.met),
      [true, true, true, false],
    );
  });

  it('judges the mix split against PostgreSQL, the reads against their floor and the SQLite rebuild at 150k events/s', () => {
    const judged = judgeTargets({
      mix: { splitPostVsPostgres: 1.4, summary: [{ side: 'service', scenario: 'split 90+10', postP99Ms: 120 }] },
      reads: { listFloor: load('floor', 9000, 30), reads: [load('GET /dialisis/sesiones/{id}', 7000, 40)] },
      rebuild: [
        { readStore: 'sqlite', events: 1_000_000, rebuildEventsPerSecond: 65_000, catchUpEventsPerSecond: 160_000 },
        { readStore: 'embedded', events: 1_000_000, rebuildEventsPerSecond: 90_000, catchUpEventsPerSecond: 90_000 },
      ],
    });
    assert.deepEqual(
      judged.map((t) => [t.section, t.met]),
      [
        ['mix', true],
        ['mix', false],
        ['reads', true],
        ['reads', true],
        ['rebuild', false],
        ['rebuild', true],
      ],
    );
  });

  it('renders every target with its verdict and every load scenario', () => {
    const text = renderRunTable({ at: 'now', node: 'v24', cpus: 2, memoryGiB: 24, http: httpFigures() }, 'bench/results/x.json');
    assert.match(text, /Targets met: 16 of 16/);
    assert.match(text, /\| GET \/colaboradores\?limit=50 \| 6000 \| 1 \| 20 \| 0 \| 0 \|/);
  });

  it('the README table is exactly the rendering of the results file it names', async () => {
    const readmePath = path.join(root, 'README.md');
    const readme = fs.readFileSync(readmePath, 'utf8');
    const file = runTableSource(readme);
    assert.ok(file, 'README has a bench:table block naming its results file');
    const results = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
    const fresh = await withRunTable(readmePath, readme, results, file);
    assert.equal(fresh, readme, `README's table differs from ${file}: run npx tsx bench/benchTable.ts ${file}`);
  });
});
