// applyFold's `ownStream`: a document whose id is its stream's, written by that stream's events only, is not read from
// the SQLite read store at the stream's first event (revision 0); a replay of the stream over a newer stored document
// (a restart from an older checkpoint) still leaves the right document.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { streamName, type RecordedEvent } from '../../src/stores/eventStore.js';
import type { Collection, ReadStore } from '../../src/stores/readStore.js';
import { applyFold, eventTypeSet, type ProjectedDoc, type Projection } from '../../src/projections/runner/projection.js';
import { ProjectionBatch } from '../../src/projections/runner/projectionBatch.js';
import { ParkedScopes } from '../../src/projections/runner/parkedScopes.js';
import { recordedEvent } from '../support/eventFixtures.js';

interface CounterDoc extends ProjectedDoc {
  seen: number[];
}
const TENANT = 't1';
const STREAM = streamName(TENANT, 'counter', 'c1');

const counters: Projection = {
  name: 'counters',
  version: 1,
  collections: { counters: [] },
  eventTypes: ['Counted'],
  handle: (event, tx) =>
    applyFold<CounterDoc>(
      tx,
      'counters',
      TENANT,
      'c1',
      event,
      (doc) => ({ tenantId: TENANT, id: 'c1', seen: [...(doc?.seen ?? []), event.revision], _position: Number(event.position) }),
      { ownStream: true },
    ),
};

const counted = (revision: number, position: number): RecordedEvent => ({
  ...recordedEvent(STREAM, 'Counted'),
  id: `e${position}`,
  revision,
  position: BigInt(position),
});

describe('applyFold of a document of its own stream on the SQLite read store', function () {
  let dir: string;
  let store: ReadStore;
  let real: Collection<ProjectedDoc>;
  let reads: number;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'new-stream-reads-'));
    store = await openSqliteReadStore({ file: path.join(dir, 'readmodels.sqlite') });
    real = await store.collection<ProjectedDoc>('counters_v1');
    reads = 0;
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The real collection, its reads by id counted. */
  const counting = (): Collection<ProjectedDoc> =>
    Object.assign(Object.create(real) as Collection<ProjectedDoc>, {
      get: (tenantId: string, id: string) => (reads++, real.get(tenantId, id)),
    });

  async function apply(from: number, ...events: RecordedEvent[]): Promise<void> {
    const batch = new ProjectionBatch(counters, new Map([['counters', counting()]]), BigInt(from), new ParkedScopes());
    for (const event of events) await batch.apply(event, eventTypeSet(counters));
    await batch.writeBack();
  }

  it('does not read the document at its stream first event', async function () {
    await apply(0, counted(0, 10));
    assert.equal(reads, 0, 'revision 0: known absent');
    assert.deepEqual((await real.get(TENANT, 'c1'))?.seen, [0]);
    await apply(10, counted(1, 20));
    assert.equal(reads, 1, 'a later event reads it');
    assert.deepEqual((await real.get(TENANT, 'c1'))?.seen, [0, 1]);
  });

  it('leaves a newer stored document as it is when the stream is replayed from before it', async function () {
    await apply(0, counted(0, 10), counted(1, 20), counted(2, 30));
    await apply(5, counted(0, 10));
    assert.deepEqual((await real.get(TENANT, 'c1'))?.seen, [0, 1, 2], 'the replayed first event writes nothing over it');
    await apply(5, counted(0, 10), counted(1, 20), counted(2, 30), counted(3, 40));
    const doc = await real.get(TENANT, 'c1');
    assert.deepEqual(doc?.seen, [0, 1, 2, 3], 'the whole stream replayed, then the new event');
    assert.equal(doc?._position, 40);
  });
});
