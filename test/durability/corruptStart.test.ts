// The service itself (src/main.ts in a child process) over a log whose middle pages are damaged: the header and
// schema pass at open, the background integrity check (or the catch-up reading a damaged page) finds the damage,
// and the process exits 1 with a clear message, leaving the file byte for byte as it was.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { newEvent } from '../support/eventFixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

function runService(dataDir: string, projectionsThread: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main.ts')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        BOOTSTRAP_ADMIN_PASSWORD: 'corrupt-start-password-1',
        PROJECTIONS_THREAD: projectionsThread,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('the service over a corrupt event log', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-corrupt-start-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  // The projector thread meets the damaged page on its own connection; the main thread on the store's.
  for (const projectionsThread of ['worker', 'main'])
    it(`stops with exit code 1 and a clear message, and never writes into the file (PROJECTIONS_THREAD=${projectionsThread})`, async () => {
      const file = path.join(dir, 'events.sqlite');
      const store = await openSqliteEventStore({ file });
      for (let i = 0; i < 2000; i += 10) {
        await store.appendToStream(
          streamName('t1', 'patient', `p${i}`),
          Array.from({ length: 10 }, () => newEvent('t1', { text: 'x'.repeat(200) })),
          { expectedRevision: 'no_stream' },
        );
      }
      await store.close();
      const bytes = fs.readFileSync(file);
      const pageSize = bytes.readUInt16BE(16);
      const middle = Math.floor(bytes.length / pageSize / 2);
      bytes.fill(0xa5, pageSize * middle, pageSize * (middle + 2));
      fs.writeFileSync(file, bytes);

      const { code, stderr } = await runService(dir, projectionsThread);
      assert.equal(code, 1, stderr);
      assert.match(stderr, /The event store cannot be used: .*corrupt/);
      assert.ok(fs.readFileSync(file).equals(bytes), 'the file bytes are unchanged');
      assert.ok(!fs.existsSync(`${file}-wal`) || fs.statSync(`${file}-wal`).size === 0, 'nothing was written to a WAL');
    });
});
