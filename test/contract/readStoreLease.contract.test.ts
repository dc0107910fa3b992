// ReadStore contract, continued: the two guarantees a shared read store gives several service instances. A lease
// (taken by a conditional upsert) has one holder at a time; projection writes are conditional on the `_position` a
// document stores, so a slower writer never replaces or deletes a newer document.
import assert from 'node:assert/strict';
import { type Collection, type ReadDoc, type ReadStore } from '../../src/stores/readStore.js';
import { acquireLease, readLease, releaseLease } from '../../src/stores/leases.js';
import { readStoreImplementations, type OpenedReadStore } from '../support/storeImplementations.js';

interface Positioned extends ReadDoc {
  _position: number;
  text: string;
}

const T = 'clinicA';
const at = (id: string, position: number, text = `at ${position}`): Positioned => ({ tenantId: T, id, _position: position, text });

for (const implementation of readStoreImplementations()) {
  describe(`ReadStore contract, leases and conditional writes: ${implementation.name}`, function () {
    let opened: OpenedReadStore;
    let store: ReadStore;
    beforeEach(async function () {
      opened = await implementation.open();
      store = opened.store;
    });
    afterEach(async function () {
      await opened.dispose();
    });

    const lease = (holder: string, nowMs: number, ttlMs = 1000) => acquireLease(store, { name: 'projector', holder, nowMs, ttlMs });

    it('gives a lease to one holder at a time, renews it for its holder, and to another once expired or released', async function () {
      assert.equal(await lease('a', 0), true);
      assert.equal(await lease('b', 10), false, 'held by a');
      assert.equal(await lease('a', 500), true, 'a renews');
      assert.equal((await readLease(store, 'projector'))?.expiresAt, 1500);
      assert.equal(await lease('b', 1499), false, 'not expired yet');
      assert.equal(await lease('b', 1500), true, 'expired: b takes it');
      assert.equal(await lease('a', 1600), false, 'a lost it');
      await releaseLease(store, 'projector', 'a');
      assert.equal(await lease('c', 1700), false, 'a release by a non-holder changes nothing');
      await releaseLease(store, 'projector', 'b');
      assert.equal(await lease('c', 1700), true, 'released: c takes it at once');
      assert.equal((await readLease(store, 'projector'))?.holder, 'c');
    });

    it('gives a free lease to exactly one of many holders asking at once, on every handle of the store', async function () {
      const other = await opened.reopen();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          acquireLease(i % 2 ? other : store, { name: 'projector', holder: `h${i}`, nowMs: 0, ttlMs: 1000 }),
        ),
      );
      assert.equal(answers.filter(Boolean).length, 1, JSON.stringify(answers));
      assert.equal((await readLease(other, 'projector'))?.holder, `h${answers.indexOf(true)}`);
    });

    it('replaces a document only with a newer one, and deletes it only for a later event, when asked to', async function () {
      const docs: Collection<Positioned> = await store.collection<Positioned>('positioned_v1');
      await docs.bulkWrite([
        { kind: 'replace', doc: at('a', 5) },
        { kind: 'replace', doc: at('b', 5) },
        { kind: 'replace', doc: at('c', 5) },
      ]);
      await docs.bulkWrite([
        { kind: 'replace', doc: at('a', 3, 'older'), ifNewer: true },
        { kind: 'replace', doc: at('b', 5, 'same event again'), ifNewer: true },
        { kind: 'replace', doc: at('c', 7), ifNewer: true },
        { kind: 'replace', doc: at('d', 1), ifNewer: true },
        { kind: 'replace', doc: at('e', 2) },
      ]);
      const texts = async () => (await docs.find(T, {}, { sort: { id: 1 } })).items.map((d) => `${d.id}:${d.text}`);
      assert.deepEqual(await texts(), ['a:at 5', 'b:at 5', 'c:at 7', 'd:at 1', 'e:at 2']);

      await docs.bulkWrite([
        { kind: 'delete', tenantId: T, id: 'a', ifOlderThan: 5 },
        { kind: 'delete', tenantId: T, id: 'c', ifOlderThan: 8 },
        { kind: 'delete', tenantId: T, id: 'missing', ifOlderThan: 8 },
        { kind: 'replace', doc: at('a', 4, 'older again'), ifNewer: true },
      ]);
      assert.deepEqual(await texts(), ['a:at 5', 'b:at 5', 'd:at 1', 'e:at 2']);
      // Unconditional writes still replace whatever is there.
      await docs.bulkWrite([{ kind: 'replace', doc: at('a', 1, 'forced') }]);
      assert.equal((await docs.get(T, 'a'))?.text, 'forced');
    });
  });
}
