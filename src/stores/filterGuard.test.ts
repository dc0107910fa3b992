// The read-store boundary: the filters this service builds pass; what only a request could have put there does not.
import assert from 'node:assert/strict';
import { assertSafeFilter, UnsafeFilterError } from './filterGuard.js';
import { keysetFilter, sortKeysOf } from './readCursor.js';

describe('read-store filter guard', () => {
  it('passes the filters the service builds', () => {
    const built = [
      {},
      { status: 'active', patientId: 'p-1', active: true, quantity: 3, 'coverages.clientId': 'c-1' },
      { date: { $gte: '2025-01-01', $lte: '2025-01-31' }, post: { $ne: null }, licenceExpiresOn: { $ne: null, $lt: '2025-02-01' } },
      { status: { $in: ['in-stock', 'assigned'] }, patientId: { $exists: true }, usesLeft: { $lte: 3 } },
      { effectiveFrom: { $lte: '2025-01-01' }, $or: [{ effectiveTo: null }, { effectiveTo: { $gte: '2025-01-01' } }] },
      { $or: [{ _position: { $lt: 4 } }, { _position: { $not: { $type: 'number' } } }] },
      { tags: ['a', 'b'], address: { city: 'Lima' } },
      { $and: [{ searchText: { $regex: /quispe/ } }, { searchText: { $regex: /a\+/ } }] },
      keysetFilter(sortKeysOf({ date: -1, name: 1 }), ['2025-01-01', null, 'id-1']),
      keysetFilter(sortKeysOf({ sortName: 1 }), [null, 'id-1']),
    ];
    for (const filter of built) assert.doesNotThrow(() => assertSafeFilter(filter), JSON.stringify(filter));
  });

  it('refuses operators that run code or that the service never uses', () => {
    for (const filter of [
      { $where: 'sleep(10000)' },
      { $expr: { $function: { body: 'x', args: [], lang: 'js' } } },
      { name: { $where: 'true' } },
      { name: { $options: 'i' } },
      { $text: { $search: 'x' } },
      { $or: [{ a: 1 }, { $where: 'true' }] },
    ]) {
      assert.throws(() => assertSafeFilter(filter), UnsafeFilterError, JSON.stringify(filter));
    }
  });

  it('refuses an object where a value is compared, and a pattern given as text', () => {
    for (const filter of [
      { sortName: { $regex: '(a+)+$' } },
      { sortName: { $gt: { $regex: '(a+)+$' } } },
      { sortName: { $eq: { $ne: null } } },
      { status: { $in: [{ $regex: '.' }] } },
      { address: { city: { $regex: '.' } } },
      { tags: [{ $ne: null }] },
      { id: { $exists: 'yes' } },
      { name: { city: 'Lima', $ne: null } },
      { $and: { a: 1 } },
    ]) {
      assert.throws(() => assertSafeFilter(filter), UnsafeFilterError, JSON.stringify(filter));
    }
  });
});
