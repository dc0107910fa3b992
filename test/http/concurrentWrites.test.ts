// Unconditional writes to one record from many clients at once all land: the process serializes writes per
// stream and retries lost races with jitter; 409 is left for real conflicts.
import assert from 'node:assert/strict';
import { expectStatus, startPacientesWorld, type PacientesWorld } from './pacientesWorld.js';

describe('concurrent writes to one record', () => {
  let world: PacientesWorld;
  before(async () => {
    world = await startPacientesWorld();
  });
  after(async () => world?.close());

  it('records 40 allergies sent at once to one patient, none refused', async () => {
    const patient = expectStatus(await world.register(world.a), 201);
    const id = patient.body.id as string;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        world.call(world.a, 'POST', `/pacientes/${id}/alergias`, { json: { substance: `substance ${i}` } }),
      ),
    );
    const refused = answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${JSON.stringify(a.body)}`);
    assert.deepEqual(refused, []);
    const read = expectStatus(await world.call(world.a, 'GET', `/pacientes/${id}`), 200);
    // One event per allergy after the registration: revision 40 means every one of them landed.
    assert.equal(read.headers.get('etag'), 'W/"40"');
  });

  it('still answers 412 to a conditional write that lost', async () => {
    const patient = expectStatus(await world.register(world.a), 201);
    const id = patient.body.id as string;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        world.call(world.a, 'POST', `/pacientes/${id}/alergias`, { json: { substance: `s${i}` }, headers: { 'if-match': 'W/"0"' } }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 412, 412, 412, 412]);
  });
});
