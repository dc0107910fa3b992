// The service killed (SIGKILL) under registrations and started again: until it takes writes, /ready answers 503 and
// says why; every write gets an answer (201, or 503 writes-held with Retry-After after a bounded wait), never none; 50
// registrations right after the first success all succeed; nothing acknowledged before the kill is lost. The child
// stands in for a large log with TEST_INTEGRITY_CHECK_DELAY_MS (its check lasts 5 s, as a large log's can).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'otplib';
import { freePort } from '../../bench/processes.js';
import { LIMITS } from '../../src/limits.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN = {
  email: 'crash-admin@example.test',
  password: 'ward nine night shift passphrase 7',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};
/** No write may go unanswered longer than this (the hold answers 503 after 2 s). */
const ANSWER_BOUND_MS = 15_000;
/** Outlasts the start (the projector thread's included: ~1 s under load) and then a held write's bounded wait. */
const CHECK_DELAY_MS = 3_000 + LIMITS.startupWrites.maxWaitMs;

function startService(dataDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      TEST_INTEGRITY_CHECK_DELAY_MS: String(CHECK_DELAY_MS),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      BOOTSTRAP_ADMIN_TOTP_SECRET: ADMIN.totpSecret,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve())));

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** null: not listening yet (nothing was sent). Rejects when no answer came within ANSWER_BOUND_MS. */
async function call(base: string, method: string, p: string, token?: string, body?: unknown): Promise<Answer | null> {
  let res: Response;
  try {
    res = await fetch(base + p, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(ANSWER_BOUND_MS),
    });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError')
      throw new Error(`${method} ${p} got no answer within ${ANSWER_BOUND_MS} ms`, { cause: err });
    return null;
  }
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : {},
  };
}

async function until<T>(what: string, attempt: () => Promise<T | null>, limitMs = 90_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const got = await attempt();
    if (got !== null) return got;
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function signIn(base: string): Promise<string> {
  const login = await call(base, 'POST', '/auth/login', undefined, { email: ADMIN.email, password: ADMIN.password });
  const code = await generate({ secret: ADMIN.totpSecret });
  const verified = await call(base, 'POST', '/auth/verify-2fa', undefined, { challenge: login!.body.challenge, code });
  const token = verified!.body.accessToken as string;
  const tenants = await call(base, 'GET', '/tenants', token);
  const companyId = (tenants!.body.items as { id: string }[])[0]!.id;
  await call(base, 'POST', `/tenants/${companyId}/select`, token);
  return token;
}

let serial = 0;
const registration = () => ({
  documentType: 'DNI',
  documentNumber: String(70_000_000 + ++serial),
  givenNames: 'Rosa Elena',
  familyNames: 'Mamani Flores',
  sex: 'female',
  birthDate: '1958-03-14',
  admissionDate: '2024-06-01',
  etiology: 'hypertensive nephropathy',
  dryWeightKg: 61.5,
});

describe('kill -9 under registrations, then a restart', function () {
  this.timeout(240_000);
  let dir: string;
  let child: ChildProcess | null = null;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crash-restart-writes-'))));
  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers every write, says on /ready why writes are held, and takes 50 registrations at once after the first', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = startService(dir, port);
    await until('first start ready', async () => {
      if (child!.exitCode !== null) throw new Error('the service exited at its first start');
      return (await call(base, 'GET', '/ready'))?.status === 200 ? true : null;
    });
    const token = await signIn(base);
    const acknowledged: string[] = [];
    let killed = false;
    const writers = Array.from({ length: 4 }, async () => {
      while (!killed) {
        const answer = await call(base, 'POST', '/pacientes', token, registration()).catch(() => null);
        if (answer?.status === 201) acknowledged.push(answer.body.id as string);
        if (acknowledged.length >= 40 && !killed) {
          killed = true;
          child!.kill('SIGKILL');
        }
      }
    });
    await Promise.all(writers);
    await exited(child);

    for (const trusted of [false, true]) {
      if (!trusted) {
        // Swapped for a copy (another inode, as a restore would leave): not trusted, so appends wait for the check.
        const file = path.join(dir, 'events.sqlite');
        fs.copyFileSync(file, `${file}.copy`);
        fs.renameSync(`${file}.copy`, file);
      }
      child = startService(dir, port);
      const notReady: Record<string, unknown>[] = [];
      const held: Answer[] = [];
      let ready = false;
      const watchReady = (async () => {
        while (!ready) {
          const answer = await call(base, 'GET', '/ready');
          if (answer?.status === 503) notReady.push(answer.body.checks as Record<string, unknown>);
          if (answer?.status === 200) ready = true;
          await new Promise((r) => setTimeout(r, 25));
        }
      })();
      const first = await until('the first registration after the restart', async () => {
        const answer = await call(base, 'POST', '/pacientes', token, registration());
        if (answer === null) return null;
        if (answer.status === 201) return answer;
        assert.equal(answer.status, 503, `a write answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        held.push(answer);
        return null;
      });
      acknowledged.push(first.body.id as string);
      const burst = await Promise.all(Array.from({ length: 50 }, () => call(base, 'POST', '/pacientes', token, registration())));
      assert.deepEqual(
        burst.map((a) => a?.status),
        Array.from({ length: 50 }, () => 201),
      );
      acknowledged.push(...burst.map((a) => a!.body.id as string));
      await watchReady;

      for (const answer of held) {
        assert.equal(answer.body.type, '/problems/writes-held');
        assert.match(answer.headers.get('content-type') ?? '', /application\/problem\+json/);
        assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
      }
      for (const checks of notReady) {
        const why = checks.writes === 'held' || checks.reconciliation === 'running' || checks.projections === 'behind';
        assert.ok(why, `/ready answered 503 without a reason: ${JSON.stringify(checks)}`);
      }
      if (trusted) {
        assert.equal(held.length, 0, 'the killed run had verified the log: no write is held');
      } else {
        assert.ok(held.length > 0, 'writes were held while the swapped file was checked');
        assert.ok(
          notReady.some((c) => c.writes === 'held' && c.integrityCheck === 'running'),
          `/ready said the check holds writes: ${JSON.stringify(notReady)}`,
        );
      }
      const projections = (await call(base, 'GET', '/ready'))!.body.projections as { state: string }[];
      assert.ok(
        projections.every((p) => p.state !== 'standby'),
        'the restart projects (the lease of the killed process was released)',
      );
      if (!trusted) {
        child.kill('SIGKILL');
        await exited(child);
      }
    }
    for (const id of acknowledged) assert.equal((await call(base, 'GET', `/pacientes/${id}`, token))!.status, 200, `patient ${id}`);
    child.kill('SIGTERM');
    await exited(child);
  });
});
