// The snapshot codec: what JSON drops comes back as it was, plain objects stay plain, and what no snapshot can hold is
// refused with its name.
import assert from 'node:assert/strict';
import { decodeSnapshotState, encodeSnapshotState } from './snapshotCodec.js';

const stored = (value: unknown): unknown => decodeSnapshotState(JSON.parse(JSON.stringify(encodeSnapshotState(value))));

describe('snapshot codec', () => {
  it('keeps undefined fields and entries, Sets, Maps, Dates, bigints, NaN, Infinity and -0 through JSON', () => {
    const state = {
      missing: undefined,
      list: [undefined, 1, 'a', null],
      ids: new Set(['a', 'b']),
      byDay: new Map<string, unknown>([['2026-11-27', { count: 2, last: undefined }]]),
      since: new Date(Date.UTC(2026, 10, 27, 6)),
      big: 12345678901234567890n,
      odd: [NaN, Infinity, -Infinity, -0, 0],
      nested: { deeper: { set: new Set([new Map([[1, new Date(0)]])]) } },
    };
    assert.deepEqual(stored(state), state);
    assert.ok(Object.is((stored({ z: -0 }) as { z: number }).z, -0));
  });

  it('leaves a plain object that uses the tag or __proto__ as a key a plain object with that key', () => {
    const tricky = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    tricky['\u0000snapshot'] = 'set';
    const back = stored(tricky) as Record<string, unknown>;
    assert.deepEqual(Object.keys(back).sort(), Object.keys(tricky).sort());
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('refuses class instances, functions and symbols by name', () => {
    class Tally {
      n = 1;
    }
    assert.throws(() => encodeSnapshotState({ t: new Tally() }), /a snapshot cannot hold a Tally/);
    assert.throws(() => encodeSnapshotState({ f: () => 1 }), /cannot hold a function/);
    assert.throws(() => encodeSnapshotState({ s: Symbol('x') }), /cannot hold a symbol/);
  });
});
