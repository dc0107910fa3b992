// The cache of prepared pages: an answer is served under the stamp it was prepared for only, concurrent misses share
// one preparation, a failure is not kept, the latest preparation is the one kept, and the size stays bounded.
import assert from 'node:assert/strict';
import { PreparedCache } from './preparedPages.js';

const counting = () => {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    prepare: (value: string) => async () => {
      calls++;
      return value;
    },
  };
};

describe('prepared pages cache', () => {
  it('serves the kept answer while the stamp is the same, and prepares again once it changes', async () => {
    const cache = new PreparedCache<string>(4);
    const made = counting();
    assert.equal(await cache.answer('k', 1, made.prepare('first')), 'first');
    assert.equal(await cache.answer('k', 1, made.prepare('unused')), 'first');
    assert.equal(await cache.answer('k', 2, made.prepare('second')), 'second');
    assert.equal(await cache.answer('k', 2, made.prepare('unused')), 'second');
    assert.equal(made.calls, 2);
  });

  it('prepares once for requests that miss together', async () => {
    const cache = new PreparedCache<string>(4);
    const made = counting();
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.answer('k', 7, made.prepare('page'))));
    assert.deepEqual(answers, ['page', 'page', 'page', 'page', 'page']);
    assert.equal(made.calls, 1);
  });

  it('keeps no failed preparation: the next request prepares again', async () => {
    const cache = new PreparedCache<string>(4);
    await assert.rejects(
      cache.answer('k', 1, () => Promise.reject(new Error('invalid cursor'))),
      /invalid cursor/,
    );
    assert.equal(cache.size, 0);
    assert.equal(await cache.answer('k', 1, async () => 'page'), 'page');
  });

  it('keeps the latest preparation whatever its stamp: a rebuilt collection may stamp lower than the one it replaced', async () => {
    const cache = new PreparedCache<string>(4);
    await cache.answer('k', 5, async () => 'replaced collection');
    assert.equal(await cache.answer('k', 4, async () => 'rebuilt'), 'rebuilt');
    assert.equal(await cache.answer('k', 4, async () => 'unused'), 'rebuilt');
  });

  it('holds at most its cap, dropping the least recently used first', async () => {
    const cache = new PreparedCache<string>(2);
    await cache.answer('a', 1, async () => 'A');
    await cache.answer('b', 1, async () => 'B');
    await cache.answer('a', 1, async () => 'unused'); // a is now the most recent
    await cache.answer('c', 1, async () => 'C');
    assert.equal(cache.size, 2);
    assert.equal(await cache.answer('a', 1, async () => 'A again'), 'A');
    assert.equal(await cache.answer('b', 1, async () => 'B again'), 'B again');
  });
});
