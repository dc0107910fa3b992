// Projections that heal, for every reachable (event store x read store) pair: a dropped subscription and a read store
// that refuses reads and writes for a while are retried from the checkpoint with backoff, losing and doubling
// nothing; read-your-writes waits wait for the healing; a checkpoint taken from another event store, or ahead of the
// head of a log restored from a backup, is rebuilt instead of skipping new events forever.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { streamName, type AppendResult, type EventStore } from '../../src/stores/eventStore.js';
import type { ReadStore } from '../../src/stores/readStore.js';
import type { Projection } from '../../src/projections/runner/projection.js';
import { createProjectionRunner } from '../../src/projections/runner/projectionRunner.js';
import type { ProjectionRunner, ProjectionStatus } from '../../src/projections/runner/runnerTypes.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { eventStoreImplementations, readStoreImplementations, type OpenedReadStore } from '../support/storeImplementations.js';
import { newEvent, uniqueTenant, waitUntil } from '../support/eventFixtures.js';
import { STATS, recordingLogger, snapshotOf, statsProjection } from '../support/projectionFixtures.js';
import { faultyEventStore, faultyReadStore } from '../support/faultyStores.js';

const FAST_RETRY = { initialMs: 5, maxMs: 40 };

for (const eventImplementation of eventStoreImplementations()) {
  for (const readImplementation of readStoreImplementations()) {
    describe(`Projection recovery: ${eventImplementation.name} events x ${readImplementation.name} reads`, function () {
      const cleanups: Array<() => Promise<void>> = [];
      let events: EventStore;
      let reads: OpenedReadStore;
      let tenant: string;
      let logger: ReturnType<typeof recordingLogger>;

      beforeEach(async function () {
        const eventImpl = eventStoreImplementations().find((i) => i.name === eventImplementation.name)!;
        events = await eventImpl.open();
        cleanups.push(() => eventImpl.cleanup());
        reads = await readImplementation.open();
        cleanups.push(() => reads.dispose());
        tenant = uniqueTenant();
        logger = recordingLogger();
      });
      afterEach(async function () {
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      });

      const appendTo = (store: EventStore, stream: string, data: Record<string, unknown> = {}): Promise<AppendResult> =>
        store.appendToStream(streamName(tenant, 'counter', stream), [newEvent(tenant, { item: stream, ...data }, 'ItemAdded')], {
          expectedRevision: 'any',
        });

      function runnerOver(eventStore: EventStore, readStore: ReadStore, ...projections: Projection[]): ProjectionRunner {
        const runner = createProjectionRunner({ events: eventStore, reads: readStore, logger, batchSize: 3, retry: FAST_RETRY });
        for (const projection of projections) runner.register(projection);
        cleanups.push(() => runner.stop());
        return runner;
      }

      /** Another log: a fresh SQLite file (whatever the implementation under test). */
      async function openOtherStore(): Promise<EventStore> {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'projections-other-store-'));
        const other = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollMs: 50 });
        cleanups.push(async () => {
          await other.close();
          fs.rmSync(dir, { recursive: true, force: true });
        });
        return other;
      }

      const statusOf = async (runner: ProjectionRunner): Promise<ProjectionStatus> =>
        (await runner.status()).find((s) => s.name === STATS)!;

      async function waitForStatus(runner: ProjectionRunner, what: string, test: (s: ProjectionStatus) => boolean): Promise<void> {
        let last: ProjectionStatus | null = null;
        const deadline = Date.now() + 30_000;
        while (!(last && test(last))) {
          if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
          last = await statusOf(runner);
          if (!test(last)) await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }

      it('resubscribes from its checkpoint after the event store drops its subscription', async function () {
        const faulty = faultyEventStore(events);
        const runner = runnerOver(faulty.store, reads.store, statsProjection(tenant));
        await runner.start();
        assert.equal(await runner.waitFor((await appendTo(events, 's0')).position, { timeoutMs: 30_000 }), true);

        await faulty.faults.dropSubscriptions();
        await appendTo(events, 's1');
        const last = await appendTo(events, 's2');
        assert.equal(await runner.waitFor(last.position, { timeoutMs: 30_000 }), true, 'the events after the drop are applied');
        assert.equal((await snapshotOf(runner, tenant)).totals?.events, 3, 'each event exactly once');
        assert.ok(faulty.faults.subscriptions >= 2, 'it subscribed again');
        const status = await statusOf(runner);
        assert.equal(status.state, 'live');
        assert.equal(status.failedSince, undefined);
        assert.ok(logger.lines.some((l) => l.level === 'info' && l.msg === 'projection recovered'));
      });

      it('retries read-store failures with growing delays, then resumes from its checkpoint without losing or doubling', async function () {
        const faulty = faultyReadStore(reads.store);
        const runner = runnerOver(events, faulty.store, statsProjection(tenant));
        await runner.start();
        assert.equal(await runner.waitFor((await appendTo(events, 's0')).position, { timeoutMs: 30_000 }), true);

        faulty.faults.writesDown = true;
        faulty.faults.readsDown = true; // handlers read documents too: a store error under a handler is no poison event
        for (let i = 1; i <= 4; i++) await appendTo(events, `s${i % 2}`);
        const last = await appendTo(events, 's9');
        await waitForStatus(runner, 'a second failed attempt', (s) => s.state === 'failed' && (s.retry?.attempts ?? 0) >= 3);
        const failing = await statusOf(runner);
        assert.ok(failing.failedSince && failing.error, 'the failure is shown');
        assert.ok(failing.retry?.nextAttemptAt);
        faulty.faults.writesDown = false;
        faulty.faults.readsDown = false;

        assert.equal(await runner.waitFor(last.position, { timeoutMs: 30_000 }), true);
        const snapshot = await snapshotOf(runner, tenant);
        assert.equal(snapshot.totals?.events, 6);
        assert.deepEqual(
          snapshot.streams.map((d) => [d.id.split('-')[1], d.count]),
          [
            ['s0', 3],
            ['s1', 2],
            ['s9', 1],
          ],
        );
        const healed = await statusOf(runner);
        assert.equal(healed.state, 'live');
        assert.deepEqual([healed.failedSince, healed.retry, healed.error, healed.parked], [undefined, undefined, undefined, []]);
      });

      it('waits, without a projection list, for a failing projection to heal instead of answering at once', async function () {
        const faulty = faultyReadStore(reads.store);
        const runner = runnerOver(events, faulty.store, statsProjection(tenant));
        await runner.start();
        faulty.faults.writesDown = true;
        const written = await appendTo(events, 's0');
        await waitForStatus(runner, 'the failure', (s) => s.state === 'failed');
        const waiting = runner.waitFor(written.position, { timeoutMs: 30_000 });
        let answer: boolean | null = null;
        void waiting.then((reached) => (answer = reached));
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(answer, null, 'no answer while the projection has not applied the write');
        await waitForStatus(runner, 'another failed attempt', (s) => (s.retry?.attempts ?? 0) >= 2);
        assert.equal(answer, null, 'still waiting through the retries');
        faulty.faults.writesDown = false;
        assert.equal(await waiting, true);
        assert.equal((await snapshotOf(runner, tenant)).totals?.events, 1, 'the write is readable once the wait says so');
      });

      it('retries a write that failed during the start-up catch-up, once the start is over', async function () {
        for (let i = 0; i < 10; i++) await appendTo(events, `s${i % 4}`);
        const faulty = faultyReadStore(reads.store);
        faulty.faults.failBulkWrites = 2;
        const runner = runnerOver(events, faulty.store, statsProjection(tenant));
        await runner.start();
        assert.equal(await runner.waitFor(await events.headPosition(), { timeoutMs: 30_000 }), true);
        assert.equal((await snapshotOf(runner, tenant)).totals?.events, 10);
        assert.equal(faulty.faults.failBulkWrites, 0);
        assert.equal((await statusOf(runner)).state, 'live');
      });

      it('retries a failing catch-up read of the log', async function () {
        for (let i = 0; i < 5; i++) await appendTo(events, `s${i}`);
        const faulty = faultyEventStore(events);
        const runner = runnerOver(faulty.store, reads.store, statsProjection(tenant));
        await runner.start();
        faulty.faults.failReadAll = 2; // the recovery's catch-up fails twice
        // s9 lands while no subscription delivers: the recovery must read it (a recovery at the head reads nothing).
        let last!: Awaited<ReturnType<typeof appendTo>>;
        await faulty.faults.dropSubscriptions(async () => void (last = await appendTo(events, 's9')));
        assert.equal(await runner.waitFor(last.position, { timeoutMs: 30_000 }), true);
        assert.equal((await snapshotOf(runner, tenant)).totals?.events, 6);
        assert.equal(faulty.faults.failReadAll, 0);
      });

      it('rebuilds, instead of resuming, over another event store than its checkpoint was taken from', async function () {
        for (let i = 0; i < 5; i++) await appendTo(events, `s${i}`);
        const first = runnerOver(events, reads.store, statsProjection(tenant));
        await first.start();
        await first.stop();

        const other = await openOtherStore();
        await appendTo(other, 'x0');
        const second = runnerOver(other, await reads.reopen(), statsProjection(tenant));
        await second.start();
        const written = await appendTo(other, 'x1');
        assert.equal(await second.waitFor(written.position, { timeoutMs: 30_000 }), true);
        const snapshot = await snapshotOf(second, tenant);
        assert.equal(snapshot.totals?.events, 2, 'only the events of the store it now reads');
        assert.deepEqual(
          snapshot.streams.map((d) => d.id.split('-')[1]),
          ['x0', 'x1'],
        );
        assert.ok(logger.lines.some((l) => l.level === 'warn' && l.projection === STATS && l.storeChanged === true));
      });

      it('rebuilds, instead of resuming, when the store it reconnects to after a dropped subscription is another', async function () {
        for (let i = 0; i < 5; i++) await appendTo(events, `s${i}`);
        const faulty = faultyEventStore(events);
        const runner = runnerOver(faulty.store, reads.store, statsProjection(tenant));
        await runner.start();
        const other = await openOtherStore();
        await appendTo(other, 'x0');
        faulty.faults.replaceWith(other);
        await faulty.faults.dropSubscriptions();
        // Until it reconnects, nothing tells the runner that positions now belong to another log.
        await waitUntil(() => logger.lines.some((l) => l.level === 'warn' && l.storeChanged === true), 'the store change noticed');
        const written = await appendTo(other, 'x1');
        assert.equal(await runner.waitFor(written.position, { timeoutMs: 30_000 }), true);
        assert.deepEqual(
          (await snapshotOf(runner, tenant)).streams.map((d) => d.id.split('-')[1]),
          ['x0', 'x1'],
        );
      });

      it('rebuilds, instead of skipping new events, when its checkpoint is ahead of a log restored from a backup', async function () {
        if (eventImplementation.name !== 'sqlite') this.skip(); // a file restore; the rule itself is the runner's
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'projections-restore-'));
        const file = path.join(dir, 'events.sqlite');
        cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
        let log = await openSqliteEventStore({ file, pollMs: 50 });
        for (let i = 0; i < 3; i++) await appendTo(log, `s${i}`);
        await log.close();
        fs.copyFileSync(file, `${file}.backup`);

        log = await openSqliteEventStore({ file, pollMs: 50 });
        const first = runnerOver(log, reads.store, statsProjection(tenant));
        await first.start();
        for (let i = 3; i < 6; i++) await appendTo(log, `s${i}`);
        assert.equal(await first.waitFor(await log.headPosition(), { timeoutMs: 30_000 }), true);
        await first.stop();
        await log.close();

        // The restore: the log loses its last three events (and any WAL left beside it must not replay them).
        for (const sibling of [`${file}-wal`, `${file}-shm`]) fs.rmSync(sibling, { force: true });
        fs.copyFileSync(`${file}.backup`, file);
        const restored = await openSqliteEventStore({ file, pollMs: 50 });
        cleanups.push(() => restored.close());
        const second = runnerOver(restored, await reads.reopen(), statsProjection(tenant));
        await second.start();
        const written = await appendTo(restored, 'new');
        assert.equal(await second.waitFor(written.position, { timeoutMs: 30_000 }), true);
        const snapshot = await snapshotOf(second, tenant);
        assert.equal(snapshot.totals?.events, 4, 'the restored three and the new one');
        assert.deepEqual(
          snapshot.streams.map((d) => d.id.split('-')[1]),
          ['new', 's0', 's1', 's2'],
        );
        assert.ok(logger.lines.some((l) => l.level === 'warn' && l.projection === STATS && l.storeChanged === false));
      });
    });
  }
}
