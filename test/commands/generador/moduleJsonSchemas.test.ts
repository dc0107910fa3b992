// A module's JSON Schemas compile under the service's Ajv (strict, 2020-12) and accept and refuse what its definition says.
import assert from 'node:assert/strict';
import { newAjv } from '../../../src/http/validation.js';
import {
  createBodySchema,
  listFilterProperties,
  patchBodySchema,
  recordViewSchema,
} from '../../../src/commands/generador/shared/moduleJsonSchemas.js';
import type { ModuleDefinition } from '../../../src/commands/generador/shared/definitionTypes.js';
import { VACUNACION_CODE, vacunacionHbv } from './vacunacionHbv.js';

const P = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const dose = { doseNumber: 1, administeredOn: '2026-03-01', lot: 'AB-12', antiHbsTitre: 12.5 };

describe('module JSON Schemas', () => {
  const ajv = newAjv({ coerce: false, defaults: true });
  const create = ajv.compile(createBodySchema(vacunacionHbv));
  const patch = ajv.compile(patchBodySchema(vacunacionHbv));
  const view = newAjv({ coerce: false, defaults: false }).compile(recordViewSchema(vacunacionHbv, VACUNACION_CODE));

  it('a create needs the patient and the required fields, fills defaults and refuses what is undeclared or out of bounds', () => {
    const body = { patientId: P, values: { ...dose } };
    assert.equal(create(body), true, JSON.stringify(create.errors));
    assert.equal((body.values as Record<string, unknown>).schedule, 'dialysis');
    assert.equal(create({ values: { ...dose } }), false);
    assert.equal(create({ patientId: P, values: { ...dose, doseNumber: 1.5 } }), false);
    assert.equal(create({ patientId: P, values: { ...dose, doseNumber: 7 } }), false);
    assert.equal(create({ patientId: P, values: { ...dose, administeredOn: '2026-13-01' } }), false);
    assert.equal(create({ patientId: P, values: { ...dose, lot: 'a b' } }), false);
    assert.equal(create({ patientId: P, values: { ...dose, schedule: 'weekly' } }), false);
    assert.equal(create({ patientId: P, values: { ...dose, colour: 'red' } }), false);
    const { lot: _lot, ...noLot } = dose;
    assert.equal(create({ patientId: P, values: noLot }), false);
    assert.equal(create({ patientId: 'nope', values: { ...dose } }), false);
  });

  it('a patch takes any field, null clears an optional one, never a required one, and at least one value', () => {
    assert.equal(patch({ values: { antiHbsTitre: null }, reason: 'typo' }), true, JSON.stringify(patch.errors));
    assert.equal(patch({ values: { lot: 'X1' }, reason: 'typo' }), true);
    assert.equal(patch({ values: { lot: null }, reason: 'typo' }), false);
    assert.equal(patch({ values: {}, reason: 'typo' }), false);
    assert.equal(patch({ values: { lot: 'X1' } }), false);
  });

  it('a record view has the record fields, its state and its values', () => {
    const record = {
      id: P,
      module: VACUNACION_CODE,
      revision: 1,
      version: { major: 1, minor: 0 },
      patientId: P,
      state: 'recorded',
      archived: false,
      values: { ...dose, schedule: 'dialysis' },
      createdAt: '2026-03-01T10:00:00.000Z',
      createdBy: 'u1',
      updatedAt: '2026-03-01T10:00:00.000Z',
      updatedBy: 'u1',
    };
    assert.equal(view(record), true, JSON.stringify(view.errors));
    assert.equal(view({ ...record, state: 'lost' }), false);
    assert.equal(view({ ...record, module: 'other' }), false);
    // A record written under an older major with wider bounds (a narrowing major keeps it as written) still reads.
    const older = { ...record.values, doseNumber: 9, lot: 'written before the pattern' };
    assert.equal(view({ ...record, values: older }), true, JSON.stringify(view.errors));
    assert.equal(view({ ...record, values: { ...older, doseNumber: 'nine' } }), false);
    // A record just created answers revision 0 (its ETag W/"0"), as the service's own contract says.
    assert.equal(view({ ...record, revision: 0 }), true, JSON.stringify(view.errors));
  });

  it('every field type compiles, and list filters are typed from their field (query strings coerced)', () => {
    const all: ModuleDefinition = {
      name: 'All',
      patientLinked: false,
      fields: [
        { name: 'a', label: 'A', type: 'text' },
        { name: 'b', label: 'B', type: 'boolean' },
        { name: 'c', label: 'C', type: 'date-time' },
        { name: 'd', label: 'D', type: 'multi-choice', choices: ['x', 'y'], minItems: 1, maxItems: 2 },
        { name: 'e', label: 'E', type: 'reference', refersTo: 'module', module: 'other-mod' },
        { name: 'f', label: 'F', type: 'number' },
      ],
      filterFields: ['a', 'b', 'c', 'd', 'e', 'f'],
      sortFields: ['c'],
    };
    const createAll = ajv.compile(createBodySchema(all));
    assert.equal(createAll({ values: { d: ['x', 'y'], c: '2026-01-01T00:00:00Z', e: P } }), true, JSON.stringify(createAll.errors));
    assert.equal(createAll({ values: { d: ['x', 'x'] } }), false);
    assert.equal(createAll({ values: { d: [] } }), false);
    const query = newAjv({ coerce: true, defaults: true }).compile({
      type: 'object',
      properties: listFilterProperties(all),
      additionalProperties: false,
    });
    const q: Record<string, unknown> = { b: 'true', f: '2.5', d: 'x', sort: 'c', order: 'desc', archived: 'false' };
    assert.equal(query(q), true, JSON.stringify(query.errors));
    assert.deepEqual([q.b, q.f, q.archived], [true, 2.5, false]);
    assert.equal(query({ sort: 'a' }), false);
    assert.equal(query({ d: 'z' }), false);
    assert.equal(query({ patientId: P }), false);
  });
});
