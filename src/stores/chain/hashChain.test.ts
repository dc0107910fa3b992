// The chain rule as given/when/then: given a chained segment, when one event's content, order or tenant changes,
// then the verification names that event; otherwise it answers the head.
import assert from 'node:assert/strict';
import type { ChainedEvent } from '../eventStore.js';
import { chainHash, genesisHash, verifyChainSegment } from './hashChain.js';

function chained(tenant: string, n: number): ChainedEvent[] {
  let prev = genesisHash(tenant);
  return Array.from({ length: n }, (_, i) => {
    const e = {
      id: `00000000-0000-4000-8000-00000000000${i}`,
      type: 'NoteRecorded',
      data: { text: `note ${i}`, nested: { b: 1, a: [i] } },
      metadata: { tenantId: tenant, actor: 'u1' } as unknown as ChainedEvent['metadata'],
      streamName: `${tenant}.note-1`,
      revision: i,
      position: BigInt(10 + i),
    };
    prev = chainHash(prev, e);
    return { ...e, hash: prev };
  });
}

describe('hash chain', () => {
  it('an untouched segment verifies up to its head', () => {
    const events = chained('t1', 4);
    assert.deepEqual(verifyChainSegment('t1', genesisHash('t1'), events), { ok: true, checked: 4, head: events[3]!.hash });
  });

  it('edited data, a swapped order, a removed event or another tenant name the first event that no longer links', () => {
    const edited = chained('t1', 4);
    edited[2] = { ...edited[2]!, data: { ...edited[2]!.data, text: 'changed' } };
    const swapped = chained('t1', 4);
    [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
    const removed = chained('t1', 4).filter((_, i) => i !== 1);
    for (const [events, at] of [
      [edited, 2],
      [swapped, 1],
      [removed, 1],
    ] as const) {
      const result = verifyChainSegment('t1', genesisHash('t1'), events);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.equal(result.broken.eventId, events[at]!.id);
        assert.equal(result.checked, at);
        assert.equal(result.broken.foundHash, events[at]!.hash);
      }
    }
    assert.equal(verifyChainSegment('t2', genesisHash('t1'), chained('t1', 1)).ok, false, 'not a segment of t2');
    assert.notEqual(genesisHash('t1'), genesisHash('t2'));
  });
});
