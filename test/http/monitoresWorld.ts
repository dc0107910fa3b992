// Shared by the Monitores HTTP suites: companies A and B (staffWorld), a station in each, machines, patients, and members
// of company A with a built-in role.
import { grantMembership, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';
import { expectStatus, startStaffWorld, unique, type Answer, type Json, type StaffWorld } from './staffWorld.js';
import type { TestServerOptions } from '../support/harness.js';
import { registration } from './pacientesWorld.js';

export { expectStatus, pointers, unique, type Answer, type Json } from './staffWorld.js';

export interface MonitoresWorld extends StaffWorld {
  /** A station of company A and of company B. */
  stationA: { locationId: string; stationId: string };
  stationB: { locationId: string; stationId: string };
  register(token: string, overrides?: Json): Promise<Answer>;
  patient(token: string, overrides?: Json): Promise<string>;
  /** A member of company A with these built-in roles: a token. */
  withRoles(roles: string[]): Promise<string>;
}

async function stationOf(world: StaffWorld, token: string): Promise<{ locationId: string; stationId: string }> {
  const sede = expectStatus(await world.call(token, 'POST', '/empresas/actual/sedes', { json: { name: unique('Sede ') } }), 201);
  const locationId = sede.body.id as string;
  const base = `/empresas/actual/sedes/${locationId}`;
  const roomId = expectStatus(await world.call(token, 'POST', `${base}/salas`, { json: { name: 'Sala A' } }), 201).body.createdId as string;
  const stationId = expectStatus(await world.call(token, 'POST', `${base}/puestos`, { json: { code: 'P-01', roomId } }), 201).body
    .createdId as string;
  return { locationId, stationId };
}

export const machineBody = (station: { locationId: string; stationId: string }, overrides: Json = {}): Json => ({
  code: unique('M-'),
  serial: unique('SN-'),
  brand: 'Fresenius',
  model: '4008S',
  ...station,
  installDate: '2024-06-01',
  warrantyEnd: '2027-06-01',
  isolation: 'none',
  ...overrides,
});

export async function startMonitoresWorld(options: TestServerOptions = {}): Promise<MonitoresWorld> {
  const world = await startStaffWorld(options);
  try {
    const stationA = await stationOf(world, world.a);
    const stationB = await stationOf(world, world.b);
    return {
      ...world,
      stationA,
      stationB,
      register: async (token, overrides = {}) =>
        expectStatus(
          await world.call(token, 'POST', '/monitores', { json: machineBody(token === world.b ? stationB : stationA, overrides) }),
          201,
        ),
      patient: async (token, overrides = {}) =>
        expectStatus(await world.call(token, 'POST', '/pacientes', { json: registration(overrides) }), 201).body.id as string,
      withRoles: async (roles) => {
        const { services, admin } = world.server;
        const caller = { actor: 'system' };
        const email = `${unique('member-')}@uno.example`;
        const password = 'a long enough passphrase 7';
        const totpSecret = newTotpSecret();
        const user = await registerUser(services, { email, name: 'Member', password, totpSecret }, caller);
        const granted = await grantMembership(services, { companyId: admin.companyId, userId: user.userId, roles }, caller);
        if (granted.position !== null) await services.projections.waitFor(granted.position);
        return world.server.signInAndSelect({ email, password, totpSecret, userId: user.userId, companyId: admin.companyId });
      },
    };
  } catch (err) {
    await world.close();
    throw err;
  }
}
