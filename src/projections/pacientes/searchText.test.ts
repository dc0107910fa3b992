// The patient search builds its patterns as RegExp objects of escaped words: the only form the read stores accept.
import assert from 'node:assert/strict';
import { assertSafeFilter } from '../../stores/filterGuard.js';
import { searchFilter } from './searchText.js';

describe('patient search filter', () => {
  it('matches each word literally, as a pattern the store guard accepts', () => {
    const filter = searchFilter('Quispe (a+)+$ 40.1*')!;
    assert.doesNotThrow(() => assertSafeFilter(filter));
    const patterns = (filter.$and as { searchText: { $regex: RegExp } }[]).map((c) => c.searchText.$regex);
    assert.ok(patterns.every((p) => p instanceof RegExp));
    assert.ok(patterns.some((p) => p.test('quispe')));
    assert.equal(searchFilter('   '), null);
  });
});
