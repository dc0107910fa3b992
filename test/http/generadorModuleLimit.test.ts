// A company keeps a bounded number of modules (each brings routes, validators and schemas to its contract): the one past
// the limit is a 409 naming it, whatever the others' status.
import assert from 'node:assert/strict';
import { GENERATOR_LIMITS } from '../../src/commands/generador/shared/definitionTypes.js';
import { expectStatus, startStaffWorld, type StaffWorld } from './staffWorld.js';

const minimal = (code: string) => ({
  code,
  name: `Registro ${code}`,
  patientLinked: false,
  fields: [{ name: 'value', label: 'Valor', type: 'integer' }],
  filterFields: [],
  sortFields: [],
});

describe('Generador: modules per company', function () {
  this.timeout(120_000); // hundreds of definitions on a loaded machine
  let w: StaffWorld;
  before(async () => {
    w = await startStaffWorld();
  });
  after(async () => w?.close());

  it(`refuses the module past ${GENERATOR_LIMITS.modulesPerCompany} with 409 module-limit-reached; another company is not counted`, async () => {
    for (let i = 0; i < GENERATOR_LIMITS.modulesPerCompany; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, (_, k) =>
          w.call(w.a, 'POST', '/generador/modulos', { json: minimal(`registro-${i + k}`) }).then((a) => expectStatus(a, 201)),
        ),
      );
    const refused = await w.call(w.a, 'POST', '/generador/modulos', { json: minimal('uno-mas') });
    expectStatus(refused, 409);
    assert.equal(refused.body.type, '/problems/module-limit-reached');
    expectStatus(await w.call(w.b, 'POST', '/generador/modulos', { json: minimal('uno-mas') }), 201);
  });
});
