// A date-time has one spelling: its UTC instant, so equal instants are equal and text order is time order.
import assert from 'node:assert/strict';
import { canonicalInstant, canonicalValues } from './canonicalValues.js';
import type { ModuleField } from './definitionTypes.js';

describe('canonical module values', () => {
  it('spells an offset date-time as its UTC instant, leaving other fields and clearing nulls as they are', () => {
    const fields = new Map<string, ModuleField>([
      ['takenAt', { name: 'takenAt', label: 'Taken at', type: 'date-time' }],
      ['note', { name: 'note', label: 'Note', type: 'text' }],
    ]);
    assert.deepEqual(canonicalValues(fields, { takenAt: '2026-03-01T09:30:00-05:00', note: '2026-03-01T09:30:00-05:00' }), {
      takenAt: '2026-03-01T14:30:00.000Z',
      note: '2026-03-01T09:30:00-05:00',
    });
    assert.deepEqual(canonicalValues(fields, { takenAt: null }), { takenAt: null });
  });

  it('orders instants as text once canonical, where their offsets misorder them', () => {
    const early = '2026-03-01T10:00:00+05:00'; // 05:00Z
    const late = '2026-03-01T08:00:00Z';
    assert.ok(early > late);
    assert.ok(canonicalInstant(early) < canonicalInstant(late));
    assert.equal(canonicalInstant('not a date'), 'not a date');
  });
});
