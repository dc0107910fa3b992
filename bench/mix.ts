// Issue 29 item 2 (writes never starve): reads and registrations at once, on the service and on the Koa + PostgreSQL
// CRUD peer in the same run: a 90/10 random mix (100 connections, each request a GET with probability 0.9) and a
// 90 + 10 split (90 connections on GET /pacientes?limit=50 and 10 on POST /pacientes, two autocannon runs at once).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLoad, runMixedLoad, type LoadFigures, type MethodFigures } from './load.js';
import { freePort, startPeer, startService, type Started } from './processes.js';
import { startPostgres } from './postgresCluster.js';
import { signInAndSelect } from './signIn.js';
import { patientBody } from './http.js';
import type { BenchCredentials } from './http.js';

/** One scenario on one side: per method, and the service's CPU per answered request (null for the peer). */
export interface MixRow {
  side: string;
  scenario: 'mix 90/10' | 'split 90+10';
  getPerSecond: number;
  getP99Ms: number;
  postPerSecond: number;
  postP50Ms: number;
  postP99Ms: number;
  non2xx: number;
  errors: number;
  cpuMicrosPerRequest: number | null;
}

export interface MixFigures {
  /** Every run, in the order they ran. */
  rows: MixRow[];
  /** Medians over the reps, per side and scenario. */
  summary: Omit<MixRow, 'non2xx' | 'errors'>[];
  /** The machine's 1-minute load average when the loads began (2 shared cores: above ~2 the figures wait for a core). */
  loadAverage: number;
  /** The service's median split POST/s over the PostgreSQL peer's, and whether the target is met (>= 1, p99 < 100 ms). */
  splitPostVsPostgres: number | null;
  met: boolean | null;
}

const CONNECTIONS = 100;
const SPLIT_POSTS = 10;

/** utime + stime of a process in seconds (Linux /proc, 100 ticks per second). */
function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Side {
  name: string;
  url: string;
  headers: Record<string, string>;
  pid: number | null;
  /** Document numbers of this side's registrations under load (a prefix of their own: none clashes with the seed). */
  next: () => string;
}

async function mixOn(side: Side, seconds: number): Promise<MixRow> {
  const list = '/pacientes?limit=50';
  const cpuBefore = side.pid ? cpuSecondsOf(side.pid) : 0;
  const mix = await runMixedLoad({
    scenario: `${side.name}: mix 90/10`,
    url: side.url,
    headers: side.headers,
    connections: CONNECTIONS,
    durationSeconds: seconds,
    pick: () => (Math.random() < 0.9 ? { method: 'GET', path: list } : { method: 'POST', path: '/pacientes', body: side.next() }),
  });
  const get = mix.byMethod.GET;
  const post = mix.byMethod.POST;
  return row(side, 'mix 90/10', get, post, mix.errors, cpuBefore, seconds);
}

async function splitOn(side: Side, seconds: number): Promise<MixRow> {
  const cpuBefore = side.pid ? cpuSecondsOf(side.pid) : 0;
  const [get, post] = await Promise.all([
    runLoad({
      scenario: `${side.name}: split GET`,
      url: `${side.url}/pacientes?limit=50`,
      headers: side.headers,
      connections: CONNECTIONS - SPLIT_POSTS,
      durationSeconds: seconds,
    }),
    runLoad({
      scenario: `${side.name}: split POST`,
      url: `${side.url}/pacientes`,
      method: 'POST',
      headers: side.headers,
      body: side.next,
      connections: SPLIT_POSTS,
      durationSeconds: seconds,
    }),
  ]);
  const asMethod = (f: LoadFigures): MethodFigures => ({
    requestsPerSecond: f.requestsPerSecond,
    p50Ms: f.p50Ms,
    p99Ms: f.p99Ms,
    non2xx: f.non2xx,
  });
  return row(side, 'split 90+10', asMethod(get), asMethod(post), get.errors + post.errors, cpuBefore, seconds);
}

function row(
  side: Side,
  scenario: MixRow['scenario'],
  get: MethodFigures,
  post: MethodFigures,
  errors: number,
  cpuBefore: number,
  seconds: number,
): MixRow {
  const answered = (get.requestsPerSecond + post.requestsPerSecond) * seconds;
  return {
    side: side.name,
    scenario,
    getPerSecond: get.requestsPerSecond,
    getP99Ms: get.p99Ms,
    postPerSecond: post.requestsPerSecond,
    postP50Ms: post.p50Ms,
    postP99Ms: post.p99Ms,
    non2xx: get.non2xx + post.non2xx,
    errors,
    cpuMicrosPerRequest: side.pid ? Math.round(((cpuSecondsOf(side.pid) - cpuBefore) * 1e6) / Math.max(1, answered)) : null,
  };
}

/** 1,000 patients through the side's own route, 50 at a time. */
async function seed(side: Side, prefix: string): Promise<void> {
  for (let i = 0; i < 1000; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, k) =>
        fetch(`${side.url}/pacientes`, { method: 'POST', headers: side.headers, body: patientBody(i + k, prefix) }).then((r) => {
          if (r.status !== 201) throw new Error(`seeding ${side.name} answered ${r.status}`);
        }),
      ),
    );
  }
}

const counter = (prefix: string) => {
  let n = 100_000;
  return () => patientBody(n++, prefix);
};

/** The service as configured and, compared in the same run, with writes first turned off and with two WAL flushes in flight. */
const VARIANTS: { name: string; env: Record<string, string> }[] = [
  { name: 'service, writes first off', env: { WRITE_PRIORITY_READ_BUDGET_MS: '0' } },
  { name: 'service', env: {} },
  { name: 'service, WAL_FLUSHES_IN_FLIGHT=2', env: { WAL_FLUSHES_IN_FLIGHT: '2' } },
];
const PEER = 'Koa + PostgreSQL';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = (sorted.length - 1) / 2;
  return Math.round((sorted[Math.floor(mid)]! + sorted[Math.ceil(mid)]!) / 2);
};

/**
 * Every side runs at once (an idle one costs next to nothing) and the scenarios alternate between them, rep after
 * rep, so a noisy shared machine weighs on each side alike.
 */
export async function benchMix(
  scratch: string,
  env: Record<string, string>,
  creds: BenchCredentials,
  seconds: number,
  reps: number,
  log: (s: string) => void,
): Promise<MixFigures> {
  const rows: MixRow[] = [];
  const loadAverage = Number(os.loadavg()[0]!.toFixed(2));
  const sides: Side[] = [];
  const stops: (() => Promise<void> | void)[] = [];
  try {
    for (const [i, variant] of VARIANTS.entries()) {
      const dataDir = path.join(scratch, `mix-${i}`);
      fs.rmSync(dataDir, { recursive: true, force: true });
      const service: Started = await startService({ ...env, ...variant.env, DATA_DIR: dataDir }, await freePort());
      stops.push(() => service.stop());
      const token = await signInAndSelect(service.url, creds.email, creds.password, creds.totpSecret);
      sides.push({
        name: variant.name,
        url: service.url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        pid: service.child.pid ?? null,
        next: counter('3'),
      });
    }
    const cluster = startPostgres(await freePort(), log);
    if (cluster) {
      stops.push(() => cluster.stop());
      const peerDir = path.join(scratch, 'mix-peer-pg');
      fs.rmSync(peerDir, { recursive: true, force: true });
      fs.mkdirSync(peerDir, { recursive: true });
      const peer = await startPeer('pgCrud', await freePort(), { DATA_DIR: peerDir, PG_URL: cluster.url }, '/pacientes');
      stops.push(() => peer.stop());
      sides.push({ name: PEER, url: peer.url, headers: { 'content-type': 'application/json' }, pid: null, next: counter('3') });
    }
    for (const side of sides) await seed(side, '3');
    await new Promise((r) => setTimeout(r, 1000)); // the seed's projections settle outside the runs
    for (let rep = 0; rep < reps; rep++)
      for (const side of sides) {
        rows.push(await mixOn(side, seconds));
        log(JSON.stringify(rows[rows.length - 1]));
        rows.push(await splitOn(side, seconds));
        log(JSON.stringify(rows[rows.length - 1]));
      }
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
  const summary = sides.flatMap((side) =>
    (['mix 90/10', 'split 90+10'] as const).map((scenario) => {
      const of = rows.filter((r) => r.side === side.name && r.scenario === scenario);
      const m = (key: keyof MixRow) => median(of.map((r) => r[key] as number));
      return {
        side: side.name,
        scenario,
        getPerSecond: m('getPerSecond'),
        getP99Ms: m('getP99Ms'),
        postPerSecond: m('postPerSecond'),
        postP50Ms: m('postP50Ms'),
        postP99Ms: m('postP99Ms'),
        cpuMicrosPerRequest: side.pid ? m('cpuMicrosPerRequest') : null,
      };
    }),
  );
  const split = (name: string) => summary.find((r) => r.side === name && r.scenario === 'split 90+10');
  const ours = split('service')!;
  const theirs = split(PEER);
  const ratio = theirs ? Number((ours.postPerSecond / Math.max(1, theirs.postPerSecond)).toFixed(2)) : null;
  return {
    rows,
    summary,
    loadAverage,
    splitPostVsPostgres: ratio,
    met: ratio === null ? null : ratio >= 1 && ours.postP99Ms < 100,
  };
}
