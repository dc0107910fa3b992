// Projection runner contract, run for every reachable (event store x read store) pair: catch-up then live,
// checkpoint resume, idempotent replays, rebuild, read-your-writes waits, failure isolation, versioning.
import assert from 'node:assert/strict';
import { streamName, type AppendResult, type EventStore } from '../../src/stores/eventStore.js';
import { PLATFORM_DOCS, type ReadStore } from '../../src/stores/readStore.js';
import type { Projection } from '../../src/projections/runner/projection.js';
import { createProjectionRunner } from '../../src/projections/runner/projectionRunner.js';
import type { ProjectionRunner, RebuildProgress } from '../../src/projections/runner/runnerTypes.js';
import { CHECKPOINTS_COLLECTION } from '../../src/projections/runner/checkpoints.js';
import type { Logger } from '../../src/logger.js';
import {
  eventStoreImplementations,
  readStoreImplementations,
  type EventStoreImplementation,
  type OpenedReadStore,
} from '../support/storeImplementations.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';
import { STATS, fragileProjection, snapshotOf, statsProjection, type TotalsDoc } from '../support/projectionFixtures.js';

const errorsLogged: Array<Record<string, unknown>> = [];
const quietLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error: (msg, fields) => void errorsLogged.push({ msg, ...fields }),
};

for (const eventImplementation of eventStoreImplementations()) {
  for (const readImplementation of readStoreImplementations()) {
    describe(`Projection runner contract: ${eventImplementation.name} events x ${readImplementation.name} reads`, function () {
      let eventImpl: EventStoreImplementation;
      let events: EventStore;
      let opened: OpenedReadStore[];
      let runners: ProjectionRunner[];
      let tenant: string;

      beforeEach(async function () {
        // A fresh implementation entry per test: SQLite gets its own file.
        eventImpl = eventStoreImplementations().find((i) => i.name === eventImplementation.name)!;
        events = await eventImpl.open();
        opened = [await readImplementation.open()];
        runners = [];
        tenant = uniqueTenant();
      });
      afterEach(async function () {
        for (const runner of runners) await runner.stop();
        for (const o of opened) await o.dispose();
        await eventImpl.cleanup();
      });

      const append = (stream: string, type: string, data: Record<string, unknown> = {}): Promise<AppendResult> =>
        events.appendToStream(streamName(tenant, 'counter', stream), [newEvent(tenant, data, type)], { expectedRevision: 'any' });

      async function appendHistory(streams: number, perStream: number): Promise<AppendResult> {
        let last: AppendResult | null = null;
        for (let i = 0; i < perStream; i++) {
          for (let s = 0; s < streams; s++) {
            last = await append(`s${s}`, i % 3 === 2 ? 'ItemRemoved' : 'ItemAdded', { item: `item${i - (i % 3 === 2 ? 1 : 0)}` });
            if (s === 0) await append(`s${s}`, 'NotCounted', { item: 'noise' });
          }
        }
        return last!;
      }

      function runnerOver(reads: ReadStore, ...projections: Projection[]): ProjectionRunner {
        const runner = createProjectionRunner({ events, reads, logger: quietLogger, batchSize: 7 });
        for (const projection of projections) runner.register(projection);
        runners.push(runner);
        return runner;
      }

      const snapshot = (runner: ProjectionRunner) => snapshotOf(runner, tenant);

      async function waitOrFail(runner: ProjectionRunner, position: bigint, projections?: string[]) {
        assert.equal(await runner.waitFor(position, { timeoutMs: 30_000, projections }), true, `projections reach ${position}`);
      }

      it('catches up with the history, then applies live events', async function () {
        await appendHistory(4, 6);
        const runner = runnerOver(opened[0]!.store, statsProjection(tenant));
        await runner.start();
        let state = await snapshot(runner);
        assert.equal(state.totals?.events, 24);
        assert.deepEqual(
          state.streams.map((d) => [d.id.split('-')[1], d.count, d.items]),
          [0, 1, 2, 3].map((s) => [`s${s}`, 6, ['item0', 'item3']]),
        );
        const [status] = await runner.status();
        assert.equal(status?.state, 'live');
        assert.ok(BigInt(status.checkpoint) >= (await events.headPosition(tenant)));

        await append('s1', 'ItemAdded', { item: 'late' });
        await append('s9', 'ItemAdded', { item: 'new stream' });
        const last = await append('s2', 'StreamClosed');
        await waitOrFail(runner, last.position);
        state = await snapshot(runner);
        assert.equal(state.totals?.events, 27);
        assert.equal(state.totals?.closed, 1);
        assert.deepEqual(
          state.streams.map((d) => `${d.id.split('-')[1]}:${d.count}`),
          ['s0:6', 's1:7', 's3:6', 's9:1'],
        );
        assert.deepEqual(state.streams.find((d) => d.id.endsWith('-s1'))?.items.at(-1), 'late');
      });

      it('resumes from its checkpoint after a restart without counting anything twice', async function () {
        await appendHistory(3, 4);
        const first = runnerOver(opened[0]!.store, statsProjection(tenant));
        await first.start();
        await waitOrFail(first, (await append('s0', 'ItemAdded', { item: 'live' })).position);
        await first.stop();
        const before = await snapshot(first);

        for (let i = 0; i < 5; i++) await append(`s${i % 2}`, 'ItemAdded', { item: `offline${i}` });
        const calls = { n: 0 };
        const second = runnerOver(await opened[0]!.reopen(), statsProjection(tenant, { calls }));
        await second.start();
        assert.equal(calls.n, 5, 'only the events appended while stopped are handled again');
        const after = await snapshot(second);
        assert.equal(after.totals?.events, (before.totals?.events ?? 0) + 5);
        assert.equal(after.streams.find((d) => d.id.endsWith('-s0'))?.count, before.streams.find((d) => d.id.endsWith('-s0'))!.count + 3);

        // Replaying the whole log into an empty store gives the very same documents.
        const fresh = await readImplementation.open();
        opened.push(fresh);
        const replayed = runnerOver(fresh.store, statsProjection(tenant));
        await replayed.start();
        assert.deepEqual(await snapshot(replayed), after);
      });

      it('changes nothing when events it already applied are delivered again', async function () {
        await appendHistory(3, 5);
        const first = runnerOver(opened[0]!.store, statsProjection(tenant));
        await first.start();
        await first.stop();
        const before = await snapshot(first);

        // Rewind the checkpoint: at-least-once delivery replays everything over the existing documents.
        const checkpoints = await opened[0]!.store.collection(CHECKPOINTS_COLLECTION);
        const rewound = await checkpoints.updateOne(PLATFORM_DOCS, { id: STATS }, { $set: { position: '0' } });
        assert.equal(rewound.matched, 1);
        const calls = { n: 0 };
        const again = runnerOver(await opened[0]!.reopen(), statsProjection(tenant, { calls }));
        await again.start();
        assert.equal(calls.n, 15, 'every event was delivered again');
        assert.deepEqual(await snapshot(again), before);
      });

      it('rebuilds into fresh collections with the same documents as live projection, reporting progress', async function () {
        const runner = runnerOver(opened[0]!.store, statsProjection(tenant));
        await runner.start();
        let last: AppendResult | null = null;
        for (let i = 0; i < 30; i++) last = await append(`s${i % 4}`, i % 5 === 4 ? 'ItemRemoved' : 'ItemAdded', { item: `item${i % 3}` });
        await waitOrFail(runner, last!.position);
        const live = await snapshot(runner);
        assert.equal(live.totals?.events, 30);
        assert.equal(runner.collection(STATS, 'streams').name, 'streams_v1');

        const progress: RebuildProgress[] = [];
        await runner.rebuild(STATS, (p) => progress.push(p));
        assert.deepEqual(await snapshot(runner), live);
        const final = progress.at(-1)!;
        assert.equal(final.projection, STATS);
        assert.ok(final.done >= 30, `done ${final.done}`);
        assert.equal(final.total, final.done);
        assert.equal(final.etaSeconds, 0);
        assert.ok(final.elapsedMs >= 0 && final.ratePerSecond >= 0);
        assert.equal(runner.collection(STATS, 'streams').name, 'streams_v1_r1');
        const names = await opened[0]!.store.listCollections();
        assert.ok(!names.includes('streams_v1') && !names.includes('totals_v1'), `old collections dropped: ${names.join(',')}`);

        const after = await append('s0', 'ItemAdded', { item: 'after rebuild' });
        await waitOrFail(runner, after.position);
        assert.equal((await snapshot(runner)).totals?.events, 31);
        await runner.rebuild(STATS);
        assert.equal(runner.collection(STATS, 'totals').name, 'totals_v1_r2');
        assert.equal((await snapshot(runner)).totals?.events, 31);
        const [status] = await runner.status();
        assert.equal(status?.state, 'live');
      });

      it('waits for a position: true once applied, false on timeout', async function () {
        const runner = runnerOver(opened[0]!.store, statsProjection(tenant));
        await runner.start();
        const written = await append('s0', 'ItemAdded', { item: 'x' });
        assert.equal(await runner.waitFor(written.position, { timeoutMs: 30_000 }), true);
        assert.equal((await snapshot(runner)).totals?.events, 1, 'the write is readable right after the wait');
        assert.equal(await runner.waitFor(written.position), true, 'an applied position answers at once');
        const never = (await events.headPosition()) + 10n ** 15n;
        assert.equal(await runner.waitFor(never, { timeoutMs: 150 }), false);
      });

      it('parks only the tenant of a poison event, undoing its writes, while other tenants and projections go on', async function () {
        const other = uniqueTenant();
        await appendHistory(2, 2);
        const runner = runnerOver(opened[0]!.store, statsProjection(tenant), fragileProjection(tenant, other));
        await runner.start();
        const boom = await append('s0', 'ItemAdded', { item: 'boom', explode: true });
        const more = await append('s1', 'ItemAdded', { item: 'not seen by fragile' });
        const elsewhere = await events.appendToStream(streamName(other, 'counter', 's0'), [newEvent(other, {}, 'ItemAdded')], {
          expectedRevision: 'any',
        });
        await waitOrFail(runner, elsewhere.position); // every projection, fragile included, has passed the poison event

        const status = Object.fromEntries((await runner.status()).map((s) => [s.name, s]));
        assert.equal(status.fragile?.state, 'live');
        assert.deepEqual(
          status.fragile?.parked.map((p) => [p.scope, p.tenantId, p.position, p.eventType]),
          [['tenant', tenant, boom.position.toString(), 'ItemAdded']],
        );
        assert.match(status.fragile?.parked[0]?.error ?? '', /fragile projection cannot handle this event/);
        assert.equal(status[STATS]?.state, 'live');
        assert.deepEqual(status[STATS]?.parked, []);
        const seen = runner.collection<TotalsDoc>('fragile', 'seen');
        assert.equal(
          (await seen.get(tenant, 'count'))?.events,
          4,
          'the poison event wrote nothing, and later events of its tenant are skipped',
        );
        assert.equal((await seen.get(other, 'count'))?.events, 1);
        assert.equal((await snapshot(runner)).totals?.events, 6);
        assert.equal(await runner.waitFor(more.position, { projections: ['fragile'], tenant, timeoutMs: 30_000 }), false);
        assert.equal(await runner.waitFor(elsewhere.position, { projections: ['fragile'], tenant: other, timeoutMs: 30_000 }), true);
        assert.ok(errorsLogged.some((e) => e.projection === 'fragile' && e.position === boom.position.toString()));
      });

      it('parks a poison event met during catch-up, keeps it across a restart, and a rebuild judges it afresh', async function () {
        await appendHistory(2, 2);
        const boom = await append('s1', 'ItemAdded', { item: 'boom', explode: true });
        await append('s1', 'ItemAdded', { item: 'after boom' });
        const runner = runnerOver(opened[0]!.store, fragileProjection(tenant), statsProjection(tenant));
        await runner.start();
        const parkedAt = async (r: ProjectionRunner) => (await r.status()).find((s) => s.name === 'fragile')?.parked.map((p) => p.position);
        const status = Object.fromEntries((await runner.status()).map((s) => [s.name, s]));
        assert.equal(status.fragile?.state, 'live');
        assert.deepEqual(await parkedAt(runner), [boom.position.toString()]);
        assert.equal(status[STATS]?.state, 'live');
        assert.equal(status[STATS]?.lag, Number(BigInt(status[STATS].head) - BigInt(status[STATS].checkpoint)));
        assert.equal((await snapshot(runner)).totals?.events, 6);
        await runner.stop();

        const again = runnerOver(await opened[0]!.reopen(), fragileProjection(tenant), statsProjection(tenant));
        await again.start();
        assert.deepEqual(await parkedAt(again), [boom.position.toString()], 'the parking is recorded with the checkpoint');
        await waitOrFail(again, (await append('s0', 'ItemAdded', { item: 'later' })).position);
        assert.equal((await again.collection<TotalsDoc>('fragile', 'seen').get(tenant, 'count'))?.events, 4);

        await again.rebuild('fragile');
        assert.deepEqual(await parkedAt(again), [boom.position.toString()], 'still poison: parked again by the rebuild');
        assert.equal((await again.collection<TotalsDoc>('fragile', 'seen').get(tenant, 'count'))?.events, 4);
        assert.equal((await again.status()).find((s) => s.name === 'fragile')?.state, 'live');
      });

      it('rebuilds a projection whose version changed into new collections at start', async function () {
        await appendHistory(2, 3);
        const v1 = runnerOver(opened[0]!.store, statsProjection(tenant));
        await v1.start();
        const before = await snapshot(v1);
        await v1.stop();

        const v2 = runnerOver(await opened[0]!.reopen(), statsProjection(tenant, { version: 2 }));
        await v2.start();
        assert.equal(v2.collection(STATS, 'streams').name, 'streams_v2');
        assert.deepEqual(await snapshot(v2), before);
        const names = await opened[0]!.store.listCollections();
        assert.ok(!names.includes('streams_v1'), `v1 collections dropped: ${names.join(',')}`);
      });

      it('stamps each document with when its last event occurred, and rebuilds once what a runner wrote before stamps', async function () {
        await appendHistory(2, 3);
        const first = runnerOver(opened[0]!.store, statsProjection(tenant));
        await first.start();
        const before = await snapshot(first);
        for (const doc of before.streams) {
          const own = await events.readStream(streamName(tenant, 'counter', doc.id.split('-')[1]!));
          const last = own.find((e) => e.position === BigInt(doc._position))!;
          assert.equal(doc._changedAt, last.metadata.occurredAt);
        }
        await first.stop();
        // As an older runner left them: no stamp on the documents, none on the checkpoint.
        const reads = await opened[0]!.reopen();
        const stored = await reads.collection('streams_v1');
        for (const { _changedAt: _, ...doc } of before.streams) await stored.replace(doc);
        const checkpoints = await reads.collection(CHECKPOINTS_COLLECTION);
        const { stamps: _stamps, ...old } = (await checkpoints.get(PLATFORM_DOCS, STATS))!;
        await checkpoints.replace(old);

        const again = runnerOver(reads, statsProjection(tenant));
        await again.start();
        assert.equal(again.collection(STATS, 'streams').name, 'streams_v1_r1');
        assert.deepEqual(await snapshot(again), before);
      });
    });
  }
}
