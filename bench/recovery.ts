// Recovery after kill -9 over a large log: the real service is killed (SIGKILL) under registrations, restarted,
// and timed from the new process's start to /health, /ready, the first acknowledged registration, then 50 at once.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS, copyDataDir, startService } from './processes.js';
import { patientBody } from './http.js';
import { signInAndSelect } from './signIn.js';
import { summarize, nowMs } from './sistemaClient.js';
import type { LatencyFigures } from './scaleQueries.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const READY_LIMIT_MS = 900_000;
const RECOVERY_LIMIT_MS = 120_000;

export interface RecoveryFigures {
  events: number;
  /** ms from the restarted process's spawn */
  healthMs: number;
  readyMs: number;
  firstRegistrationMs: number;
  /** when /ready first said the background quick_check of the log had passed (writes need not wait for it) */
  integrityCheckedMs: number;
  /** registrations tried (one at a time) before the first acknowledged one, by status */
  beforeFirst: Record<string, number>;
  /** 50 concurrent registrations fired right after the first acknowledged one */
  burst: LatencyFigures & { statuses: Record<string, number> };
  /** what /ready said while it answered 503 (the distinct check sets seen) */
  notReadySaid: string[];
}

interface BenchCredentials {
  email: string;
  password: string;
  totpSecret: string;
}

/** A data directory over the log whose read models have caught up once (built on the first run, then copied). */
async function caughtUpBase(
  datasetDir: string,
  scratch: string,
  events: number,
  port: number,
  env: Record<string, string>,
  log: (s: string) => void,
) {
  const base = path.join(scratch, `recovery-base-${events}`);
  if (fs.existsSync(path.join(base, 'COMPLETE'))) return base;
  fs.rmSync(base, { recursive: true, force: true });
  fs.mkdirSync(base, { recursive: true });
  fs.copyFileSync(path.join(datasetDir, 'events.sqlite'), path.join(base, 'events.sqlite'));
  log('  first start over the log (read models catch up once; kept for later runs) ...');
  const first = await startService({ ...env, DATA_DIR: base }, port, [], READY_LIMIT_MS);
  await first.stop();
  fs.writeFileSync(path.join(base, 'COMPLETE'), JSON.stringify({ events }));
  return base;
}

/** BENCH_RECOVERY_LOG=<file>: the restarted service logs at info level into that file (where the time goes). */
function spawnService(dataDir: string, port: number, env: Record<string, string>): ChildProcess {
  const logFile = process.env.BENCH_RECOVERY_LOG;
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, path.join(root, 'dist/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: logFile ? 'info' : 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', logFile ? 'pipe' : 'ignore', 'inherit'],
  });
  if (logFile) child.stdout!.pipe(fs.createWriteStream(logFile));
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

async function register(url: string, token: string, n: number, timeoutMs = 30_000): Promise<number> {
  try {
    const res = await fetch(`${url}/pacientes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: patientBody(n, '6'),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    return (err as Error).name === 'TimeoutError' ? -1 : 0; // -1: no answer in time; 0: not listening yet
  }
}

/** Polls /ready until its checks say the log's integrity check passed; ms since `t0`. */
async function untilChecked(url: string, t0: number): Promise<number> {
  for (;;) {
    try {
      const body = (await (await fetch(url)).json()) as { checks?: { integrityCheck?: string } };
      if (body.checks?.integrityCheck === 'passed') return nowMs() - t0;
    } catch {
      /* not listening yet */
    }
    if (nowMs() - t0 > RECOVERY_LIMIT_MS) throw new Error(`the integrity check did not pass within ${RECOVERY_LIMIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Polls `path` until it answers 200; ms since `t0`. Calls `seen` with each non-200 body. */
async function untilOk(url: string, t0: number, seen?: (body: string) => void): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(url);
      const text = await res.text();
      if (res.ok) return nowMs() - t0;
      seen?.(text);
    } catch {
      /* not listening yet */
    }
    if (nowMs() - t0 > RECOVERY_LIMIT_MS) throw new Error(`${url} not ok within ${RECOVERY_LIMIT_MS} ms of the restart`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function benchRecovery(o: {
  datasetDir: string;
  scratch: string;
  events: number;
  port: number;
  env: Record<string, string>;
  creds: BenchCredentials;
  log: (s: string) => void;
}): Promise<RecoveryFigures> {
  const base = await caughtUpBase(o.datasetDir, o.scratch, o.events, o.port, o.env, o.log);
  const dataDir = path.join(o.scratch, 'recovery');
  fs.rmSync(dataDir, { recursive: true, force: true });
  copyDataDir(base, dataDir);
  const url = `http://127.0.0.1:${o.port}`;
  let counter = 0;

  o.log('  start, registrations for 2 s, then SIGKILL under them ...');
  const before = await startService({ ...o.env, DATA_DIR: dataDir }, o.port, [], READY_LIMIT_MS);
  const token = await signInAndSelect(url, o.creds.email, o.creds.password, o.creds.totpSecret);
  const loadUntil = Date.now() + 2000;
  const load = Array.from({ length: 8 }, async () => {
    while (Date.now() < loadUntil) await register(url, token, counter++);
  });
  await new Promise((r) => setTimeout(r, 2000 - 50));
  before.child.kill('SIGKILL');
  await Promise.all([exited(before.child), ...load]);

  o.log('  restart ...');
  const t0 = nowMs();
  const child = spawnService(dataDir, o.port, o.env);
  try {
    const notReady = new Set<string>();
    const health = untilOk(`${url}/health`, t0);
    const ready = untilOk(`${url}/ready`, t0, (body) => {
      const { checks } = JSON.parse(body) as { checks?: Record<string, unknown> };
      if (checks) notReady.add(JSON.stringify(checks));
    });
    const checked = untilChecked(`${url}/ready`, t0);
    const beforeFirst: Record<string, number> = {};
    let firstRegistrationMs = 0;
    for (;;) {
      const status = await register(url, token, counter++);
      if (status >= 200 && status < 300) {
        firstRegistrationMs = nowMs() - t0;
        break;
      }
      beforeFirst[status] = (beforeFirst[status] ?? 0) + 1;
      if (nowMs() - t0 > RECOVERY_LIMIT_MS) throw new Error('no registration acknowledged within the limit');
      if (status <= 0) await new Promise((r) => setTimeout(r, 10));
    }
    const statuses: Record<string, number> = {};
    const samples = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const started = nowMs();
        const status = await register(url, token, counter++);
        statuses[status] = (statuses[status] ?? 0) + 1;
        return nowMs() - started;
      }),
    );
    const round = (ms: number) => Math.round(ms);
    return {
      events: o.events,
      healthMs: round(await health),
      readyMs: round(await ready),
      firstRegistrationMs: round(firstRegistrationMs),
      integrityCheckedMs: round(await checked),
      beforeFirst,
      burst: { ...summarize(samples), statuses },
      notReadySaid: [...notReady],
    };
  } finally {
    child.kill('SIGTERM');
    await exited(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
