// PROJECTIONS_THREAD: auto (the default) runs the projections in the worker thread with the SQLite stores and on the
// main thread otherwise, without a word; worker where the thread cannot run warns; any other value stops the start.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import { openProjectionRunner } from '../../src/projectionRunnerChoice.js';
import { projectionThreadOf } from '../../src/projections/runner/threadedRunner.js';
import { openEventStore } from '../../src/stores/openEventStore.js';
import { openReadStore } from '../../src/stores/openReadStore.js';

describe('PROJECTIONS_THREAD', () => {
  it('is auto when unset or empty, and takes auto, main or worker', () => {
    assert.equal(loadConfig({}).projectionsThread, 'auto');
    assert.equal(loadConfig({ PROJECTIONS_THREAD: '' }).projectionsThread, 'auto');
    for (const value of ['auto', 'main', 'worker']) assert.equal(loadConfig({ PROJECTIONS_THREAD: value }).projectionsThread, value);
  });

  it('refuses any other value, naming the allowed ones', () => {
    for (const value of ['thread', 'Worker', 'true', '1'])
      assert.throws(() => loadConfig({ PROJECTIONS_THREAD: value }), /PROJECTIONS_THREAD must be auto\|main\|worker/, value);
  });

  describe('where the projections run', () => {
    let dataDir: string;
    beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'projections-thread-setting-'))));
    afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

    /** The runner the service would open with this environment (not started), and what it warned. */
    async function placed(env: NodeJS.ProcessEnv, customGroups = false): Promise<{ thread: boolean; warnings: string[] }> {
      const config = loadConfig({ ...env, DATA_DIR: dataDir });
      const warnings: string[] = [];
      const logger: Logger = { debug: () => {}, info: () => {}, warn: (msg) => warnings.push(msg), error: () => {} };
      const events = await openEventStore(config, logger);
      const reads = await openReadStore(config, logger);
      try {
        const runner = openProjectionRunner(config, { events, reads, logger }, customGroups);
        return { thread: projectionThreadOf(runner) !== null, warnings };
      } finally {
        await reads.close();
        await events.close();
      }
    }

    it('unset, with the SQLite stores: in the worker thread', async () => {
      assert.deepEqual(await placed({}), { thread: true, warnings: [] });
      assert.deepEqual(await placed({ PROJECTIONS_THREAD: 'auto' }), { thread: true, warnings: [] });
    });

    it("unset, where the thread cannot run (in-memory read store, a test's own groups): on the main thread, silently", async () => {
      assert.deepEqual(await placed({ READ_STORE: 'memory' }), { thread: false, warnings: [] });
      assert.deepEqual(await placed({}, true), { thread: false, warnings: [] });
    });

    it('main: on the main thread; worker: in the thread, or on the main thread with a warning where it cannot run', async () => {
      assert.deepEqual(await placed({ PROJECTIONS_THREAD: 'main' }), { thread: false, warnings: [] });
      assert.deepEqual(await placed({ PROJECTIONS_THREAD: 'worker' }), { thread: true, warnings: [] });
      for (const cannot of [
        await placed({ PROJECTIONS_THREAD: 'worker', READ_STORE: 'memory' }),
        await placed({ PROJECTIONS_THREAD: 'worker' }, true),
      ]) {
        assert.equal(cannot.thread, false);
        assert.equal(cannot.warnings.length, 1);
        assert.match(cannot.warnings[0]!, /PROJECTIONS_THREAD=worker needs the SQLite event and read stores/);
      }
    });
  });
});
