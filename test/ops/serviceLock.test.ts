// One writer per data directory: the running service holds DATA_DIR/service.lock (with its URL) and a fresh operator
// token; another live holder stops a start, a dead one's lock is taken over; the token reaches platform routes only.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE, OPS_TOKEN_FILE } from '../../src/ops/serviceLock.js';
import { startTestServer } from '../support/harness.js';

describe('the data directory lock and the operator token', () => {
  let dataDir: string;
  beforeEach(async () => (dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-lock-'))));
  afterEach(async () => fs.rm(dataDir, { recursive: true, force: true }));

  const writeLock = (pid: number) =>
    fs.writeFile(
      path.join(dataDir, LOCK_FILE),
      JSON.stringify({ pid, hostname: os.hostname(), startedAt: new Date().toISOString(), url: 'http://127.0.0.1:1' }),
    );

  it('holds the lock with its URL and a 0600 token while running, accepts the token for platform routes only, and frees both at close', async () => {
    const server = await startTestServer({ dataDir });
    try {
      const lock = JSON.parse(await fs.readFile(path.join(dataDir, LOCK_FILE), 'utf8'));
      assert.equal(lock.pid, process.pid);
      assert.equal(lock.url, server.url);
      const tokenFile = path.join(dataDir, OPS_TOKEN_FILE);
      assert.equal((await fs.stat(tokenFile)).mode & 0o777, 0o600);
      const token = (await fs.readFile(tokenFile, 'utf8')).trim();
      const headers = { authorization: `Ops ${token}`, 'x-ops-user': 'alice' };
      assert.equal((await server.request('GET', '/sistema/proyecciones', { headers })).status, 200);
      assert.equal((await server.request('GET', '/pacientes', { headers })).status, 403, 'not a company route');
      assert.equal((await server.request('GET', '/auth/me', { headers })).status, 403, 'not a session route');
      const wrong = { authorization: `Ops ${'x'.repeat(43)}`, 'x-ops-user': 'alice' };
      assert.equal((await server.request('GET', '/sistema/proyecciones', { headers: wrong })).status, 401);
      await assert.rejects(startTestServer({ dataDir }), DataDirLockedError, 'a second service on the same directory');
    } finally {
      await server.close();
    }
    await assert.rejects(fs.stat(path.join(dataDir, LOCK_FILE)), /ENOENT/);
    await assert.rejects(fs.stat(path.join(dataDir, OPS_TOKEN_FILE)), /ENOENT/);
  });

  it('refuses to start while another live process holds the lock', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      await writeLock(holder.pid!);
      await assert.rejects(
        startTestServer({ dataDir }),
        (err: Error) => err instanceof DataDirLockedError && err.message.includes(String(holder.pid)),
      );
    } finally {
      holder.kill();
    }
  });

  it('takes over the lock of a process that died', async () => {
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => gone.once('exit', resolve));
    await writeLock(gone.pid!);
    const server = await startTestServer({ dataDir });
    try {
      const lock = JSON.parse(await fs.readFile(path.join(dataDir, LOCK_FILE), 'utf8'));
      assert.equal(lock.pid, process.pid);
    } finally {
      await server.close();
    }
  });
});
