// The event log and the read models hold patient data and password hashes, and DATA_DIR holds the keys: nobody but the service's
// user may read them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadOrCreateKeyFile } from '../../src/auth/keyFiles.js';
import { streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { openSqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';

const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;

describe('DATA_DIR permissions', () => {
  let parent: string;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'modes-'));
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('creates DATA_DIR 0700 and the event log with its WAL and shared-memory files 0600', async () => {
    const dataDir = path.join(parent, 'data');
    const file = path.join(dataDir, 'events.sqlite');
    const store = await openSqliteEventStore({ file });
    try {
      const tenant = uniqueTenant();
      await store.appendToStream(streamName(tenant, 'patient', 'p1'), [newEvent(tenant)], { expectedRevision: 'no_stream' });
      assert.equal(modeOf(dataDir).toString(8), '700');
      for (const name of ['events.sqlite', 'events.sqlite-wal', 'events.sqlite-shm']) {
        assert.equal(modeOf(path.join(dataDir, name)).toString(8), '600', name);
      }
    } finally {
      await store.close();
    }
  });

  it('tightens an existing event log that was left readable by others', async () => {
    const file = path.join(parent, 'events.sqlite');
    await (await openSqliteEventStore({ file })).close();
    fs.chmodSync(file, 0o644);
    const store = await openSqliteEventStore({ file });
    await store.close();
    assert.equal(modeOf(file).toString(8), '600');
  });

  it('creates the read models file (patient data too) with its WAL and shared-memory files 0600, and tightens it', async () => {
    const dataDir = path.join(parent, 'reads');
    const file = path.join(dataDir, 'readmodels.sqlite');
    let store = await openSqliteReadStore({ file });
    await (await store.collection('patients_v1')).replace({ tenantId: 'clinic', id: 'p1', name: 'María' });
    assert.equal(modeOf(dataDir).toString(8), '700');
    for (const name of ['readmodels.sqlite', 'readmodels.sqlite-wal', 'readmodels.sqlite-shm']) {
      assert.equal(modeOf(path.join(dataDir, name)).toString(8), '600', name);
    }
    await store.close();
    fs.chmodSync(file, 0o644);
    store = await openSqliteReadStore({ file });
    await store.close();
    assert.equal(modeOf(file).toString(8), '600');
  });

  it('creates key files 0600 in a DATA_DIR it creates 0700', async () => {
    const dataDir = path.join(parent, 'keys');
    await loadOrCreateKeyFile(dataDir, 'jwt.key', 32);
    assert.equal(modeOf(dataDir).toString(8), '700');
    assert.equal(modeOf(path.join(dataDir, 'jwt.key')).toString(8), '600');
  });
});
