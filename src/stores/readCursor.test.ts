// A decoded cursor is a tuple of sort values and nothing else: never an object that a store would read as an operator.
import assert from 'node:assert/strict';
import { decodeCursor, encodeCursor, InvalidCursorError, sortKeysOf } from './readCursor.js';

const keys = sortKeysOf({ name: 1 });
const forged = (v: unknown[], k: unknown = ['name', 'id']): string => Buffer.from(JSON.stringify({ k, v })).toString('base64url');

describe('read cursors', () => {
  it('round-trips strings, finite numbers, booleans and null', () => {
    for (const values of [
      ['Quispe', 'p-1'],
      [null, 'p-2'],
      [12.5, 'p-3'],
      [false, 'p-4'],
    ]) {
      assert.deepEqual(decodeCursor(encodeCursor(keys, values), keys), values);
    }
  });

  it('refuses values a store could read as a query: objects, arrays, and numbers JSON cannot hold', () => {
    const operators: unknown[] = [{ $regex: '(a+)+$' }, { $where: 'sleep(1000)' }, { $gt: '' }, ['a', 'b'], {}];
    for (const value of operators)
      assert.throws(() => decodeCursor(forged([value, 'p-1']), keys), InvalidCursorError, JSON.stringify(value));
    assert.throws(() => decodeCursor(forged(['Quispe', { $ne: null }]), keys), InvalidCursorError);
    // 1e999 parses as Infinity
    const infinite = Buffer.from('{"k":["name","id"],"v":[1e999,"p-1"]}').toString('base64url');
    assert.throws(() => decodeCursor(infinite, keys), InvalidCursorError);
  });

  it('refuses a cursor of another sort, of another shape, or not JSON', () => {
    assert.throws(() => decodeCursor(forged(['Quispe', 'p-1'], ['-name', 'id']), keys), InvalidCursorError);
    assert.throws(() => decodeCursor(forged(['Quispe']), keys), InvalidCursorError);
    assert.throws(() => decodeCursor(Buffer.from('[1,2]').toString('base64url'), keys), InvalidCursorError);
    assert.throws(() => decodeCursor('not-a-cursor', keys), InvalidCursorError);
  });

  it('refuses to issue a cursor whose sort values are not scalars (a sort on a field holding objects is a bug)', () => {
    assert.throws(() => encodeCursor(keys, [{ city: 'Lima' }, 'p-1']), TypeError);
  });
});
