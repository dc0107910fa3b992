// One projector at a time on a shared read store, for every reachable (event store x read store) pair: a second
// runner stands by (it writes nothing, serves reads of the projector's documents and follows its checkpoints), takes
// over from the checkpoint when the projector stops or its lease expires, and never drops what the projector serves.
import assert from 'node:assert/strict';
import { streamName, type AppendResult, type EventStore } from '../../src/stores/eventStore.js';
import type { ReadStore } from '../../src/stores/readStore.js';
import type { Projection } from '../../src/projections/runner/projection.js';
import { createProjectionRunner } from '../../src/projections/runner/projectionRunner.js';
import type { ProjectionRunner, ProjectionStatus } from '../../src/projections/runner/runnerTypes.js';
import { acquireLease } from '../../src/stores/leases.js';
import { eventStoreImplementations, readStoreImplementations, type OpenedReadStore } from '../support/storeImplementations.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';
import { STATS, recordingLogger, snapshotOf, statsProjection } from '../support/projectionFixtures.js';

const LEASE = { ttlMs: 60_000, renewMs: 10 };

for (const eventImplementation of eventStoreImplementations()) {
  for (const readImplementation of readStoreImplementations()) {
    describe(`Projector lease: ${eventImplementation.name} events x ${readImplementation.name} reads`, function () {
      const cleanups: Array<() => Promise<void>> = [];
      let events: EventStore;
      let reads: OpenedReadStore;
      let tenant: string;
      let clockMs: number;
      const now = () => new Date(clockMs);

      beforeEach(async function () {
        const eventImpl = eventStoreImplementations().find((i) => i.name === eventImplementation.name)!;
        events = await eventImpl.open();
        cleanups.push(() => eventImpl.cleanup());
        reads = await readImplementation.open();
        cleanups.push(() => reads.dispose());
        tenant = uniqueTenant();
        clockMs = Date.parse('2026-11-22T10:00:00.000Z');
      });
      afterEach(async function () {
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      });

      const append = (stream: string): Promise<AppendResult> =>
        events.appendToStream(streamName(tenant, 'counter', stream), [newEvent(tenant, { item: stream }, 'ItemAdded')], {
          expectedRevision: 'any',
        });

      function runnerOver(readStore: ReadStore, holder: string, projection: Projection): ProjectionRunner {
        const runner = createProjectionRunner({
          events,
          reads: readStore,
          logger: recordingLogger(),
          now,
          lease: { ...LEASE, holder },
          standbyFollowMs: 10,
        });
        runner.register(projection);
        cleanups.push(() => runner.stop());
        return runner;
      }

      async function stateOf(runner: ProjectionRunner): Promise<ProjectionStatus['state']> {
        return (await runner.status()).find((s) => s.name === STATS)!.state;
      }

      async function waitForState(runner: ProjectionRunner, state: ProjectionStatus['state']): Promise<void> {
        let current = await stateOf(runner);
        const deadline = Date.now() + 30_000;
        while (current !== state) {
          if (Date.now() > deadline) assert.fail(`timed out waiting for ${state} (still ${current})`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          current = await stateOf(runner);
        }
      }

      it('lets one runner project while a second one on the same read store stands by, serving reads and waits', async function () {
        const projectorCalls = { n: 0 };
        const standbyCalls = { n: 0 };
        const projector = runnerOver(reads.store, 'first', statsProjection(tenant, { calls: projectorCalls }));
        await projector.start();
        const standby = runnerOver(await reads.reopen(), 'second', statsProjection(tenant, { calls: standbyCalls }));
        await standby.start();
        assert.equal(await stateOf(projector), 'live');
        assert.equal(await stateOf(standby), 'standby');

        await append('s0');
        await append('s1');
        const last = await append('s0');
        assert.equal(await standby.waitFor(last.position, { timeoutMs: 30_000 }), true, 'the standby follows the projector');
        assert.equal((await snapshotOf(standby, tenant)).totals?.events, 3, 'and reads its documents');
        assert.equal(projectorCalls.n, 3);
        assert.equal(standbyCalls.n, 0, 'the standby handled (and wrote) nothing');
      });

      it("ends a standby's wait on events the projection skips, once the projector persisted its checkpoint past them", async function () {
        const projector = runnerOver(reads.store, 'first', statsProjection(tenant));
        await projector.start();
        const standby = runnerOver(await reads.reopen(), 'second', statsProjection(tenant));
        await standby.start();
        await standby.waitFor((await append('s0')).position, { timeoutMs: 30_000 });
        // Another tenant's event: the projection applies it without writing a document.
        const skipped = await events.appendToStream(
          streamName(uniqueTenant(), 'counter', 'x'),
          [newEvent(tenant, { item: 'x' }, 'ItemAdded')],
          {
            expectedRevision: 'any',
          },
        );
        assert.equal(await standby.waitFor(skipped.position, { timeoutMs: 30_000 }), true);
      });

      it('takes over from the checkpoint once the projector stops', async function () {
        const standbyCalls = { n: 0 };
        const projector = runnerOver(reads.store, 'first', statsProjection(tenant));
        await projector.start();
        const standby = runnerOver(await reads.reopen(), 'second', statsProjection(tenant, { calls: standbyCalls }));
        await standby.start();
        await append('s0');
        assert.equal(await projector.waitFor((await append('s1')).position, { timeoutMs: 30_000 }), true);

        await projector.stop(); // gives the lease up
        await waitForState(standby, 'live');
        const written = await append('s2');
        assert.equal(await standby.waitFor(written.position, { timeoutMs: 30_000 }), true);
        assert.equal((await snapshotOf(standby, tenant)).totals?.events, 3);
        assert.equal(standbyCalls.n, 1, 'it resumed from the checkpoint, not from the start of the log');
      });

      it('waits for the lease of an unresponsive projector to expire before projecting', async function () {
        assert.equal(await acquireLease(reads.store, { name: 'projector', holder: 'gone', nowMs: clockMs, ttlMs: 60_000 }), true);
        const written = await append('s0');
        const standby = runnerOver(reads.store, 'second', statsProjection(tenant));
        await standby.start();
        assert.equal(await stateOf(standby), 'standby');
        assert.equal(await standby.waitFor(written.position, { timeoutMs: 50 }), false, 'nobody projects yet');

        clockMs += 60_001;
        await waitForState(standby, 'live');
        assert.equal(await standby.waitFor(written.position, { timeoutMs: 30_000 }), true);
        assert.equal((await snapshotOf(standby, tenant)).totals?.events, 1);
      });

      it('does not drop the collections the projector serves when a runner of a newer version stands by', async function () {
        const projector = runnerOver(reads.store, 'old', statsProjection(tenant));
        await projector.start();
        await projector.waitFor((await append('s0')).position, { timeoutMs: 30_000 });
        const newer = runnerOver(await reads.reopen(), 'new', statsProjection(tenant, { version: 2 }));
        await newer.start();
        assert.equal(await stateOf(newer), 'standby');
        assert.ok((await reads.store.listCollections()).includes('streams_v1'));
        assert.equal((await snapshotOf(projector, tenant)).totals?.events, 1, 'the projector still serves its documents');

        await projector.stop();
        await waitForState(newer, 'live');
        assert.equal(newer.collection(STATS, 'streams').name, 'streams_v2', 'the new projector rebuilt its version');
        assert.equal((await snapshotOf(newer, tenant)).totals?.events, 1);
        assert.ok(!(await reads.store.listCollections()).includes('streams_v1'), 'and retired the old one');
      });
    });
  }
}
