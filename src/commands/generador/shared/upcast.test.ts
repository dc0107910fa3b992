// The mapping of older records: each step, and a chain of majors applied in order.
import assert from 'node:assert/strict';
import { applyUpcast, upcastToCurrent } from './upcast.js';
import type { MajorVersion } from './moduleFold.js';

const definition = { name: 'm', patientLinked: false, fields: [], filterFields: [], sortFields: [] };

describe('upcasting module records', () => {
  it('renames, defaults only what is absent, converts, scales, maps choices and drops', () => {
    const out = applyUpcast({ lote: 'A1', titre: 12, dose: '2', schedule: 'std', old: true, tags: ['a', 'b'] }, [
      { op: 'rename', from: 'lote', to: 'lot' },
      { op: 'default', field: 'site', value: 'deltoid' },
      { op: 'default', field: 'lot', value: 'never' },
      { op: 'convert', field: 'dose', to: 'integer' },
      { op: 'scale', field: 'titre', factor: 0.1 },
      { op: 'mapChoices', field: 'schedule', map: { std: 'standard' } },
      { op: 'mapChoices', field: 'tags', map: { a: 'b' } },
      { op: 'drop', field: 'old' },
    ]);
    assert.deepEqual(out, { lot: 'A1', titre: 1.2, dose: 2, schedule: 'standard', site: 'deltoid', tags: ['b'] });
  });

  it('maps only the choices the map names: a choice called like an object member (toString) stays itself', () => {
    const map = JSON.parse('{"std": "standard"}') as Record<string, string>; // as read back from the log
    const out = applyUpcast({ schedule: 'toString', tags: ['constructor', 'std'] }, [
      { op: 'mapChoices', field: 'schedule', map },
      { op: 'mapChoices', field: 'tags', map },
    ]);
    assert.deepEqual(out, { schedule: 'toString', tags: ['constructor', 'standard'] });
  });

  it('leaves out a value that cannot be converted, and never changes the record it was given', () => {
    const values = { dose: 'first' };
    assert.deepEqual(applyUpcast(values, [{ op: 'convert', field: 'dose', to: 'number' }]), {});
    assert.deepEqual(values, { dose: 'first' });
  });

  it('applies every major after the one a record was written with, in order', () => {
    const majors: MajorVersion[] = [
      { major: 1, minor: 2, definition, upcast: [] },
      { major: 2, minor: 0, definition, upcast: [{ op: 'rename', from: 'a', to: 'b' }] },
      {
        major: 3,
        minor: 1,
        definition,
        upcast: [
          { op: 'rename', from: 'b', to: 'c' },
          { op: 'default', field: 'd', value: 1 },
        ],
      },
    ];
    assert.deepEqual(upcastToCurrent({ a: 'x' }, 1, majors), { c: 'x', d: 1 });
    assert.deepEqual(upcastToCurrent({ b: 'y', d: 5 }, 2, majors), { c: 'y', d: 5 });
    assert.deepEqual(upcastToCurrent({ c: 'z' }, 3, majors), { c: 'z' });
  });
});
