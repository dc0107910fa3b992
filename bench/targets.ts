// The issues' performance targets judged against one run's figures: the rows the bench prints last and the README's
// table shows, each figure beside its target. A section that judges its own figures lists them as `targets`.
import type { LoadFigures } from './load.js';

export interface Target {
  figure: string;
  value: number;
  target: string;
  met: boolean;
}

export interface JudgedTarget extends Target {
  section: string;
}

/** Issue 29: registration at 2x the PostgreSQL CRUD app with p99 < 50 ms; every list and board at half the list floor. */
export const HTTP_TARGETS = { registerVsPostgres: 2, registerP99Ms: 50, listVsFloor: 0.5, listP99Ms: 50 };

type Results = Record<string, unknown>;
type HttpResults = {
  registerPatient: LoadFigures;
  listPatients: LoadFigures;
  listStaff: LoadFigures;
  listMachines: LoadFigures;
  listDialyzers: LoadFigures;
  dialisis: { dayBoard: LoadFigures };
  supplies: { listProducts: LoadFigures; listClients: LoadFigures };
  peers: { listFloor: LoadFigures; ratios: { registerVsPostgres: number | null } };
};

const row = (figure: string, value: number, target: string, met: boolean): Target => ({ figure, value, target, met });

/** A list or board under load: at least half the floor's requests/s, p99 under the bound, no timeout or error. */
export function listTargets(list: LoadFigures, floor: LoadFigures): Target[] {
  const ratio = Number((list.requestsPerSecond / floor.requestsPerSecond).toFixed(2));
  const clean = list.errors === 0 && list.non2xx === 0;
  return [
    row(`${list.scenario}: requests/s over the list floor's`, ratio, `>= ${HTTP_TARGETS.listVsFloor}`, ratio >= HTTP_TARGETS.listVsFloor),
    row(
      `${list.scenario}: p99 ms (timeouts and errors)`,
      list.p99Ms,
      `< ${HTTP_TARGETS.listP99Ms}, none`,
      list.p99Ms < HTTP_TARGETS.listP99Ms && clean,
    ),
  ];
}

function httpTargets(http: HttpResults): Target[] {
  const vsPg = http.peers.ratios.registerVsPostgres;
  const floor = http.peers.listFloor;
  const lists = [
    http.listPatients,
    http.listStaff,
    http.listMachines,
    http.listDialyzers,
    http.supplies.listProducts,
    http.supplies.listClients,
    http.dialisis.dayBoard,
  ];
  return [
    row('POST /pacientes: requests/s over the PostgreSQL CRUD app', vsPg ?? 0, `>= ${HTTP_TARGETS.registerVsPostgres}`, (vsPg ?? 0) >= 2),
    row(
      'POST /pacientes: p99 ms',
      http.registerPatient.p99Ms,
      `< ${HTTP_TARGETS.registerP99Ms}`,
      http.registerPatient.p99Ms < HTTP_TARGETS.registerP99Ms,
    ),
    ...lists.flatMap((list) => listTargets(list, floor)),
  ];
}

/** Issue 29: the first start over 10M events (every read model built from the log) in two minutes and 1 GiB. */
export const FIRST_START_TARGETS = { readySeconds: 120, peakRssMiB: 1024 };

function scaleFirstStart(scale: { firstStart: { readySeconds: number; peakRssMiB: number }; events: number }): Target[] {
  const { readySeconds, peakRssMiB } = scale.firstStart;
  const T = FIRST_START_TARGETS;
  return [
    row(`first start over ${scale.events} events: ready (s)`, readySeconds, `<= ${T.readySeconds}`, readySeconds <= T.readySeconds),
    row(`first start over ${scale.events} events: peak RSS (MiB)`, peakRssMiB, `<= ${T.peakRssMiB}`, peakRssMiB <= T.peakRssMiB),
  ];
}

/** A section's rows of reads beside the list floor measured with each (the lists and reads sections). */
type FloorRow = {
  list?: string;
  read?: string;
  scenario?: string;
  requestsPerSecond: number;
  floorRequestsPerSecond: number;
  p99Ms: number;
  timeouts?: number;
  non2xx: number;
};

function floorRowTargets(rows: FloorRow[]): Target[] {
  return rows.flatMap((r) => {
    const scenario = r.list ?? r.read ?? r.scenario ?? 'read';
    const floor = { scenario: 'floor', requestsPerSecond: r.floorRequestsPerSecond, p50Ms: 0, p99Ms: 0, non2xx: 0, errors: 0 };
    return listTargets(
      { scenario, requestsPerSecond: r.requestsPerSecond, p50Ms: 0, p99Ms: r.p99Ms, non2xx: r.non2xx, errors: r.timeouts ?? 0 },
      floor,
    );
  });
}

/** The reads section: each read beside the list floor measured in the same run. */
function readsTargets(reads: { listFloor: LoadFigures; reads: LoadFigures[] }): Target[] {
  return reads.reads.flatMap((read) => listTargets(read, reads.listFloor));
}

/** Issue 29 item 4: building the SQLite read store (a rebuild, a first start's catch-up) at 150k events/s. */
export const REBUILD_EVENTS_PER_SECOND = 150_000;
type RebuildRow = { readStore: string; events: number; rebuildEventsPerSecond: number; catchUpEventsPerSecond: number };

function rebuildTargets(rows: RebuildRow[]): Target[] {
  const T = REBUILD_EVENTS_PER_SECOND;
  return rows
    .filter((r) => r.readStore === 'sqlite')
    .flatMap((r) => [
      row(
        `Pacientes rebuilt into SQLite over ${r.events} events (events/s)`,
        r.rebuildEventsPerSecond,
        `>= ${T}`,
        r.rebuildEventsPerSecond >= T,
      ),
      row(
        `Pacientes caught up into SQLite over ${r.events} events (events/s)`,
        r.catchUpEventsPerSecond,
        `>= ${T}`,
        r.catchUpEventsPerSecond >= T,
      ),
    ]);
}

/** Issue 29: a command on a long stream costs O(recent events): few events read, CPU near the short stream's. */
export const STREAM_TARGETS = { eventsRead: 200, cpuOverShort: 3 };
type StreamRow = { stream: number; load: string; key: string; eventsRead: number; cpuMicrosPerCommand: number };

function streamTargets(rows: StreamRow[]): Target[] {
  const short = rows.find((r) => r.load === 'snapshot' && r.key === 'none' && r.stream < 1000);
  return rows
    .filter((r) => r.load === 'snapshot' && r.stream >= 100_000)
    .flatMap((r) => {
      const what = `one command on a ${r.stream}-event stream (key: ${r.key})`;
      const cpuRatio = short ? Number((r.cpuMicrosPerCommand / short.cpuMicrosPerCommand).toFixed(2)) : Infinity;
      const T = STREAM_TARGETS;
      return [
        row(`${what}: events read`, r.eventsRead, `<= ${T.eventsRead}`, r.eventsRead <= T.eventsRead),
        row(`${what}: CPU over a 10-event stream's`, cpuRatio, `<= ${T.cpuOverShort}`, cpuRatio <= T.cpuOverShort),
      ];
    });
}

/** Issue 29 item 2: with 90 GET and 10 POST connections, registration at least the PostgreSQL app's POSTs, p99 < 100 ms. */
export const MIX_TARGETS = { splitPostVsPostgres: 1, splitPostP99Ms: 100 };
type MixResults = { splitPostVsPostgres: number | null; summary: { side: string; scenario: string; postP99Ms: number }[] };

function mixTargets(mix: MixResults): Target[] {
  const ours = mix.summary.find((r) => r.side === 'service' && r.scenario === 'split 90+10');
  const vsPg = mix.splitPostVsPostgres ?? 0;
  const p99 = ours?.postP99Ms ?? Infinity;
  const T = MIX_TARGETS;
  return [
    row('90 GET + 10 POST: POST /pacientes requests/s over the PostgreSQL app', vsPg, `>= ${T.splitPostVsPostgres}`, vsPg >= 1),
    row('90 GET + 10 POST: POST /pacientes p99 ms', p99, `< ${T.splitPostP99Ms}`, p99 < T.splitPostP99Ms),
  ];
}

/** Every target the run's sections can judge, in section order; sections not run contribute nothing. */
export function judgeTargets(results: Results): JudgedTarget[] {
  const judged: JudgedTarget[] = [];
  for (const [section, figures] of Object.entries(results)) {
    if (section === 'targets' || typeof figures !== 'object' || figures === null) continue;
    const own = (figures as { targets?: unknown }).targets;
    const rows = [
      ...(section === 'http' ? httpTargets(figures as HttpResults) : []),
      ...(section === 'scale' ? scaleFirstStart(figures as Parameters<typeof scaleFirstStart>[0]) : []),
      ...(section === 'streams' ? streamTargets(figures as StreamRow[]) : []),
      ...(section === 'mix' ? mixTargets(figures as MixResults) : []),
      ...(section === 'rebuild' && Array.isArray(figures) ? rebuildTargets(figures as RebuildRow[]) : []),
      ...(section === 'reads' ? readsTargets(figures as { listFloor: LoadFigures; reads: LoadFigures[] }) : []),
      ...(section === 'lists' ? floorRowTargets((figures as { rows: FloorRow[] }).rows) : []),
      ...(Array.isArray(own) ? (own as Target[]) : []),
    ];
    judged.push(...rows.map((t) => ({ section, ...t })));
  }
  return judged;
}
