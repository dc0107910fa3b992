// Process managers react only once the services they are handed exist: a start over a log with events used to hand
// the first reactions a null services object (the managers started before the services were assembled), logged as
// "process manager stopped; retrying from its checkpoint" on every start of a service with company events.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { registeredGroups } from '../../src/http/groups.js';
import type { GroupModule } from '../../src/http/groupModule.js';
import type { AppServices } from '../../src/services.js';
import { startTestServer } from '../support/harness.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';

describe('process managers at start', () => {
  it('hand every reaction the assembled services, also for events already in the log at start', async function () {
    this.timeout(60_000);
    const handed: (AppServices | null)[] = [];
    const watcher: GroupModule = {
      tag: 'ProcessWatch',
      description: 'test only',
      permissions: [],
      routes: [],
      projections: [],
      processes: [
        {
          name: 'process-watch',
          eventTypes: ['SomethingRecorded'],
          react: (_event, services: AppServices) => {
            handed.push(services ?? null);
            return Promise.resolve();
          },
        },
      ],
    };
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'process-start-'));
    const first = await startTestServer({ dataDir });
    const tenant = uniqueTenant();
    const appended = await first.services.events.appendToStream(`${tenant}.watched-1`, [newEvent(tenant)], {
      expectedRevision: 'no_stream',
    });
    await first.close();
    const again = await startTestServer({ dataDir, groups: [...registeredGroups(), watcher] });
    try {
      assert.ok(await again.services.processes.waitFor(appended.position), 'the watcher reached the event');
      assert.equal(handed.length, 1);
      assert.notEqual(handed[0], null, 'the reaction got the services');
    } finally {
      await again.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
