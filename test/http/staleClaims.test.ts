// A correction moves a unique value in three writes (claim the new one, correct the record, give back the old one). If
// the process stops before the last, the old value stays claimed by a record that no longer carries it: after the
// grace period the next claim takes it over, exactly like the claim of a record that never appeared.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, type StaffWorld } from './staffWorld.js';
import { handleCommand } from '../../src/commands/handleCommand.js';
import { jobPositionDecider } from '../../src/commands/cargos-laborales/jobPositionDecider.js';
import { commandContextFor } from './staleClaimsSupport.js';

describe('Unique values left claimed by an interrupted correction', () => {
  let world: StaffWorld;
  before(async () => {
    world = await startStaffWorld();
  });
  after(async () => world?.close());

  it('a job position code a position no longer carries is taken over after the grace period, never before', async () => {
    const created = await world.createPosition(world.a, { code: 'OLD-1' });
    const positionId = created.body.id as string;
    // The correction wrote the new code, then stopped before giving back 'OLD-1'.
    const corrected = await handleCommand(
      world.server.services.events,
      jobPositionDecider,
      { type: 'CorrectJobPosition', aggregateId: positionId, data: { code: 'NEW-1' } } as never,
      commandContextFor(world.server, world.server.admin.companyId),
    );
    assert.ok(corrected.events.length > 0);
    expectStatus(
      await world.call(world.a, 'POST', '/cargos-laborales', {
        json: { code: 'OLD-1', name: 'x', clinical: false, licenceRequired: false },
      }),
      409,
    );
    world.server.clock.advance(11 * 60 * 1000);
    world.a = await world.server.signInAndSelect(world.server.admin);
    expectStatus(
      await world.call(world.a, 'POST', '/cargos-laborales', {
        json: { code: 'OLD-1', name: 'x', clinical: false, licenceRequired: false },
      }),
      201,
    );
  });
});
