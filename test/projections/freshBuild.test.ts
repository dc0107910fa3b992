// A batch building fresh collections (a rebuild, a first start) over the real SQLite read store: it asks the store
// only for documents it wrote and no longer holds, and ends with the same documents as an ordinary batch.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '../../src/stores/eventStore.js';
import type { Collection } from '../../src/stores/readStore.js';
import { openSqliteReadStore, type SqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { applyFold, type ProjectedDoc, type Projection } from '../../src/projections/runner/projection.js';
import { ProjectionBatch } from '../../src/projections/runner/projectionBatch.js';
import { ParkedScopes } from '../../src/projections/runner/parkedScopes.js';
import { recordedEvent } from '../support/eventFixtures.js';

const TENANT = 'tfresh';
const FLUSH_EVERY = 3;

interface TallyDoc extends ProjectedDoc {
  items: string[];
}

const tally: Projection = {
  name: 'tally',
  version: 1,
  collections: { tallies: [{ keys: { tenantId: 1, items: 1 } }] },
  eventTypes: ['Added', 'Dropped'],
  handle(event, tx) {
    const id = event.streamName.split('-')[1]!;
    return applyFold<TallyDoc>(tx, 'tallies', TENANT, id, event, (doc) => {
      if (event.type === 'Dropped') return null;
      const items = [...(doc?.items ?? []), event.data.item as string];
      return { tenantId: TENANT, id, items, _position: Number(event.position) };
    });
  },
};

/** Events of the plan's streams, positions from 1. A stream written early, again after two flushes (no longer held), one dropped and made again, and many new ones. */
function history(plan: Array<[string, string]> = longPlan()): RecordedEvent[] {
  return plan.map(([stream, type], i) => ({
    ...recordedEvent(`${TENANT}.tally-${stream}`, type, { item: `i${i}` }),
    id: `e${i}`,
    position: BigInt(i + 1),
  }));
}

function longPlan(): Array<[string, string]> {
  const plan: Array<[string, string]> = [
    ['a', 'Added'],
    ['b', 'Added'],
    ['a', 'Added'],
    ['c', 'Added'],
    ['d', 'Added'],
    ['b', 'Dropped'],
  ];
  for (let i = 0; i < 12; i++) plan.push([`n${i}`, 'Added']);
  plan.push(['a', 'Added'], ['b', 'Added'], ['c', 'Added'], ['n0', 'Dropped'], ['n0', 'Added']);
  return plan;
}

async function build(
  store: SqliteReadStore,
  name: string,
  fresh: boolean,
  gets: string[],
  options: { held?: number; plan?: Array<[string, string]> } = {},
): Promise<unknown[]> {
  const real = await store.collection<ProjectedDoc>(name);
  // The real collection, its reads noted (which keys the batch asked the store for).
  const noted: Collection<ProjectedDoc> = Object.assign(Object.create(real) as Collection<ProjectedDoc>, {
    get: (tenantId: string, id: string) => {
      gets.push(id);
      return real.get(tenantId, id);
    },
  });
  const batch = new ProjectionBatch(tally, new Map([['tallies', noted]]), 0n, new ParkedScopes());
  if (fresh) batch.freshBuild(options.held);
  for (const event of history(options.plan)) {
    await batch.apply(event, new Set(tally.eventTypes));
    if (batch.handled >= FLUSH_EVERY) await batch.writeBack();
  }
  await batch.writeBack();
  const page = await real.find(TENANT, {}, { sort: { id: 1 } });
  return page.items.map(({ _changedAt, ...doc }) => doc);
}

describe('a fresh build into the SQLite read store', () => {
  let dir: string;
  let store: SqliteReadStore;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fresh-build-'));
    store = await openSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  });
  after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads from the store only documents it wrote and no longer holds, and ends with the same documents', async () => {
    const ordinaryGets: string[] = [];
    const ordinary = await build(store, 'tallies_ordinary', false, ordinaryGets);
    const freshGets: string[] = [];
    const fresh = await build(store, 'tallies_fresh', true, freshGets);
    assert.deepEqual(fresh, ordinary);
    assert.equal(ordinary.length, 16);
    // Never a read of a key seen first (c, d, n0..n11): it is known absent. a, b, c and n0 were written, then left
    // behind for more than a flush: read again (b deleted since: the store answers null). b's delete: held from before.
    assert.ok(ordinaryGets.includes('n5'), 'the ordinary batch reads every new key');
    assert.deepEqual([...new Set(freshGets)].sort(), ['a', 'b', 'c', 'n0']);
  });

  it('holds at most the given number of documents per collection from the flush before (the latest written)', async () => {
    const plan: Array<[string, string]> = [
      ['a', 'Added'],
      ['b', 'Added'],
      ['c', 'Added'],
      ['a', 'Added'],
      ['c', 'Added'],
      ['x', 'Added'],
    ];
    const held: string[] = [];
    const ordinary = await build(store, 'tallies_ordinary2', false, [], { plan });
    const unbounded = await build(store, 'tallies_unbounded', true, held, { plan });
    const capped: string[] = [];
    const fresh = await build(store, 'tallies_capped', true, capped, { plan, held: 1 });
    assert.deepEqual(unbounded, ordinary);
    assert.deepEqual(fresh, ordinary);
    assert.deepEqual(held, [], 'a and c of the first flush held');
    assert.deepEqual(capped, ['a'], 'only c (the latest written) held: a read from the store');
  });
});
