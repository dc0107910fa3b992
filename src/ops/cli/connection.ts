// Where a command runs: through the running service (the data directory's lock names its URL; the operator token
// authenticates) or, when no live process holds the lock, on the data directory itself with the service composed in
// this process on a loopback port. Either way a command speaks the same HTTP routes, so it is audited alike.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { AppServices } from '../../services.js';
import { createLogger } from '../../logger.js';
import { startServer } from '../../server.js';
import { bootstrapBanner } from '../../bootstrapBanner.js';
import { OPS_TOKEN_FILE, readServiceLock, type LockInfo } from '../serviceLock.js';

export interface Answer<T> {
  status: number;
  /** The service's JSON, typed by the command that asked (the route's response schema). */
  body: T;
}

export interface Connection {
  mode: 'service' | 'offline';
  /** "through the running service at http://..." or "on the data directory ... (service stopped)". */
  where: string;
  /** An operation of the service; a problem (4xx/5xx) throws OpsError with its detail. */
  request<T = Record<string, unknown>>(method: string, route: string, body?: unknown): Promise<Answer<T>>;
  /** The stores opened in this process (offline only): for library operations that run beside the routes. */
  services: AppServices | null;
  close(): Promise<void>;
}

/** A failure to report in one line (exit code 1). */
export class OpsError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OpsError';
  }
}

const STARTING_WAIT_MS = 15_000;

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

async function readToken(dataDir: string): Promise<string> {
  const file = path.join(dataDir, OPS_TOKEN_FILE);
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch (err) {
    throw new OpsError(`cannot read the operator token ${file} (${(err as NodeJS.ErrnoException).code}): run as the service's user`);
  }
}

function client(url: string, token: string): Connection['request'] {
  const user = osUser();
  return async <T>(method: string, route: string, body?: unknown): Promise<Answer<T>> => {
    const headers: Record<string, string> = { authorization: `Ops ${token}`, 'x-ops-user': user, 'user-agent': 'dialysis-ops' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url + route, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch (err) {
      throw new OpsError(`the service at ${url} does not answer (${(err as Error).message})`);
    }
    const text = await res.text();
    const parsed: unknown = text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text || null;
    if (res.status >= 400) {
      const problem = parsed as { detail?: string; title?: string; errors?: { detail?: string; pointer?: string }[] } | null;
      const fields = problem?.errors?.map((e) => `${e.pointer ?? ''} ${e.detail ?? ''}`.trim()).join('; ');
      const detail = problem?.detail ?? problem?.title ?? `HTTP ${res.status}`;
      throw new OpsError(fields ? `${detail}: ${fields}` : detail, res.status);
    }
    return { status: res.status, body: parsed as T };
  };
}

async function liveHolder(dataDir: string): Promise<LockInfo | null> {
  const deadline = Date.now() + STARTING_WAIT_MS;
  for (;;) {
    const holder = await readServiceLock(dataDir);
    if (!holder || holder.url) return holder;
    if (Date.now() > deadline) throw new OpsError(`process ${holder.pid} holds ${dataDir} but has not started answering`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Through the running service when one holds the data directory, else offline on it. */
export async function connect(config: Config): Promise<Connection> {
  const holder = await liveHolder(config.dataDir);
  if (holder) {
    const url = holder.url!;
    const token = await readToken(config.dataDir);
    const request = client(url, token);
    return { mode: 'service', where: `through the running service at ${url}`, request, services: null, close: () => Promise.resolve() };
  }
  const server = await startServer(
    { ...config, host: '127.0.0.1', port: 0 },
    {
      logger: createLogger(config.logLevel === 'silent' ? 'silent' : 'error'),
      quiet: true,
      // An empty data directory: the first start happens here, and its generated credentials are shown once, here.
      announce: async (credentials) => void process.stderr.write(await bootstrapBanner(credentials, null)),
    },
  );
  const token = await readToken(config.dataDir);
  return {
    mode: 'offline',
    where: `on the data directory ${config.dataDir} (service stopped)`,
    request: client(server.url, token),
    services: server.services,
    close: () => server.close(),
  };
}
