// Writes first on the real service (issue 29): while a registration waits for its fsync (held through the store's
// test-only syncWal), reads queue behind it yet keep being answered; once the flush is let go the registration
// answers 201 and a read at its position shows it. Nothing is skipped or lost by the queue.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expectStatus, registration, startPacientesWorld, type PacientesWorld } from './pacientesWorld.js';
import { fdatasyncOnThreadpool, type SyncWal } from '../../src/stores/sqlite/walDurability.js';
import { accessLine, captureLogs } from './capturedLogs.js';

/** The real fdatasync, except while held: then each flush waits for `release()` before it begins. */
function holdableSync(): { syncWal: SyncWal; hold(): void; release(): void; held: () => number } {
  let gate: Promise<void> | null = null;
  let open = () => undefined as void;
  let held = 0;
  return {
    syncWal: async (fd) => {
      if (gate) {
        held++;
        await gate;
      }
      return fdatasyncOnThreadpool(fd);
    },
    hold: () => void (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => {
      gate = null;
      open();
    },
    held: () => held,
  };
}

function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} (${ms} ms)`)), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe('writes first on the real service', function () {
  this.timeout(120_000);
  let dir: string;
  let world: PacientesWorld | undefined;
  let logs: ReturnType<typeof captureLogs>;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'writes-first-'));
    logs = captureLogs();
  });
  after(async () => {
    await world?.close();
    logs.restore();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('answers every read while a registration waits for its flush, then the registration and a read at its position', async () => {
    const sync = holdableSync();
    world = await startPacientesWorld({ dataDir: dir, eventStoreTestHooks: { syncWal: sync.syncWal }, logLevel: 'info' });
    const w = world;
    for (let i = 0; i < 3; i++) await w.register(w.a);

    sync.hold();
    const pending = w.call(w.a, 'POST', '/pacientes', { json: registration({ givenNames: 'Aurelia' }) });
    for (let until = Date.now() + 10_000; sync.held() === 0; await new Promise((r) => setTimeout(r, 5)))
      if (Date.now() > until) throw new Error('the registration never reached its flush');
    // The write is in flight: these reads go through the queue, a budget of each turn, and are all answered.
    const reads = await within(
      20_000,
      Promise.all(Array.from({ length: 30 }, () => w.call(w.a, 'GET', '/pacientes?limit=50'))),
      'reads stalled behind a registration waiting for its flush',
    );
    for (const read of reads) expectStatus(read, 200);
    assert.ok(
      reads.every((r) => (r.body.items as { givenNames: string }[]).every((p) => p.givenNames !== 'Aurelia')),
      'no read shows the registration before it is durable',
    );

    sync.release();
    const written = expectStatus(await pending, 201);
    const position = written.headers.get('x-event-position');
    assert.ok(position, 'the registration carries its consistency token');
    const after = expectStatus(await w.call(w.a, 'GET', `/pacientes?limit=50&minPosition=${encodeURIComponent(position)}`), 200);
    assert.ok((after.body.items as { id: string }[]).some((p) => p.id === written.body.id));
    // Metrics and the access log time a queued read from its arrival, and say how long it waited.
    const lastRead = await accessLine(logs.lines, reads[reads.length - 1]!.headers.get('x-request-id')!);
    assert.equal(typeof lastRead.queuedMs, 'number', 'a read held behind the write says how long it waited');
    assert.ok((lastRead.durationMs as number) >= (lastRead.queuedMs as number), 'its duration includes the wait');
  });
});
