// A failing fsync of the event log (injected through the store's test-only syncWal, under the real service):
// fail-stop. The write whose flush failed is never acknowledged (503 problem+json, not 201 nor 500), the store
// takes no further write and the service stops itself; after a restart the file is sound, nothing acknowledged is
// lost and writes go on. After a failed fsync the page cache is unknown (PostgreSQL's fsyncgate): no retry.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expectStatus, registration, startPacientesWorld, type Answer, type PacientesWorld } from '../http/pacientesWorld.js';
import { fdatasyncOnThreadpool, type SyncWal } from '../../src/stores/sqlite/walDurability.js';
import { backgroundIntegrityOf } from '../../src/stores/sqlite/integrityCheck.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { integrityCheck, verifyChain } from '../support/logSoundness.js';

/** The real fdatasync until `failFromNow()`; from then on each call fails with EIO, as a dying disk would. */
function breakableSync(): { syncWal: SyncWal; failFromNow(): void; failures: number } {
  const state = { failing: false, failures: 0 };
  return {
    syncWal: (fd) => {
      if (!state.failing) return fdatasyncOnThreadpool(fd);
      state.failures++;
      return Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    },
    failFromNow: () => void (state.failing = true),
    get failures() {
      return state.failures;
    },
  };
}

/** An answer, or the network error of a service that has closed its port. */
async function attempt(world: PacientesWorld, json: unknown): Promise<Answer | 'refused'> {
  try {
    return await world.call(world.a, 'POST', '/pacientes', { json });
  } catch {
    return 'refused';
  }
}

describe('a failing fsync of the event log', function () {
  this.timeout(120_000);
  let dir: string;
  let world: PacientesWorld | undefined;
  let server: TestServer | undefined;
  before(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fsync-fail-'))));
  after(async () => {
    await world?.close().catch(() => undefined);
    await server?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('refuses the write whose flush failed and every later one, stops, and restarts on a sound file', async () => {
    const sync = breakableSync();
    world = await startPacientesWorld({ dataDir: dir, eventStoreTestHooks: { syncWal: sync.syncWal } });
    const acknowledged = [(await world.register(world.a)).body.id as string, (await world.register(world.a)).body.id as string];

    sync.failFromNow();
    const lost = registration();
    const failed = await attempt(world, lost);
    assert.notEqual(failed, 'refused', 'the write in flight gets an answer');
    const answer = failed as Answer;
    expectStatus(answer, 503, 'event-store-stopped');
    assert.match(answer.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(answer.body.detail as string, /restart/);
    assert.ok(sync.failures >= 1);

    // Fail-stop: no later write is acknowledged, whether the port still answers (503) or is already closed.
    const later = await Promise.all(Array.from({ length: 4 }, () => attempt(world!, registration())));
    for (const a of later) if (a !== 'refused') expectStatus(a, 503, 'event-store-stopped');
    const stopped = await backgroundIntegrityOf(world.server.services.events)!.stopped;
    assert.match(stopped.message, /fdatasync failed \(EIO\)/);
    await world.close();
    world = undefined;

    assert.deepEqual(integrityCheck(path.join(dir, 'events.sqlite')), ['ok']);
    // A later clock: a TOTP code is accepted once per user ever.
    server = await startTestServer({ dataDir: dir, startAt: new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 10 * 60_000) });
    const token = await server.signInAndSelect(server.admin);
    for (const id of acknowledged) assert.equal((await server.request('GET', `/pacientes/${id}`, { token })).status, 200, id);
    // The refused write may be on disk or not (its flush failed, not its commit): either way it was never
    // acknowledged, and its retry answers once, without a duplicate (the document guard).
    const retried = await server.request('POST', '/pacientes', { token, body: lost });
    assert.ok([201, 409].includes(retried.status), `retry of the refused write: ${retried.status} ${JSON.stringify(retried.body)}`);
    assert.equal((await server.request('POST', '/pacientes', { token, body: registration() })).status, 201);
    assert.equal((await verifyChain(server, token)).state, 'intact');
  });
});
