// The patient queries of the scale section, against a running service: the first page of 50, a page deep in
// the cursor chain, and one patient by id; sequential latencies (one request at a time) and a short autocannon run.
import { runLoad, type LoadFigures, type LoadScenario } from './load.js';
import { signInAndSelect } from './signIn.js';
import type { BenchCredentials } from './http.js';
import { benchPatientId } from './dataset.js';
import { activityOf } from './processes.js';

const WARM_UP = 20;
const SEQUENTIAL = 300;
/** Pages followed before the "deep" page: 50 x 40 = 2,000 patients into the list. */
const DEEP_PAGES = 40;
const TOTP_STEP_MS = 30_000;
const SIGN_IN_LIMIT_MS = 30 * 60_000;

export interface LatencyFigures {
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

/** A load's figures and what each answered request cost the service: CPU (all its threads) and bytes read from disk. */
export type QueryLoadFigures = LoadFigures & { cpuUsPerRequest: number; diskReadBytesPerRequest: number };

export interface QueryFigures {
  firstPage: LatencyFigures;
  deepPage: LatencyFigures;
  byId: LatencyFigures;
  firstPageLoad: QueryLoadFigures;
  byIdLoad: QueryLoadFigures;
}

/** A load run, with the service's CPU and disk reads over it per answered request. */
async function costedLoad(pid: number, scenario: LoadScenario & { durationSeconds: number }): Promise<QueryLoadFigures> {
  const before = activityOf(pid);
  const figures = await runLoad(scenario);
  const after = activityOf(pid);
  const answered = Math.max(1, Math.round(figures.requestsPerSecond * scenario.durationSeconds));
  return {
    ...figures,
    cpuUsPerRequest: Math.round(((after.cpuSeconds - before.cpuSeconds) * 1e6) / answered),
    diskReadBytesPerRequest: Math.round((after.diskReadBytes - before.diskReadBytes) / answered),
  };
}

/**
 * Signs in. A code the service already accepted in this 30 s step is a replay, and sign-in waits while the log's
 * integrity check holds appends back: so failures are retried with the next step's code, for up to 30 minutes.
 */
export async function signIn(url: string, creds: BenchCredentials): Promise<string> {
  const until = Date.now() + SIGN_IN_LIMIT_MS;
  for (;;) {
    try {
      return await signInAndSelect(url, creds.email, creds.password, creds.totpSecret);
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, TOTP_STEP_MS - (Date.now() % TOTP_STEP_MS) + 500));
    }
  }
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} -> ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

async function latencies(token: string, urlOf: (i: number) => string): Promise<LatencyFigures> {
  for (let i = 0; i < WARM_UP; i++) await getJson(urlOf(i), token);
  const ms: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = process.hrtime.bigint();
    await getJson(urlOf(i), token);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Number(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(2));
  return { meanMs: Number((ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2)), p50Ms: at(0.5), p99Ms: at(0.99) };
}

/**
 * `patients` is how many patients the log holds: the company's are the even-numbered ones (scaleLog.ts), and the
 * reads by id spread over all of them.
 */
export async function benchQueries(
  url: string,
  creds: BenchCredentials,
  patients: number,
  loadSeconds: number,
  label: string,
  /** The service's process: each load's CPU and disk reads per request. */
  pid: number,
): Promise<QueryFigures> {
  const token = await signIn(url, creds);
  const first = `${url}/pacientes?limit=50`;
  let deep = first;
  for (let p = 0; p < DEEP_PAGES; p++) {
    const page = await getJson<{ items: unknown[]; nextCursor: string | null }>(deep, token);
    if (!page.nextCursor || page.items.length < 50) throw new Error(`${label}: the patient list ended after ${p + 1} pages`);
    deep = `${first}&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
  const companyPatients = Math.floor(patients / 2);
  const idPath = (i: number) => `/pacientes/${benchPatientId(2 * ((i * 7919) % companyPatients))}`;
  const auth = { authorization: `Bearer ${token}` };
  let served = 0;
  return {
    firstPage: await latencies(token, () => first),
    deepPage: await latencies(token, () => deep),
    byId: await latencies(token, (i) => `${url}${idPath(i)}`),
    firstPageLoad: await costedLoad(pid, {
      scenario: `${label}: GET /pacientes?limit=50`,
      url: first,
      headers: auth,
      durationSeconds: loadSeconds,
    }),
    byIdLoad: await costedLoad(pid, {
      scenario: `${label}: GET /pacientes/{id}`,
      url,
      headers: auth,
      path: () => idPath(served++),
      durationSeconds: loadSeconds,
    }),
  };
}
