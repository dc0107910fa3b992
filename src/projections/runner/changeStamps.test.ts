// Change stamps: every write through the stamped collection gives its tenant a new stamp once it is done, a drop
// gives every tenant one, a write of one tenant leaves the others' stamps alone, and in-process shared writes count too.
import assert from 'node:assert/strict';
import { CollectionStamps, StampClock, stampedCollection } from './changeStamps.js';
import { createEmbeddedReadStore } from '../../stores/embedded/embeddedReadStore.js';
import { sharedAccessOf } from '../../stores/sharedDocuments.js';
import type { ReadDoc } from '../../stores/readStore.js';

const doc = (tenantId: string, id: string, extra: Record<string, unknown> = {}): ReadDoc => ({ tenantId, id, ...extra });

describe('change stamps of read-model collections', () => {
  const setUp = async () => {
    const reads = createEmbeddedReadStore();
    const clock = new StampClock();
    const stamps = new CollectionStamps(clock);
    const collection = stampedCollection(await reads.collection('patients_v1'), stamps);
    return { clock, stamps, collection };
  };

  it('draws a new stamp for the tenant of every write, after the write is readable', async () => {
    const { stamps, collection } = await setUp();
    const seen = new Set([stamps.of('t1')]);
    const expectNew = (what: string) => {
      assert.ok(!seen.has(stamps.of('t1')), `${what} changes the stamp`);
      seen.add(stamps.of('t1'));
    };
    const write = collection.replace(doc('t1', 'p1', { name: 'Ana' }));
    assert.ok(seen.has(stamps.of('t1')), 'not before the write is done');
    await write;
    expectNew('replace');
    await collection.updateOne('t1', { id: 'p1' }, { $set: { name: 'Ana María' } });
    expectNew('updateOne');
    await collection.bulkWrite([{ kind: 'replace', doc: doc('t1', 'p2') }]);
    expectNew('bulkWrite');
    await collection.deleteOne('t1', 'p2');
    expectNew('deleteOne');
    await collection.drop();
    expectNew('drop');
  });

  it("leaves another tenant's stamp as it was, except on a drop", async () => {
    const { stamps, collection } = await setUp();
    const other = stamps.of('t2');
    await collection.replace(doc('t1', 'p1'));
    await collection.bulkWrite([{ kind: 'delete', tenantId: 't1', id: 'p1' }]);
    assert.equal(stamps.of('t2'), other);
    await collection.drop();
    assert.notEqual(stamps.of('t2'), other);
  });

  it('stamps the writes a projection makes through shared access, and a failed write too', async () => {
    const { stamps, collection } = await setUp();
    const shared = sharedAccessOf(collection);
    assert.ok(shared, 'the embedded store offers shared access through the stamped collection');
    const before = stamps.of('t1');
    shared.put(doc('t1', 'p1'));
    const afterPut = stamps.of('t1');
    assert.notEqual(afterPut, before);
    assert.deepEqual(shared.get('t1', 'p1'), doc('t1', 'p1'));
    shared.remove('t1', 'p1');
    assert.notEqual(stamps.of('t1'), afterPut);
    const afterRemove = stamps.of('t1');
    await assert.rejects(collection.updateOne('t1', { $where: 'nonsense' }, { $bogus: {} }));
    assert.notEqual(stamps.of('t1'), afterRemove);
  });

  it('never hands two collections on one clock the same stamp (a rebuild switch changes it)', async () => {
    const { clock, stamps } = await setUp();
    const fresh = new CollectionStamps(clock);
    assert.notEqual(fresh.of('t1'), stamps.of('t1'));
    stamps.touch('t1');
    assert.notEqual(fresh.of('t1'), stamps.of('t1'));
  });
});
