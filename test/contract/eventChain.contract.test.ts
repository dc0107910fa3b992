// The tenant hash chain, held by every event store: each event's hash covers its content, metadata and the hash
// of the tenant's event before it, computed at append; a genesis record says where the chain starts.
import assert from 'node:assert/strict';
import type { EventStore, NewEvent } from '../../src/stores/eventStore.js';
import { streamName } from '../../src/stores/eventStore.js';
import { chainHash, genesisHash, verifyChainSegment } from '../../src/stores/chain/hashChain.js';
import { eventStoreImplementations } from '../support/storeImplementations.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';

for (const impl of eventStoreImplementations()) {
  describe(`EventStore hash chain contract: ${impl.name}`, function () {
    let store: EventStore;
    let tenant: string;
    before(async () => (store = await impl.open()));
    after(() => impl.cleanup());
    beforeEach(() => (tenant = uniqueTenant()));

    const append = (s: string, events: NewEvent[]) => store.appendToStream(s, events, { expectedRevision: 'any' });

    it('chains every event of a tenant to the one before it, from a genesis record at its first event', async () => {
      const a = streamName(tenant, 'patient', 'p1');
      const b = streamName(tenant, 'session', 's1');
      const first = await append(a, [newEvent(tenant, { n: 1 }), newEvent(tenant, { n: 2 })]);
      await append(b, [newEvent(tenant, { n: 3 })]);
      await append(a, [newEvent(tenant, { n: 4 })]);

      const genesis = await store.chainGenesis(tenant);
      assert.ok(genesis, 'a genesis record');
      const chain = await store.readChain(tenant);
      assert.equal(chain.length, 4);
      assert.equal(genesis.fromPosition, chain[0]!.position, 'the chain starts at the tenant first event');
      assert.equal(chain[1]!.position, first.position);
      let prev = genesisHash(tenant);
      for (const e of chain) {
        assert.equal(e.hash, chainHash(prev, e), `hash of ${e.streamName}@${e.revision}`);
        prev = e.hash!;
      }
      assert.deepEqual(await store.chainHead(tenant), { position: chain[3]!.position, hash: prev, count: 4 });
      const fifth = await append(b, [newEvent(tenant, { n: 5 })]);
      assert.equal((await store.chainHead(tenant))?.count, 5, 'the head counts the events appended since');
      assert.equal((await store.chainHead(tenant))?.position, fifth.position);
      assert.deepEqual(verifyChainSegment(tenant, genesisHash(tenant), chain), { ok: true, checked: 4, head: prev });
    });

    it('keeps one unbroken chain per tenant under concurrent appends to many streams, and tenants apart', async () => {
      const other = uniqueTenant();
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          append(streamName(i % 3 === 0 ? other : tenant, 'patient', `p${i % 7}`), [
            newEvent(i % 3 === 0 ? other : tenant, { i }),
            newEvent(i % 3 === 0 ? other : tenant, { i, second: true }),
          ]),
        ),
      );
      for (const t of [tenant, other]) {
        const chain = await store.readChain(t);
        assert.deepEqual(
          chain.map((e) => e.position),
          [...chain.map((e) => e.position)].sort((x, y) => (x < y ? -1 : 1)),
        );
        const result = verifyChainSegment(t, genesisHash(t), chain);
        assert.equal(result.ok, true, JSON.stringify(result));
        assert.equal(result.checked, t === tenant ? 40 : 20);
      }
    });

    it('pages the chain after a position; a retried append adds no link', async () => {
      const s = streamName(tenant, 'patient', 'p1');
      const events = [newEvent(tenant, { n: 1 })];
      await store.appendToStream(s, events, { expectedRevision: 'no_stream' });
      await store.appendToStream(s, events, { expectedRevision: 'no_stream' }); // the same append retried
      await append(s, [newEvent(tenant, { n: 2 }), newEvent(tenant, { n: 3 })]);
      const all = await store.readChain(tenant);
      assert.equal(all.length, 3);
      const page = await store.readChain(tenant, { after: all[0]!.position, maxCount: 1 });
      assert.deepEqual(
        page.map((e) => e.id),
        [all[1]!.id],
      );
      assert.equal(verifyChainSegment(tenant, all[0]!.hash!, all.slice(1)).ok, true, 'a segment verifies from the hash before it');
    });

    it('a tenant without events has no genesis and no head', async () => {
      assert.equal(await store.chainGenesis(tenant), null);
      assert.equal(await store.chainHead(tenant), null);
      assert.deepEqual(await store.readChain(tenant), []);
    });
  });
}
