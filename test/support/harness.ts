// Starts the real service (startServer) on a free port with a fresh DATA_DIR, a controllable clock and
// known bootstrap credentials, and signs in through the real flow (TOTP computed from the secret).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { loadConfig } from '../../src/config.js';
import { createLogger, type LogLevel } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { AppServices } from '../../src/services.js';
import type { GroupModule } from '../../src/http/groupModule.js';
import type { BootstrapCredentials, BootstrapResult } from '../../src/commands/platform/bootstrapWrites.js';
import { grantMembership, registerCompany, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret, TOTP_PERIOD_SECONDS } from '../../src/auth/totp.js';
import type { SqliteEventStoreTestHooks } from '../../src/stores/sqlite/storeTestHooks.js';

/** The bootstrap administrator every test server starts with (unless told otherwise). */
export const TEST_ADMIN = {
  email: 'admin@clinic.example',
  password: 'correct horse battery staple',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', // Base32, 20 bytes
  companyName: 'Clinica Uno',
} as const;

/** A value of an API answer's JSON, read untyped: the test's assertions are its shape check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests index into answers freely; a wrong shape fails the assertion
export type ApiJson = any;

export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

/** A user who can sign in, with the company they administer. */
export interface TestAccount {
  email: string;
  password: string;
  totpSecret: string;
  userId: string;
  companyId: string;
}

export interface TokenPair {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshToken: string;
}

export interface HttpAnswer {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON (also problem+json), else the text, or null when empty. */
  body: ApiJson;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  services: AppServices;
  clock: TestClock;
  /** The bootstrap administrator and the first company. */
  admin: TestAccount;
  /** What this server's first-start bootstrap did (created=false when the store was already bootstrapped). */
  bootstrap: BootstrapResult;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpAnswer>;
  /** A TOTP code for the server clock's current time. */
  totpCode(totpSecret: string): Promise<string>;
  /** Moves the clock to the start of the next TOTP step (+1 s): a fresh code that was never accepted. */
  nextTotpStep(): void;
  /** login -> verify-2fa; advances the clock to a fresh TOTP step first (a code is accepted once per user ever). */
  signIn(email: string, password: string, totpSecret: string): Promise<TokenPair>;
  /** POST /tenants/{id}/select; throws unless 200. */
  selectTenant(accessToken: string, companyId: string): Promise<HttpAnswer>;
  /** signIn + selectTenant(account.companyId): an access token working inside the account's company. */
  signInAndSelect(account: TestAccount): Promise<string>;
  /** Registers a company and its admin user (TOTP provisioned) through the real platform commands. */
  createCompanyWithAdmin(name: string, email: string, password: string): Promise<TestAccount>;
  /** Writes the access audit entries still queued or coalescing, to read them back from the event store. */
  flushAccessAudit(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Extra environment for loadConfig (e.g. BOOTSTRAP_*; by default TEST_ADMIN is used). */
  env?: Record<string, string | undefined>;
  /** Groups to serve instead of the registry's. */
  groups?: GroupModule[];
  /** Generate the bootstrap credentials (no BOOTSTRAP_* set); they reach `announce`. */
  generatedBootstrap?: boolean;
  announce?: (credentials: BootstrapCredentials) => void | Promise<void>;
  /** Reuse a data directory (it is then not deleted on close). */
  dataDir?: string;
  /** Start time of the clock (default: now, aligned to a TOTP step + 1 s). */
  startAt?: Date;
  logLevel?: LogLevel;
  /** false: do not hold DATA_DIR/service.lock (several servers on one store). */
  serviceLock?: boolean;
  /** Fault injection into the SQLite event store (a failing fsync, a capped file). */
  eventStoreTestHooks?: SqliteEventStoreTestHooks;
}

function createClock(start: Date): TestClock {
  let ms = start.getTime();
  return { now: () => new Date(ms), advance: (by) => void (ms += by) };
}

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

async function toAnswer(res: Response): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  const text = await res.text();
  let body: unknown = text.length === 0 ? null : text;
  if (text.length > 0 && /json/i.test(headers['content-type'] ?? '')) body = JSON.parse(text);
  return { status: res.status, headers, body };
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-test-')));
  const bootstrapEnv = options.generatedBootstrap
    ? {}
    : {
        BOOTSTRAP_ADMIN_EMAIL: TEST_ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: TEST_ADMIN.password,
        BOOTSTRAP_ADMIN_TOTP_SECRET: TEST_ADMIN.totpSecret,
        BOOTSTRAP_COMPANY_NAME: TEST_ADMIN.companyName,
      };
  // PROJECTIONS_THREAD=main npx mocha <files>: a suite run with the projector on the main thread (the default puts it in
  // its worker thread with the SQLite stores).
  const thread = process.env.PROJECTIONS_THREAD ? { PROJECTIONS_THREAD: process.env.PROJECTIONS_THREAD } : {};
  const config = { ...loadConfig({ ...bootstrapEnv, ...thread, ...options.env, DATA_DIR: dataDir, HOST: '127.0.0.1' }), port: 0 };
  const start = options.startAt ?? new Date(Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000);
  const clock = createClock(start);
  let running: RunningServer;
  try {
    running = await startServer(config, {
      now: clock.now,
      logger: createLogger(options.logLevel ?? (process.env.TEST_LOG_LEVEL as LogLevel | undefined) ?? 'error'),
      quiet: true,
      responseCheck: 'enforce',
      ...(options.groups ? { groups: options.groups } : {}),
      announce: options.announce,
      ...(options.serviceLock === false ? { serviceLock: false } : {}),
      ...(options.eventStoreTestHooks ? { eventStoreTestHooks: options.eventStoreTestHooks } : {}),
    });
  } catch (err) {
    if (ownDir) await fs.rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const { url, services } = running;

  const request = async (method: string, p: string, o: RequestOptions = {}): Promise<HttpAnswer> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    return toAnswer(await fetch(url + p, { method, headers, body }));
  };

  const totpCode = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
  const nextTotpStep = () => {
    const now = clock.now().getTime();
    clock.advance(Math.floor(now / STEP_MS) * STEP_MS + STEP_MS + 1000 - now);
  };

  const expectOk = (what: string, answer: HttpAnswer): HttpAnswer => {
    if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer;
  };

  const signIn = async (email: string, password: string, totpSecret: string): Promise<TokenPair> => {
    const login = expectOk('POST /auth/login', await request('POST', '/auth/login', { body: { email, password } }));
    nextTotpStep();
    const code = await totpCode(totpSecret);
    const verified = expectOk(
      'POST /auth/verify-2fa',
      await request('POST', '/auth/verify-2fa', { body: { challenge: login.body.challenge, code } }),
    );
    return verified.body as TokenPair;
  };

  const selectTenant = async (accessToken: string, companyId: string) =>
    expectOk(`POST /tenants/${companyId}/select`, await request('POST', `/tenants/${companyId}/select`, { token: accessToken }));

  const signInAndSelect = async (account: TestAccount): Promise<string> => {
    const { accessToken } = await signIn(account.email, account.password, account.totpSecret);
    await selectTenant(accessToken, account.companyId);
    return accessToken;
  };

  const createCompanyWithAdmin = async (name: string, email: string, password: string): Promise<TestAccount> => {
    const caller = { actor: 'system', correlationId: `test-${name}` };
    const totpSecret = newTotpSecret();
    const company = await registerCompany(services, { name }, caller);
    const user = await registerUser(services, { email, name: `Admin of ${name}`, password, totpSecret }, caller);
    const member = await grantMembership(services, { companyId: company.companyId, userId: user.userId, roles: ['admin'] }, caller);
    const last = member.position ?? user.position ?? company.position;
    if (last !== null) await services.projections.waitFor(last);
    return { email: email.trim().toLowerCase(), password, totpSecret, userId: user.userId, companyId: company.companyId };
  };

  const admin: TestAccount = {
    email: options.generatedBootstrap ? '' : TEST_ADMIN.email,
    password: options.generatedBootstrap ? '' : TEST_ADMIN.password,
    totpSecret: options.generatedBootstrap ? '' : TEST_ADMIN.totpSecret,
    userId: running.bootstrap.adminUserId ?? '',
    companyId: running.bootstrap.companyId ?? '',
  };

  return {
    url,
    port: running.port,
    dataDir,
    services,
    clock,
    admin,
    bootstrap: running.bootstrap,
    request,
    totpCode,
    nextTotpStep,
    signIn,
    selectTenant,
    signInAndSelect,
    createCompanyWithAdmin,
    flushAccessAudit: () => running.flushAccessAudit(),
    close: async () => {
      await running.close();
      if (ownDir) await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
