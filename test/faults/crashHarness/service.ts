// The real service as a child process on a data directory of its own, killed with SIGKILL and started again on the
// same directory: what the crash harness drives. It runs from the sources (tsx) with its clock shifted by clockAhead.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');

export const ADMIN = {
  email: 'crash@example.org',
  password: 'loopback only harness 7f2q kz',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};

export interface RunningService {
  url: string;
  child: ChildProcess;
  /** How far ahead of this process's clock the service's runs, ms. */
  clockOffsetMs: number;
  /** The last lines the service wrote to stderr (for a failure's message). */
  stderrTail(): string;
  kill(): Promise<void>;
}

async function waitForReady(url: string, child: ChildProcess, tail: () => string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the service exited (${child.exitCode ?? child.signalCode}) while starting: ${tail()}`);
    try {
      const res = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error(`the service was not ready after ${timeoutMs} ms: ${tail()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startService(options: {
  dataDir: string;
  port: number;
  clockOffsetMs: number;
  readyTimeoutMs?: number;
}): Promise<RunningService> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', path.join(here, 'clockAhead.ts'), path.join(root, 'src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: options.dataDir,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      BOOTSTRAP_ADMIN_TOTP_SECRET: ADMIN.totpSecret,
      BOOTSTRAP_COMPANY_NAME: 'Clínica Crash',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      CRASH_CLOCK_OFFSET_MS: String(options.clockOffsetMs),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + String(d)).slice(-4_000)));
  const tail = () => stderr;
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForReady(url, child, tail, options.readyTimeoutMs ?? 120_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url,
    child,
    clockOffsetMs: options.clockOffsetMs,
    stderrTail: tail,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
