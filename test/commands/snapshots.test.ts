// Snapshots in the command core over a real SQLite store: a decider that opts in is loaded from its latest snapshot
// and the events after it, folds to exactly what the whole stream folds to, and ignores a snapshot it cannot trust.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { handleCommand, loadAggregate, type CommandContext } from '../../src/commands/handleCommand.js';
import type { CommandEnvelope, Decider } from '../../src/commands/decider.js';
import { DEFAULT_SNAPSHOT_EVERY, SNAPSHOT_EVENT_TYPE, snapshotStreamOf } from '../../src/commands/snapshots.js';
import type { EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { countingEventStore, type ReadCounts } from '../support/countingEventStore.js';
import { newEvent, testMetadata, uniqueTenant } from '../support/eventFixtures.js';
import { newId } from '../../src/commands/eventIds.js';

type Count = CommandEnvelope<'Count', { by: number }>;
type Counted = { type: 'Counted'; data: { by: number } };
type Tally = { total: number; last: number | null };
const counterDecider: Decider<Count, Counted, Tally> = {
  category: 'counter',
  initialState: { total: 0, last: null },
  evolve: (s, e) => ({ total: s.total + e.data.by, last: e.data.by }),
  decide: (cmd) => [{ type: 'Counted', data: { by: cmd.data.by } }],
  snapshot: { version: 1 },
};
/** Each command decides two events: a retry must answer with both. */
const twoEventDecider: Decider<Count, Counted, Tally> = {
  ...counterDecider,
  decide: (cmd) => [
    { type: 'Counted', data: { by: cmd.data.by } },
    { type: 'Counted', data: { by: 0 } },
  ],
};

describe('handleCommand: snapshots of long streams', function () {
  this.timeout(60_000);
  let dir: string;
  let inner: EventStore;
  let store: EventStore;
  let reads: ReadCounts;
  let ctx: CommandContext;
  let stream: string;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshots-'));
    inner = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    ({ store, reads } = countingEventStore(inner));
    ctx = { tenantId: uniqueTenant(), actor: 'nurse-1', sessionId: null, correlationId: 'c-1', ip: null, userAgent: null };
    stream = `${ctx.tenantId}.counter-c1`;
  });
  afterEach(async () => {
    await inner.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const count = (by = 1, c: CommandContext = ctx) =>
    handleCommand(store, counterDecider, { type: 'Count', aggregateId: 'c1', data: { by } }, c);

  /** `n` Counted events of 1 appended straight to the store, as a long history left them. */
  async function history(n: number): Promise<void> {
    let expectedRevision: number | 'no_stream' = 'no_stream';
    for (let i = 0; i < n; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, n - i) }, () => newEvent(ctx.tenantId, { by: 1 }, 'Counted'));
      expectedRevision = (await inner.appendToStream(stream, batch, { expectedRevision })).nextExpectedRevision;
    }
  }

  const wholeFold = async (): Promise<Tally> => (await loadAggregate(inner, { ...counterDecider, snapshot: undefined }, stream)).state;

  it('reads the snapshot and a short tail once a long stream was loaded, and folds what the whole stream folds', async () => {
    await history(5000);
    assert.equal((await count()).state.total, 5001, 'the first load folds the whole stream and snapshots it');
    let most = 0;
    for (let i = 0; i < 3 * DEFAULT_SNAPSHOT_EVERY; i++) {
      reads.reset();
      const result = await count(i % 3);
      most = Math.max(most, reads.byStream.get(stream) ?? 0);
      assert.equal(result.revision, 5000 + i + 1);
    }
    assert.ok(most <= DEFAULT_SNAPSHOT_EVERY + 1, `a command read up to ${most} events of the stream`);
    assert.deepEqual((await loadAggregate(store, counterDecider, stream)).state, await wholeFold());
    assert.ok((await inner.readStream(snapshotStreamOf(stream))).length >= 3, 'a snapshot every so many events');
  });

  it('takes the snapshot before deciding, so a refused command does not fold the long tail again', async () => {
    const refusing: typeof counterDecider = {
      ...counterDecider,
      decide: () => {
        throw new Error('refused');
      },
    };
    await history(3000);
    const refuse = () => handleCommand(store, refusing, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx);
    await assert.rejects(refuse(), /refused/);
    reads.reset();
    await assert.rejects(refuse(), /refused/);
    assert.ok((reads.byStream.get(stream) ?? 0) <= 1, `a refused command read ${reads.byStream.get(stream)} events`);
  });

  it('ignores a snapshot that is not of the event at its revision, and folds the whole stream', async () => {
    await history(DEFAULT_SNAPSHOT_EVERY + 10);
    await count(); // takes a genuine snapshot
    const [genuine] = await inner.readStream(snapshotStreamOf(stream), { direction: 'backwards', maxCount: 1 });
    const lie = { ...genuine!.data, eventId: newId(), state: { total: -1_000, last: null } };
    const metadata = testMetadata(ctx.tenantId);
    await inner.appendToStream(snapshotStreamOf(stream), [{ id: newId(), type: SNAPSHOT_EVENT_TYPE, data: lie, metadata }], {
      expectedRevision: 'any',
    });
    assert.equal((await count()).state.total, DEFAULT_SNAPSHOT_EVERY + 12);
    assert.deepEqual((await loadAggregate(store, counterDecider, stream)).state, await wholeFold());
  });

  it('ignores snapshots of another version of the fold, and each of two builds side by side finds its own', async () => {
    const doubling: typeof counterDecider = { ...counterDecider, evolve: (s, e) => ({ total: s.total + 2 * e.data.by, last: e.data.by }) };
    const other = { ...doubling, snapshot: { version: 1 } }; // a changed fold whose version someone forgot to bump
    const countWith = (decider: typeof counterDecider) =>
      handleCommand(store, decider, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx);
    await history(DEFAULT_SNAPSHOT_EVERY + 10);
    assert.equal((await countWith(counterDecider)).state.total, DEFAULT_SNAPSHOT_EVERY + 11);
    reads.reset();
    assert.equal((await countWith(other)).state.total, 2 * (DEFAULT_SNAPSHOT_EVERY + 12), 'the other fold starts from scratch');
    assert.ok((reads.byStream.get(stream) ?? 0) > DEFAULT_SNAPSHOT_EVERY, 'and reads the whole stream');
    reads.reset();
    assert.equal((await countWith(counterDecider)).state.total, DEFAULT_SNAPSHOT_EVERY + 13);
    assert.ok((reads.byStream.get(stream) ?? 0) <= 3, `the first build read ${reads.byStream.get(stream)} events`);
  });

  it('still recognises a keyed retry whose events lie before the latest snapshot', async () => {
    const keyed = { ...ctx, idempotencyKey: 'scoped-key-1' };
    const first = await count(5, keyed);
    for (let i = 0; i < DEFAULT_SNAPSHOT_EVERY + 5; i++) await count();
    assert.ok((await inner.readStream(snapshotStreamOf(stream))).length >= 1);
    const retried = await count(5, keyed);
    assert.deepEqual(
      retried.events.map((e) => e.id),
      first.events.map((e) => e.id),
    );
    assert.equal((await inner.readStream(stream)).length, DEFAULT_SNAPSHOT_EVERY + 6, 'the retry wrote nothing');
  });

  it('snapshots a decider that names no policy (the default), and never one that opts out', async () => {
    const unnamed = { ...counterDecider, snapshot: undefined };
    const optedOut = { ...counterDecider, snapshot: { never: 'the test folds it whole' } };
    for (let i = 0; i < DEFAULT_SNAPSHOT_EVERY + 5; i++) {
      await handleCommand(store, optedOut, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx);
    }
    assert.deepEqual(await inner.readStream(snapshotStreamOf(stream)), [], 'the opted-out decider took no snapshot');
    reads.reset();
    await handleCommand(store, optedOut, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx);
    assert.equal(reads.byStream.get(stream), DEFAULT_SNAPSHOT_EVERY + 5, 'and folds the whole stream');
    await handleCommand(store, unnamed, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx);
    assert.equal((await inner.readStream(snapshotStreamOf(stream))).length, 1, 'the default policy snapshots');
    reads.reset();
    assert.equal((await handleCommand(store, unnamed, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx)).state.total, 108);
    assert.ok((reads.byStream.get(stream) ?? 0) <= 2, `the next load read ${reads.byStream.get(stream)} events`);
  });

  it('loads a keyed command on a long stream from the snapshot and a short tail, not the whole stream', async () => {
    await history(5000);
    let most = 0;
    for (let i = 0; i < 2 * DEFAULT_SNAPSHOT_EVERY; i++) {
      reads.reset();
      const result = await count(1, { ...ctx, idempotencyKey: `key-${i}` });
      if (i > 0) most = Math.max(most, reads.byStream.get(stream) ?? 0);
      assert.equal(result.state.total, 5001 + i);
    }
    assert.ok(most <= DEFAULT_SNAPSHOT_EVERY + 2, `a keyed command read up to ${most} events of the stream`);
    assert.deepEqual((await loadAggregate(store, counterDecider, stream)).state, await wholeFold());
  });

  it('answers a keyed retry after a snapshot as the first time, reading a bounded number of events', async () => {
    await history(3000);
    const keyed = { ...ctx, idempotencyKey: 'scoped-key-2' };
    const first = await handleCommand(store, twoEventDecider, { type: 'Count', aggregateId: 'c1', data: { by: 4 } }, keyed);
    for (let i = 0; i < 2 * DEFAULT_SNAPSHOT_EVERY + 5; i++) await count();
    reads.reset();
    const retried = await handleCommand(store, twoEventDecider, { type: 'Count', aggregateId: 'c1', data: { by: 4 } }, keyed);
    assert.ok(reads.total() <= DEFAULT_SNAPSHOT_EVERY + 10, `the retry read ${reads.total()} events`);
    assert.deepEqual(
      retried.events.map((e) => [e.id, e.revision, e.data, e.metadata.commandId]),
      first.events.map((e) => [e.id, e.revision, e.data, e.metadata.commandId]),
    );
    assert.equal(retried.position, first.position);
    assert.equal(retried.revision, 3000 + 2 + 2 * DEFAULT_SNAPSHOT_EVERY + 5 - 1, 'the stream as it is now');
    assert.deepEqual(retried.state, await wholeFold());
    assert.equal((await inner.readStream(stream)).length, 3000 + 2 + 2 * DEFAULT_SNAPSHOT_EVERY + 5, 'the retry wrote nothing');
  });

  it('resumes a state JSON cannot hold as it is (undefined fields, Sets, Maps, Dates) from a stored snapshot', async () => {
    type Seen = { last: string | undefined; ids: Set<string>; byDay: Map<string, number>; since: Date | null };
    const seenDecider: Decider<Count, Counted, Seen> = {
      category: 'counter',
      initialState: { last: undefined, ids: new Set(), byDay: new Map(), since: null },
      evolve: (s, e) => ({
        last: e.data.by % 2 ? undefined : String(e.data.by),
        ids: new Set([...s.ids, `i${e.data.by % 7}`]),
        byDay: new Map([...s.byDay, [`d${e.data.by % 3}`, (s.byDay.get(`d${e.data.by % 3}`) ?? 0) + 1]]),
        since: s.since ?? new Date(Date.UTC(2026, 0, 1)),
      }),
      decide: (cmd) => [{ type: 'Counted', data: { by: cmd.data.by } }],
    };
    const run = (by: number) => handleCommand(store, seenDecider, { type: 'Count', aggregateId: 'c1', data: { by } }, ctx);
    for (let i = 0; i < DEFAULT_SNAPSHOT_EVERY + 5; i++) await run(i);
    assert.equal((await inner.readStream(snapshotStreamOf(stream))).length, 1);
    reads.reset();
    const resumed = await run(1000);
    assert.ok((reads.byStream.get(stream) ?? 0) <= 10, `loaded from the snapshot: read ${reads.byStream.get(stream)} events`);
    const whole = await loadAggregate(inner, { ...seenDecider, snapshot: { never: 'the reference fold' } }, stream);
    assert.deepEqual(resumed.state, whole.state);
  });
});
