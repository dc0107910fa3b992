// The EventStore contract, run against every reachable implementation (SQLite always, EventStoreDB when
// EVENTSTORE_URL is set). Every test works in tenants of its own, so a shared server never interferes.
import assert from 'node:assert/strict';
import type { EventStore, NewEvent, RecordedEvent } from '../../src/stores/eventStore.js';
import { IdempotencyConflictError, WrongExpectedRevisionError, streamName } from '../../src/stores/eventStore.js';
import { eventId } from '../../src/commands/eventIds.js';
import { eventStoreImplementations } from '../support/storeImplementations.js';
import { newEvent, sleep, testMetadata, uniqueTenant, waitUntil } from '../support/eventFixtures.js';

const ids = (events: Array<{ id: string }>) => events.map((e) => e.id);

for (const impl of eventStoreImplementations()) {
  describe(`EventStore contract: ${impl.name}`, function () {
    let store: EventStore;
    let tenant: string;
    let stream: string;
    before(async () => (store = await impl.open()));
    after(() => impl.cleanup());
    beforeEach(() => {
      tenant = uniqueTenant();
      stream = streamName(tenant, 'patient', 'p1');
    });

    const append = (s: string, events: NewEvent[], expectedRevision: Parameters<EventStore['appendToStream']>[2]['expectedRevision']) =>
      store.appendToStream(s, events, { expectedRevision });

    describe('expected revision', () => {
      it('no_stream creates the stream at revision 0 and refuses an existing stream', async () => {
        const r = await append(stream, [newEvent(tenant), newEvent(tenant)], 'no_stream');
        assert.equal(r.nextExpectedRevision, 1);
        await assert.rejects(
          append(stream, [newEvent(tenant)], 'no_stream'),
          (e: unknown) => e instanceof WrongExpectedRevisionError && e.actual === 1 && e.expected === 'no_stream',
        );
      });

      it('stream_exists refuses a missing stream and accepts an existing one', async () => {
        await assert.rejects(
          append(stream, [newEvent(tenant)], 'stream_exists'),
          (e: unknown) => e instanceof WrongExpectedRevisionError && e.actual === 'no_stream',
        );
        await append(stream, [newEvent(tenant)], 'any');
        assert.equal((await append(stream, [newEvent(tenant)], 'stream_exists')).nextExpectedRevision, 1);
      });

      it('an exact revision must be the revision of the last event', async () => {
        await assert.rejects(append(stream, [newEvent(tenant)], 0), WrongExpectedRevisionError);
        await append(stream, [newEvent(tenant)], 'no_stream');
        assert.equal((await append(stream, [newEvent(tenant)], 0)).nextExpectedRevision, 1);
        await assert.rejects(
          append(stream, [newEvent(tenant)], 0),
          (e: unknown) => e instanceof WrongExpectedRevisionError && e.actual === 1 && e.expected === 0 && e.stream === stream,
        );
        await assert.rejects(append(stream, [newEvent(tenant)], 5), WrongExpectedRevisionError);
        assert.equal((await store.readStream(stream)).length, 2);
      });

      it('any appends whatever the revision', async () => {
        await append(stream, [newEvent(tenant)], 'any');
        assert.equal((await append(stream, [newEvent(tenant)], 'any')).nextExpectedRevision, 1);
      });
    });

    describe('concurrency and atomicity', () => {
      it('of N appenders at the same expected revision exactly one wins', async () => {
        for (const expected of ['no_stream', 0] as const) {
          const results = await Promise.allSettled(
            Array.from({ length: 12 }, (_, i) => append(stream, [newEvent(tenant, { writer: i })], expected)),
          );
          assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, `one winner at ${expected}`);
          for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof WrongExpectedRevisionError);
        }
        assert.deepEqual(
          (await store.readStream(stream)).map((e) => e.revision),
          [0, 1],
        );
      });

      it('concurrent appenders that retry on conflict all land, with contiguous revisions', async () => {
        const writer = async (w: number) => {
          for (let n = 0; n < 5; n++) {
            for (;;) {
              const current = (await store.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]?.revision ?? -1;
              try {
                await append(stream, [newEvent(tenant, { w, n })], current < 0 ? 'no_stream' : current);
                break;
              } catch (e) {
                if (!(e instanceof WrongExpectedRevisionError)) throw e;
              }
            }
          }
        };
        await Promise.all([0, 1, 2, 3, 4].map(writer));
        assert.deepEqual(
          (await store.readStream(stream)).map((e) => e.revision),
          Array.from({ length: 25 }, (_, i) => i),
        );
      });

      it('a multi-event append is all or nothing', async () => {
        await append(stream, [newEvent(tenant)], 'no_stream');
        const refused = [newEvent(tenant), newEvent(tenant), newEvent(tenant)];
        await assert.rejects(append(stream, refused, 'no_stream'), WrongExpectedRevisionError);
        assert.equal((await store.readStream(stream)).length, 1);
        assert.equal(
          (await store.readAll({ tenant })).some((e) => ids(refused).includes(e.id)),
          false,
        );
      });

      it('appends issued together succeed or fail each on their own', async () => {
        const streams = [0, 1, 2, 3].map((i) => streamName(tenant, 'patient', `s${i}`));
        await append(streams[2]!, [newEvent(tenant)], 'no_stream');
        const results = await Promise.allSettled(streams.map((s) => append(s, [newEvent(tenant), newEvent(tenant)], 'no_stream')));
        assert.deepEqual(
          results.map((r) => r.status),
          ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
        );
        for (const s of [0, 1, 3]) assert.equal((await store.readStream(streams[s]!)).length, 2);
        assert.equal((await store.readStream(streams[2]!)).length, 1);
      });
    });

    describe('idempotency', () => {
      const decided = (t: string, key: string, n: number): NewEvent[] =>
        Array.from({ length: n }, (_, i) => ({
          id: eventId(t, key, i),
          type: 'PatientRegistered',
          data: { i, name: 'Ana' },
          metadata: testMetadata(t),
        }));

      it('a retried append (same ids, same expected revision) is acknowledged once, not written twice', async () => {
        await append(stream, [newEvent(tenant)], 'no_stream');
        const events = decided(tenant, 'key-1', 2);
        const first = await append(stream, events, 0);
        const retry = await append(
          stream,
          events.map((e) => ({ ...e, metadata: testMetadata(tenant) })),
          0,
        );
        assert.deepEqual(retry, first);
        const retryNew = await append(streamName(tenant, 'patient', 'p2'), decided(tenant, 'key-2', 1), 'no_stream');
        assert.deepEqual(await append(streamName(tenant, 'patient', 'p2'), decided(tenant, 'key-2', 1), 'no_stream'), retryNew);
        assert.equal((await store.readStream(stream)).length, 3);
        const all = await store.readAll({ tenant });
        assert.equal(new Set(ids(all)).size, all.length);
        assert.equal(all.length, 4);
      });

      it('different data under a used id is an IdempotencyConflictError', async () => {
        const events = decided(tenant, 'key-1', 1);
        await append(stream, events, 'no_stream');
        await assert.rejects(append(stream, [{ ...events[0]!, data: { name: 'Eva' } }], 'no_stream'), IdempotencyConflictError);
        assert.equal((await store.readStream(stream)).length, 1);
      });

      it('a used id in another stream, at another position or under "any" follows the store-wide id rule', async function () {
        if (!impl.capabilities.globalEventIds) this.skip(); // EventStoreDB checks ids per stream, best effort under 'any'
        const events = decided(tenant, 'key-1', 1);
        const first = await append(stream, events, 'any');
        assert.deepEqual(await append(stream, events, 'any'), first);
        await assert.rejects(append(streamName(tenant, 'patient', 'p2'), events, 'any'), IdempotencyConflictError);
        // reused at a new position of the same stream, inside a multi-event append: nothing of it is written
        const fresh = newEvent(tenant);
        await assert.rejects(append(stream, [fresh, { ...events[0]!, data: { other: true } }], 0), IdempotencyConflictError);
        assert.deepEqual(ids(await store.readAll({ tenant })), ids(events));
      });
    });

    describe('reading', () => {
      it('positions grow strictly in commit order and match the append results', async () => {
        const a = await append(stream, [newEvent(tenant), newEvent(tenant)], 'no_stream');
        const b = await append(streamName(tenant, 'patient', 'p2'), [newEvent(tenant)], 'no_stream');
        const all = await store.readAll({ tenant });
        assert.deepEqual(
          all.map((e) => e.position),
          [...all.map((e) => e.position)].sort((x, y) => (x < y ? -1 : 1)),
        );
        assert.equal(new Set(all.map((e) => e.position)).size, 3);
        assert.equal(all[1]!.position, a.position);
        assert.equal(all[2]!.position, b.position);
        assert.ok(b.position > a.position);
        assert.equal(await store.headPosition(tenant), b.position);
        assert.ok((await store.headPosition()) >= b.position);
        assert.equal(await store.headPosition(uniqueTenant()), 0n);
      });

      it('reads a stream forwards, backwards, from a revision and with a maximum count', async () => {
        const events = Array.from({ length: 5 }, (_, i) => newEvent(tenant, { i }));
        await append(stream, events, 'no_stream');
        const forwards = await store.readStream(stream);
        assert.deepEqual(ids(forwards), ids(events));
        assert.deepEqual(
          forwards.map((e) => e.revision),
          [0, 1, 2, 3, 4],
        );
        assert.equal(forwards[2]!.streamName, stream);
        assert.deepEqual(forwards[2]!.data, events[2]!.data);
        assert.deepEqual(forwards[2]!.metadata, events[2]!.metadata);
        assert.deepEqual(
          (await store.readStream(stream, { direction: 'backwards' })).map((e) => e.revision),
          [4, 3, 2, 1, 0],
        );
        assert.deepEqual(
          (await store.readStream(stream, { fromRevision: 3 })).map((e) => e.revision),
          [3, 4],
        );
        assert.deepEqual(
          (await store.readStream(stream, { fromRevision: 1, maxCount: 2 })).map((e) => e.revision),
          [1, 2],
        );
        assert.deepEqual(
          (await store.readStream(stream, { direction: 'backwards', fromRevision: 2, maxCount: 2 })).map((e) => e.revision),
          [2, 1],
        );
        assert.deepEqual(
          (await store.readStream(stream, { direction: 'backwards', maxCount: 1 })).map((e) => e.revision),
          [4],
        );
        assert.deepEqual(await store.readStream(streamName(tenant, 'patient', 'missing')), []);
      });

      it('finds an event by its id in its stream, with its revision and position; null in another stream or when absent', async () => {
        const events = Array.from({ length: 1200 }, (_, i) => newEvent(tenant, { i }));
        await append(stream, events.slice(0, 600), 'no_stream');
        await append(stream, events.slice(600), 599);
        const stored = await store.readStream(stream);
        for (const at of [0, 7, 600, 1199]) {
          const found = await store.readEventById(stream, events[at]!.id.toUpperCase());
          assert.deepEqual(found, stored[at], `the event at revision ${at}`);
        }
        assert.equal(await store.readEventById(streamName(tenant, 'patient', 'p2'), events[3]!.id), null, 'another stream');
        assert.equal(await store.readEventById(stream, newEvent(tenant).id), null, 'an id never used');
        assert.equal(await store.readEventById(streamName(tenant, 'patient', 'missing'), events[3]!.id), null, 'a missing stream');
      });

      it('readAll pages after a position and never shows another tenant', async () => {
        const other = `${tenant}x`; // a tenant whose name starts with ours must not leak into our prefix
        const start = await store.headPosition(); // an existing position (or 0n): servers refuse made-up ones
        const mine: string[] = [];
        for (let i = 0; i < 7; i++) {
          const e = newEvent(tenant, { i });
          mine.push(e.id);
          await append(streamName(tenant, 'patient', `p${i % 3}`), [e], 'any');
          await append(streamName(other, 'patient', `p${i}`), [newEvent(other)], 'any');
        }
        const pages: RecordedEvent[][] = [];
        let after = 0n;
        for (;;) {
          const page = await store.readAll({ tenant, after, maxCount: 3 });
          if (page.length === 0) break;
          pages.push(page);
          after = page[page.length - 1]!.position;
        }
        assert.deepEqual(
          pages.map((p) => p.length),
          [3, 3, 1],
        );
        assert.deepEqual(ids(pages.flat()), mine);
        assert.ok(pages.flat().every((e) => e.streamName.startsWith(`${tenant}.`)));
        const otherAll = await store.readAll({ tenant: other });
        assert.equal(otherAll.length, 7);
        const unfiltered: RecordedEvent[] = [];
        for (
          let page = await store.readAll({ after: start, maxCount: 5 });
          page.length > 0;
          page = await store.readAll({ after: page[page.length - 1]!.position, maxCount: 5 })
        )
          unfiltered.push(...page);
        assert.deepEqual(ids(unfiltered.filter((e) => e.streamName.startsWith(`${tenant}.`))), mine);
        assert.equal(unfiltered.filter((e) => e.streamName.startsWith(`${other}.`)).length, 7);
      });
    });

    describe('subscriptions', () => {
      it('delivers history, then live events, each exactly once and in order, one handler at a time', async () => {
        const start = await store.headPosition();
        const expected: string[] = [];
        const appendOne = async (phase: string, i: number) => {
          const e = newEvent(tenant, { phase, i });
          expected.push(e.id);
          await append(streamName(tenant, 'patient', `${phase}${i % 4}`), [e], 'any');
        };
        for (let i = 0; i < 30; i++) await appendOne('before', i);
        const seen: RecordedEvent[] = [];
        let active = 0;
        let overlap = false;
        const sub = store.subscribe({ after: start, tenant }, async (e) => {
          active++;
          if (active > 1) overlap = true;
          if (seen.length % 7 === 0) await sleep(5); // slow handler: appends land while we catch up
          seen.push(e);
          active--;
        });
        for (let i = 0; i < 30; i++) await appendOne('during', i);
        await waitUntil(() => seen.length >= 60, 'catch-up');
        for (let i = 0; i < 30; i++) await appendOne('after', i);
        await waitUntil(() => seen.length >= 90, 'live events');
        await sleep(50);
        assert.deepEqual(ids(seen), expected);
        assert.equal(overlap, false);
        await sub.stop();
        await appendOne('stopped', 0);
        await sleep(300);
        assert.equal(seen.length, 90, 'no delivery after stop()');
      });

      it('starts strictly after the given position and keeps to its tenant', async () => {
        const other = uniqueTenant();
        await append(stream, [newEvent(tenant), newEvent(tenant)], 'no_stream');
        const mark = await store.headPosition(tenant);
        const later = newEvent(tenant);
        await append(streamName(other, 'patient', 'x'), [newEvent(other)], 'no_stream');
        await append(stream, [later], 1);
        const seen: RecordedEvent[] = [];
        const sub = store.subscribe({ after: mark, tenant }, (e) => void seen.push(e));
        await waitUntil(() => seen.length >= 1, 'the event after the mark');
        await append(streamName(other, 'patient', 'y'), [newEvent(other)], 'no_stream');
        const last = newEvent(tenant);
        await append(stream, [last], 2);
        await waitUntil(() => seen.length >= 2, 'a live event');
        await sub.stop();
        assert.deepEqual(ids(seen), [later.id, last.id]);
      });

      it('subscriptions from one position each get every event once, in order, with its data', async () => {
        const start = await store.headPosition(tenant);
        const sent: NewEvent[] = [];
        const seen: RecordedEvent[][] = [[], [], [], []];
        const subs = seen.map((mine, k) =>
          store.subscribe({ after: start, tenant }, async (e) => {
            if (k === 1 && mine.length % 5 === 0) await sleep(3); // one falls behind and reads on its own
            mine.push(e);
          }),
        );
        for (let burst = 0; burst < 6; burst++) {
          const events = Array.from({ length: 4 }, (_, i) => newEvent(tenant, { burst, i }));
          sent.push(...events);
          await Promise.all(events.map((e, i) => append(streamName(tenant, 'patient', `s${burst}-${i}`), [e], 'no_stream')));
        }
        await waitUntil(() => seen.every((mine) => mine.length >= sent.length), 'every subscription');
        await sleep(50);
        for (const sub of subs) await sub.stop();
        const logged = await store.readAll({ after: start, tenant, maxCount: 100 });
        assert.deepEqual(ids(logged).sort(), ids(sent).sort());
        const byId = new Map(sent.map((e) => [e.id, e]));
        for (const mine of seen) {
          assert.deepEqual(ids(mine), ids(logged));
          for (const e of mine) {
            assert.deepEqual(e.data, byId.get(e.id)!.data);
            assert.deepEqual(e.metadata, byId.get(e.id)!.metadata);
          }
        }
      });

      it('reports a failing handler through `failed` and stops delivering', async () => {
        await append(stream, [newEvent(tenant), newEvent(tenant)], 'no_stream');
        let calls = 0;
        const sub = store.subscribe({ tenant }, () => {
          calls++;
          throw new Error('projection bug');
        });
        const error = await sub.failed;
        assert.equal(error.message, 'projection bug');
        await sub.stop();
        assert.equal(calls, 1);
      });

      it('stop() waits for the handler in flight', async () => {
        await append(stream, [newEvent(tenant)], 'no_stream');
        let finished = false;
        let entered = false;
        const sub = store.subscribe({ tenant }, async () => {
          entered = true;
          await sleep(100);
          finished = true;
        });
        await waitUntil(() => entered, 'the handler to start');
        await sub.stop();
        assert.equal(finished, true);
      });
    });
  });
}
