// Issue 25's target on the real service over HTTP: with N patients (default 10,000) and a year of their sessions, the
// latency (p50/p95/p99, sequential) of GET /widgets/{id}/datos for every widget of the catalog, of the catalog itself,
// of the group's main list (the signed-in person's dashboard) and main command (saving its layout with If-Match), next
// to the day board of /dialisis/agenda; after the first start's catch-up of every projection (its time and RSS).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { READ_STORE_FILE } from '../src/stores/openReadStore.js';
import { memoryOf, startService } from './processes.js';
import { signIn } from './scaleQueries.js';
import { settle } from './scale.js';
import type { BenchCredentials } from './http.js';
import { ensureWidgetLog } from './widgetLog.js';
import { CODE as MODULE_CODE, doseBody, HEPATITIS_B_MODULE } from './generador.js';

const WARM_UP = 20;
const RUNS = 200;
const SAVES = 100;
const READY_LIMIT_MS = 90 * 60_000;
/** The target for a widget's data: p50 under 20 ms. */
const TARGET_P50_MS = 20;

export interface Latency {
  scenario: string;
  runs: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  status: number;
  bytes: number;
  /** Widget data only: met when p50 < 20 ms. */
  target?: 'met' | 'MISSED';
}

export interface WidgetFigures {
  patients: number;
  sessions: number;
  logEvents: number;
  /** Seconds the log took to build (null: reused from an earlier run). */
  generationSeconds: number | null;
  firstStart: { seconds: number; rssAtReadyMiB: number; peakRssMiB: number };
  /** Seconds after ready until the service idled (its background check of the log), null: still busy at the limit. */
  settleSeconds: number | null;
  /** The machine's 1-minute load average when the requests began (2 shared cores: figures above ~2 are contended). */
  loadAverage: number;
  widgets: string[];
  latencies: Latency[];
}

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

function summarize(scenario: string, samples: number[], status: number, bytes: number): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100) / 100;
  const mean = Math.round((samples.reduce((s, x) => s + x, 0) / Math.max(1, samples.length)) * 100) / 100;
  return { scenario, runs: samples.length, meanMs: mean, p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99), status, bytes };
}

/** Sequential GETs (one at a time, after a warm-up): the latency a dashboard's panel sees. */
async function timedGets(base: string, token: string, scenario: string, pathOf: (i: number) => string): Promise<Latency> {
  const headers = { authorization: `Bearer ${token}` };
  let status = 0;
  let bytes = 0;
  const once = async (i: number) => {
    const res = await fetch(`${base}${pathOf(i)}`, { headers });
    const body = await res.arrayBuffer();
    [status, bytes] = [res.status, body.byteLength];
  };
  for (let i = 0; i < WARM_UP; i++) await once(i);
  if (status !== 200) return summarize(scenario, [], status, bytes);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = nowMs();
    await once(i);
    samples.push(nowMs() - start);
  }
  return summarize(scenario, samples, status, bytes);
}

/** The query a widget needs beside its defaults: the module-records widget shows one module. */
const WIDGET_QUERY: Record<string, string> = { 'module-records': `?module=${MODULE_CODE}` };

/**
 * The module the module-records widget shows: the Generador section's, published, with two doses for each of 100 patients.
 * Made once in the log (a later run finds it: 409).
 */
async function seedModule(base: string, token: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const post = async (p: string, body: string, accepted: number[]): Promise<number> => {
    const res = await fetch(`${base}${p}`, { method: 'POST', headers, body });
    if (!accepted.includes(res.status)) throw new Error(`POST ${p} answered ${res.status}: ${await res.text()}`);
    return res.status;
  };
  if ((await post('/generador/modulos', JSON.stringify(HEPATITIS_B_MODULE), [201, 409])) === 409) return;
  await post(`/generador/modulos/${MODULE_CODE}/publicacion`, '{}', [200]);
  const patients = await fetch(`${base}/pacientes?limit=100`, { headers });
  const ids = ((await patients.json()) as { items: { id: string }[] }).items.map((p) => p.id);
  const dose = (id: string, n: number) => post(`/generador/m/${MODULE_CODE}`, doseBody(id, n), [201]);
  await Promise.all(ids.flatMap((id, n) => [dose(id, 2 * n), dose(id, 2 * n + 1)]));
}

type Dashboard = { id: string; panels: { panelId: string; widgetId: string; params: Record<string, unknown>; position: unknown }[] };

/** PUT /widgets/tableros/{id} with the ETag of the previous answer: the layout saved SAVES times, alternating two layouts. */
async function timedSaves(base: string, token: string, widgets: string[]): Promise<Latency> {
  const scenario = 'PUT /widgets/tableros/{id} (save layout, If-Match)';
  const auth = { authorization: `Bearer ${token}` };
  const mine = await fetch(`${base}/widgets/tableros/mio`, { headers: auth });
  if (mine.status !== 200) return summarize(scenario, [], mine.status, 0);
  const dashboard = (await mine.json()) as Dashboard;
  let etag = mine.headers.get('etag') ?? '';
  const panels = (k: number) =>
    widgets.slice(0, 12).map((widgetId, i) => ({
      panelId: `p${i}`,
      widgetId,
      params: {},
      position: { x: ((i + k) % 3) * 4, y: Math.floor(i / 3) * 4, w: 4, h: 4 },
    }));
  let status = 0;
  let bytes = 0;
  const samples: number[] = [];
  for (let i = 0; i < SAVES + WARM_UP; i++) {
    const start = nowMs();
    const res = await fetch(`${base}/widgets/tableros/${dashboard.id}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ title: `Bench ${i}`, panels: panels(i % 2), reason: 'bench' }),
    });
    const body = await res.arrayBuffer();
    const elapsed = nowMs() - start;
    [status, bytes] = [res.status, body.byteLength];
    if (status !== 200) break;
    etag = res.headers.get('etag') ?? etag;
    if (i >= WARM_UP) samples.push(elapsed);
  }
  return summarize(scenario, status === 200 ? samples : [], status, bytes);
}

export async function benchWidgets(o: {
  scratch: string;
  patients: number;
  port: number;
  env: Record<string, string>;
  creds: BenchCredentials;
  log: (s: string) => void;
  /** false: measure at once after ready, while process managers may still work through the log (a pessimistic figure). */
  settle?: boolean;
}): Promise<WidgetFigures> {
  const before = Date.now();
  const source = await ensureWidgetLog(o.scratch, o.patients, { env: o.env, port: o.port, creds: o.creds }, o.log);
  const generated = Date.now() - before > 5_000;
  // Every run starts without a read model: the first start's catch-up is a figure of the section.
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(source.dir, READ_STORE_FILE + suffix), { force: true });
  o.log(`  first start over ${source.events} events (every projection, the widgets' included, catches up) ...`);
  const service = await startService({ ...o.env, DATA_DIR: source.dir }, o.port, [], READY_LIMIT_MS);
  try {
    const pid = service.child.pid!;
    const { rssMiB, peakRssMiB } = memoryOf(pid);
    const firstStart = { seconds: Number((service.readyMs / 1000).toFixed(1)), rssAtReadyMiB: rssMiB, peakRssMiB };
    o.log(
      `  ready in ${firstStart.seconds} s, RSS ${rssMiB} MiB (peak ${peakRssMiB} MiB)${o.settle === false ? '' : '; waiting for it to idle ...'}`,
    );
    const settled = o.settle === false ? null : await settle(service);
    const settleSeconds = settled === null ? null : Math.round(settled / 1000);
    const loadAverage = Number(os.loadavg()[0]!.toFixed(1));
    const token = await signIn(service.url, o.creds);
    await seedModule(service.url, token);
    const catalog = await fetch(`${service.url}/widgets/catalogo`, { headers: { authorization: `Bearer ${token}` } });
    const widgets = ((await catalog.json()) as { items?: { id: string }[] }).items?.map((w) => w.id) ?? [];
    o.log(`  catalog: ${widgets.length} widgets (${widgets.join(', ') || 'none yet'})`);
    const latencies: Latency[] = [];
    for (const id of widgets) {
      const query = WIDGET_QUERY[id] ?? '';
      const figures = await timedGets(service.url, token, `GET /widgets/${id}/datos${query}`, () => `/widgets/${id}/datos${query}`);
      latencies.push({ ...figures, target: figures.status === 200 && figures.p50Ms < TARGET_P50_MS ? 'met' : 'MISSED' });
    }
    latencies.push(await timedGets(service.url, token, 'GET /widgets/catalogo', () => '/widgets/catalogo'));
    latencies.push(await timedGets(service.url, token, 'GET /widgets/tableros/mio (main list)', () => '/widgets/tableros/mio'));
    latencies.push(await timedSaves(service.url, token, widgets));
    const today = source.seed.today;
    latencies.push(
      await timedGets(service.url, token, 'GET /dialisis/agenda?date=today (comparison)', () => `/dialisis/agenda?date=${today}`),
    );
    o.log(`  RSS after the requests: ${memoryOf(pid).rssMiB} MiB`);
    return {
      patients: source.patients,
      sessions: source.sessions,
      logEvents: source.events,
      generationSeconds: generated ? source.generationSeconds : null,
      firstStart,
      settleSeconds,
      loadAverage,
      widgets,
      latencies,
    };
  } finally {
    await service.stop();
  }
}
