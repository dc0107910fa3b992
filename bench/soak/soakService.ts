// The service under soak: src/main.ts as its own process, started as `npm start` does (same V8 flags, tsx), on a fresh
// DATA_DIR, with /metrics behind a token, webhooks allowed to the loopback receiver with a short retry schedule, and
// its output kept in a log file next to the data.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS } from '../processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const SOAK_CREDS = {
  email: 'soak@example.org',
  password: 'loopback only 7h2m endurance passphrase',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};

export interface SoakService {
  child: ChildProcess;
  pid: number;
  url: string;
  metricsToken: string;
  exited(): boolean;
  stop(): Promise<number | null>;
}

/** `compiled`: dist/src/main.js as the Dockerfile runs it (after `npm run build`) instead of src/main.ts through tsx. */
export async function startSoakService(
  dataDir: string,
  logFile: string,
  port: number,
  extraEnv: Record<string, string> = {},
  compiled = false,
): Promise<SoakService> {
  const metricsToken = 'soak-metrics-token-0123456789';
  const log = fs.openSync(logFile, 'a');
  const entry = compiled ? [path.join(root, 'dist/src/main.js')] : ['--import', 'tsx', path.join(root, 'src/main.ts')];
  if (compiled && !fs.existsSync(entry[0]!)) throw new Error('--compiled runs dist/src/main.js: npm run build first');
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...entry], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ACCESS_LOG: 'errors',
      METRICS_TOKEN: metricsToken,
      BOOTSTRAP_ADMIN_EMAIL: SOAK_CREDS.email,
      BOOTSTRAP_ADMIN_PASSWORD: SOAK_CREDS.password,
      BOOTSTRAP_ADMIN_TOTP_SECRET: SOAK_CREDS.totpSecret,
      BOOTSTRAP_COMPANY_NAME: 'Clínica Soak',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '0,1000,2000,5000,10000,30000',
      ...extraEnv,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exitCode: number | null | undefined;
  child.once('exit', (code) => (exitCode = code));
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 180_000; ;) {
    if (exitCode !== undefined) throw new Error(`the service exited (${exitCode}) before it was ready; see ${logFile}`);
    try {
      if ((await fetch(`${url}/ready`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the service was not ready within 180 s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    pid: child.pid!,
    url,
    metricsToken,
    exited: () => exitCode !== undefined,
    stop: () =>
      new Promise((resolve) => {
        if (exitCode !== undefined) return resolve(exitCode);
        const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', (code) => {
          clearTimeout(kill);
          resolve(code);
        });
        child.kill('SIGTERM');
      }),
  };
}
