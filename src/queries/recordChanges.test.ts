// Field-level changes between two versions of a record: given the record before and after an event, the changes.
import assert from 'node:assert/strict';
import { changesBetween } from './recordChanges.js';

describe('changesBetween: what an event changed, field by field', () => {
  it('given no record before, every field of the new one is set from null', () => {
    assert.deepEqual(changesBetween(null, { name: 'A', post: { kg: 1 }, revision: 0, _position: 4 }), [
      { field: '/name', from: null, to: 'A' },
      { field: '/post', from: null, to: { kg: 1 } },
    ]);
  });

  it('given a nested value corrected, names it by JSON pointer with its value before and after; bookkeeping is no change', () => {
    const before = { post: { kg: 62.8, bp: '120/80' }, tags: ['a'], revision: 3, tenantId: 't', 'a/b': 1 };
    const after = { post: { kg: 63.2, bp: '120/80' }, tags: ['a', 'b'], revision: 4, tenantId: 't', 'a/b': 2 };
    assert.deepEqual(changesBetween(before, after), [
      { field: '/post/kg', from: 62.8, to: 63.2 },
      { field: '/tags/1', from: null, to: 'b' },
      { field: '/a~1b', from: 1, to: 2 },
    ]);
  });

  it('given a field cleared, it changes to null; given nothing changed, no change', () => {
    assert.deepEqual(changesBetween({ note: 'x', n: 1 }, { n: 1 }), [{ field: '/note', from: 'x', to: null }]);
    assert.deepEqual(changesBetween({ n: 1, at: undefined }, { n: 1, at: null }), []);
  });
});
