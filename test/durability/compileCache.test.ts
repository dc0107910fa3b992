// The service's process keeps V8's compile cache in a directory of its own user that no one else may write to (cached
// code runs as the service), and does without it, starting all the same, when that directory is not private.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Starts src/main.ts with TMPDIR=`tmp`, waits for its 'listening' line, then stops it: whether it listened. */
function startAndStop(tmp: string, dataDir: string): Promise<boolean> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  env.BOOTSTRAP_ADMIN_PASSWORD = 'compile-cache-password-1';
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main.ts')], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let listened = false;
    child.stdout.on('data', (d) => {
      out += String(d);
      if (!listened && out.includes('"msg":"listening"')) child.kill('SIGTERM');
      listened ||= out.includes('"msg":"listening"');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(listened);
    });
  });
}

describe('the compile cache of the service process', function () {
  this.timeout(120_000);
  let tmp: string;
  const cacheDir = () => path.join(tmp, `dialysis-records-compile-cache-${process.getuid!()}`);
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('is kept in a directory only its user may enter', async () => {
    assert.ok(await startAndStop(tmp, path.join(tmp, 'data')), 'the service listened');
    const stat = fs.statSync(cacheDir());
    assert.equal(stat.mode & 0o777, 0o700);
    assert.ok(fs.readdirSync(cacheDir()).length > 0, 'Node made its cache in it');
  });

  it('is not used from a directory others may write to, and the service starts without it', async () => {
    fs.mkdirSync(cacheDir(), { mode: 0o700 });
    fs.chmodSync(cacheDir(), 0o777);
    assert.ok(await startAndStop(tmp, path.join(tmp, 'data')), 'the service listened');
    assert.deepEqual(fs.readdirSync(cacheDir()), []);
  });
});
