// A module's validators compile once per (company, module, major.minor), are reused after, stay bounded (LRU), and
// answer the service's 422 with `/body/values/<field>` and `/query/<name>` pointers.
import assert from 'node:assert/strict';
import { ModuleValidatorCache, type ModuleVersionRef } from '../../src/http/routes/generador/compiledModules.js';
import { ProblemError } from '../../src/problems.js';
import { VACUNACION_CODE, vacunacionHbv } from '../commands/generador/vacunacionHbv.js';

const P = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const module = (tenantId: string, minor = 0): ModuleVersionRef => ({
  tenantId,
  code: VACUNACION_CODE,
  version: { major: 1, minor },
  definition: vacunacionHbv,
});

function problemOf(work: () => unknown): ProblemError {
  try {
    work();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  assert.fail('expected a problem');
}

describe('Generador: compiled module validators', () => {
  it('compile once per version: a second request reuses them; a new minor or another company compiles its own', () => {
    const cache = new ModuleValidatorCache(10);
    cache.validators(module('t1')).create({ patientId: P, values: { doseNumber: 1, administeredOn: '2026-03-01', lot: 'A1' } });
    cache.validators(module('t1')).create({ patientId: P, values: { doseNumber: 2, administeredOn: '2026-04-01', lot: 'A1' } });
    assert.equal(cache.compiles, 1);
    cache.validators(module('t1', 1));
    cache.validators(module('t2'));
    assert.equal(cache.compiles, 3);
    cache.validators(module('t1', 1));
    assert.equal(cache.compiles, 3);
  });

  it('stay bounded: the least recently used version leaves first', () => {
    const cache = new ModuleValidatorCache(2);
    cache.validators(module('a'));
    cache.validators(module('b'));
    cache.validators(module('a')); // a used last: b is the oldest
    cache.validators(module('c'));
    assert.equal(cache.size, 2);
    cache.validators(module('a'));
    assert.equal(cache.compiles, 3);
    cache.validators(module('b'));
    assert.equal(cache.compiles, 4);
  });

  it('a create fills defaults; invalid values answer 422 naming /body/values/<field>', () => {
    const v = new ModuleValidatorCache(2).validators(module('t1'));
    const body = v.create({ patientId: P, values: { doseNumber: 1, administeredOn: '2026-03-01', lot: 'A1' } });
    assert.equal(body.values.schedule, 'dialysis');
    const p = problemOf(() => v.create({ values: { doseNumber: 0, administeredOn: 'yesterday', lot: 'A\u202EB', extra: 1 } }));
    assert.equal(p.status, 422);
    assert.equal(p.code, 'validation-failed');
    const pointers = p.errors!.map((e) => e.pointer).sort();
    assert.deepEqual(pointers, [
      '/body/patientId',
      '/body/values/administeredOn',
      '/body/values/doseNumber',
      '/body/values/extra',
      '/body/values/lot',
      '/body/values/lot',
    ]);
    const patch = problemOf(() => v.patch({ values: { lot: null }, reason: 'typo' }));
    assert.ok(patch.errors!.every((e) => e.pointer === '/body/values/lot'));
  });

  it('a list query is coerced from strings as built-in lists are, and refuses unknown names or values', () => {
    const v = new ModuleValidatorCache(2).validators(module('t1'));
    const q = v.query({ patientId: P, doseNumber: '2', archived: 'true', sort: 'administeredOn', order: 'desc' });
    assert.deepEqual(q, { patientId: P, doseNumber: 2, archived: true, sort: 'administeredOn', order: 'desc', limit: q.limit });
    assert.equal(typeof q.limit, 'number');
    const p = problemOf(() => v.query({ sort: 'lot', colour: 'red', state: 'lost' }));
    assert.deepEqual(p.errors!.map((e) => e.pointer).sort(), ['/query/colour', '/query/sort', '/query/state']);
  });
});
