// The EventStoreDB chain link, without a server: written last in the metadata, it splits off to the metadata as
// appended, its hashes are the chain's, and one tenant's appends run one at a time in call order.
import assert from 'node:assert/strict';
import { chainHash, genesisHash } from '../chain/hashChain.js';
import { CHAIN_KEY, linkEvents, splitChain, tenantQueue } from './esdbChain.js';
import { newEvent } from '../../../test/support/eventFixtures.js';

describe('EventStoreDB chain link', () => {
  it('links each event to the one before it from the tenant head, and splits back to the metadata as appended', () => {
    const events = [newEvent('t1', { n: 1 }), newEvent('t1', { n: 2 })];
    const first = linkEvents('t1', 't1.patient-1', null, events);
    const stored = JSON.parse(JSON.stringify(first.metadata)) as Record<string, unknown>[]; // what the server gives back
    let prev = genesisHash('t1');
    stored.forEach((metadata, i) => {
      const { metadata: original, link } = splitChain(metadata);
      assert.equal(JSON.stringify(original), JSON.stringify(events[i]!.metadata), 'the same text as hashed');
      prev = chainHash(prev, { ...events[i]!, streamName: 't1.patient-1', metadata: original });
      assert.deepEqual(link, { hash: prev, seq: i });
    });
    assert.deepEqual(first.head, { hash: prev, count: 2 });
    const next = linkEvents('t1', 't1.patient-2', first.head, [newEvent('t1')]);
    assert.equal((next.metadata[0]![CHAIN_KEY] as { seq: number }).seq, 2);
    assert.deepEqual(splitChain({ ...events[0]!.metadata }).link, null, 'an event from before the chain has no link');
  });

  it("runs one tenant's work one at a time in call order, other tenants alongside, past a failure", async () => {
    const queue = tenantQueue();
    const order: string[] = [];
    const work =
      (name: string, ms: number, fail = false) =>
      async () => {
        order.push(`${name}:start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(`${name}:end`);
        if (fail) throw new Error(name);
      };
    await Promise.allSettled([queue('a', work('a1', 20, true)), queue('a', work('a2', 1)), queue('b', work('b1', 5))]);
    assert.ok(order.indexOf('a1:end') < order.indexOf('a2:start'));
    assert.ok(order.indexOf('b1:start') < order.indexOf('a1:end'), 'another tenant does not wait');
  });
});
