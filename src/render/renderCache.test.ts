import assert from 'node:assert/strict';
import { RenderCache } from './renderCache.js';

const bytes = (n: number, fill = 1): Buffer => Buffer.alloc(n, fill);

describe('RenderCache', () => {
  it('answers a key only at the version it was rendered from, one entry per key', () => {
    const cache = new RenderCache(1000);
    cache.set('t/s1', '3:x', bytes(100));
    assert.ok(cache.get('t/s1', '3:x')?.equals(bytes(100)));
    assert.equal(cache.get('t/s1', '4:x'), null);
    cache.set('t/s1', '4:x', bytes(120, 2));
    assert.equal(cache.get('t/s1', '3:x'), null);
    assert.deepEqual(cache.stats(), { entries: 1, bytes: 120, maxBytes: 1000 });
  });

  it('keeps at most maxBytes, dropping the least recently used first, and never keeps one over a quarter of it', () => {
    const cache = new RenderCache(1000);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 'v', bytes(250));
    assert.ok(cache.get('a', 'v'));
    cache.set('e', 'v', bytes(250));
    assert.deepEqual(
      ['a', 'b', 'c', 'd', 'e'].map((key) => cache.get(key, 'v') !== null),
      [true, false, true, true, true],
    );
    cache.set('huge', 'v', bytes(251));
    assert.equal(cache.get('huge', 'v'), null);
    assert.equal(cache.stats().bytes, 1000);
  });
});
