// Child processes for the benchmarks: the real service as deployed (compiled, dist/src/main.js, as the Dockerfile
// runs it) and the bare Koa baseline.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Started {
  child: ChildProcess;
  url: string;
  /** ms from spawn to the readiness answer */
  readyMs: number;
  stop(): Promise<void>;
}

async function waitForOk(url: string, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${url}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
}

/** The V8 flags of `npm start` (package.json): keep both the same, so the figures are the service's. */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];

/** Compiles the service (`npm run build`) once per bench run, so every start measures the code as deployed. */
export function buildService(): void {
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('npm run build failed: the bench measures the compiled service');
}

/** `readyTimeoutMs`: a first start over a large log catches up for minutes before it is ready. */
export async function startService(
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
  readyTimeoutMs = 300_000,
  stdoutFd: number | 'ignore' = 'ignore',
  /** Another build of the service (a comparison with an earlier commit); the checkout's dist/ by default. */
  mainJs = path.join(root, 'dist/src/main.js'),
): Promise<Started> {
  const started = Date.now();
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, mainJs], {
    cwd: root,
    // LOG_LEVEL warn unless a section measures logging itself.
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', stdoutFd, 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/ready`, readyTimeoutMs);
  return { child, url, readyMs: Date.now() - started, stop: stopper(child) };
}

export async function startBareKoa(port: number): Promise<Started> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/bareKoa.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, 60_000);
  return { child, url, readyMs: Date.now() - started, stop: stopper(child) };
}

/**
 * Copies a data directory and flushes the copy to the disk before a service starts on it: else the service's first
 * fsync (a checkpoint after a crash) waits for gigabytes of the copy's dirty pages, which a real crash would not hold.
 */
export function copyDataDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
  for (const name of fs.readdirSync(to)) {
    const fd = fs.openSync(path.join(to, name), 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** Resident and peak resident memory of a process, in MiB (Linux /proc). */
export function memoryOf(pid: number): { rssMiB: number; peakRssMiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: Math.round(kb('VmRSS') / 1024), peakRssMiB: Math.round(kb('VmHWM') / 1024) };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (utime + stime) of a process, all its threads, or of one of its threads (`thread`: its task id). */
export function cpuSecondsOf(pid: number, thread?: number): number {
  const stat = fs.readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  const fields = stat.split(') ')[1]!.split(' '); // utime, stime at 11, 12
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/**
 * What a process has done so far (Linux /proc): CPU seconds (all its threads), bytes read through system calls
 * (`rchar`: SQLite's preads, page cache hits included) and bytes the storage layer read (`read_bytes`).
 */
export function activityOf(pid: number): { cpuSeconds: number; readChars: number; diskReadBytes: number } {
  const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
  const counter = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(io)?.[1] ?? 0);
  return {
    cpuSeconds: cpuSecondsOf(pid),
    readChars: counter('rchar'),
    diskReadBytes: counter('read_bytes'),
  };
}

/** A benchmark peer (bench/peers/<name>.ts) in its own process, ready once `readyPath` answers 200. */
export async function startPeer(name: string, port: number, env: Record<string, string>, readyPath = '/'): Promise<Started> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, `bench/peers/${name}.ts`)], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}${readyPath}`, 60_000);
  return { child, url, readyMs: Date.now() - started, stop: stopper(child) };
}

/** A port free on loopback now (the OS picks it): for a child service or receiver a test or bench starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
