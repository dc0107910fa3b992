// `ops backup <file>` into a folder that does not exist: refused before the service takes an archive (holding the
// keys) that would then be left behind in DATA_DIR/backups.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../support/harness.js';
import { runOps } from '../support/opsCli.js';

describe('ops backup into a missing folder', function () {
  this.timeout(60_000);
  it('exits 1 naming the folder, and no archive is taken or left in DATA_DIR/backups', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-ops-backup-target-'));
    const server = await startTestServer({ dataDir });
    try {
      const missing = path.join(dataDir, 'no-such-folder');
      const run = await runOps(dataDir, ['backup', path.join(missing, 'nightly.tar')]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stderr, new RegExp(`${missing}.*(not|no such)`));
      const left = await fs.readdir(path.join(dataDir, 'backups')).catch(() => [] as string[]);
      assert.deepEqual(left, [], 'no archive left behind');
    } finally {
      await server.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
