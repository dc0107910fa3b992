// GET /colaboradores/firma-habilitada: who may sign clinical records, over real HTTP, with every reason it gives.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, type Json, type StaffWorld } from './staffWorld.js';

describe('Colaboradores over HTTP: who may sign clinical records', () => {
  let world: StaffWorld;
  let today: string;
  const verdict = async (userId?: string, at?: string): Promise<Json> => {
    const query = new URLSearchParams({ ...(userId ? { userId } : {}), ...(at ? { at } : {}) }).toString();
    return expectStatus(await world.call(world.a, 'GET', `/colaboradores/firma-habilitada${query ? `?${query}` : ''}`), 200).body;
  };
  /** A member linked to a new staff record under a new position. */
  const staffUser = async (position: Json = {}, staff: Json = {}): Promise<{ userId: string; staffId: string; positionId: string }> => {
    const positionId = (await world.createPosition(world.a, position)).body.id as string;
    const userId = await world.newMember();
    const hired = await world.hire(world.a, positionId, { userId, ...staff });
    return { userId, staffId: hired.body.id as string, positionId };
  };

  before(async () => {
    world = await startStaffWorld();
    today = world.server.clock.now().toISOString().slice(0, 10);
  });
  after(async () => world?.close());

  it('allows an active, licensed, clinical staff member and names the record', async () => {
    const { userId, staffId } = await staffUser();
    assert.deepEqual(await verdict(userId), { allowed: true, reasons: [], staffId });
  });

  it('answers no-staff-record for a user without one, the caller by default', async () => {
    assert.deepEqual(await verdict(), { allowed: false, reasons: ['no-staff-record'], staffId: null });
    assert.deepEqual((await verdict(await world.newMember())).reasons, ['no-staff-record']);
  });

  it('answers position-not-clinical and position-inactive', async () => {
    const admin = await staffUser({ clinical: false, licenceRequired: false, licensingBody: undefined }, { licence: undefined });
    assert.deepEqual(await verdict(admin.userId), { allowed: false, reasons: ['position-not-clinical'], staffId: admin.staffId });
    const nurse = await staffUser();
    expectStatus(
      await world.call(world.a, 'POST', `/cargos-laborales/${nurse.positionId}/desactivacion`, { json: { reason: 'closed' } }),
      200,
    );
    assert.deepEqual((await verdict(nurse.userId)).reasons, ['position-inactive']);
  });

  it('answers licence-missing when the position comes to require one, and licence-expired', async () => {
    const tech = await staffUser({ licenceRequired: false, licensingBody: undefined }, { licence: undefined });
    assert.equal((await verdict(tech.userId)).allowed, true);
    const fixed = await world.call(world.a, 'PATCH', `/cargos-laborales/${tech.positionId}`, {
      json: { licenceRequired: true, licensingBody: 'CTMP', reason: 'regulation' },
      headers: { 'if-match': 'W/"0"' },
    });
    expectStatus(fixed, 200);
    assert.deepEqual((await verdict(tech.userId)).reasons, ['licence-missing']);

    const lapsed = await staffUser({}, { licence: { body: 'CEP', number: '77', expiresOn: '2024-06-30' } });
    assert.deepEqual((await verdict(lapsed.userId)).reasons, ['licence-expired']);
    // Valid through its expiry date, asked about that day.
    assert.deepEqual((await verdict(lapsed.userId, '2024-06-30T12:00:00Z')).reasons, []);
  });

  it('answers staff-not-yet-hired and staff-terminated', async () => {
    const future = await staffUser({}, { hireDate: '2099-01-01' });
    assert.deepEqual((await verdict(future.userId)).reasons, ['staff-not-yet-hired']);
    const leaving = await staffUser();
    const path = `/colaboradores/${leaving.staffId}/cese`;
    expectStatus(await world.call(world.a, 'POST', path, { json: { terminationDate: today, reason: 'resigned' } }), 200);
    assert.deepEqual((await verdict(leaving.userId)).reasons, ['staff-terminated']);
  });
});
