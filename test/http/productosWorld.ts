// Shared by the Productos HTTP suites: companies A and B (staffWorld), a location and warehouses in each, products,
// and members of company A with a built-in role.
import { grantMembership, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';
import { expectStatus, startStaffWorld, unique, type Answer, type Json, type StaffWorld } from './staffWorld.js';
import { registration } from './pacientesWorld.js';

export { expectStatus, pointers, unique, type Answer, type Json } from './staffWorld.js';

export interface ProductosWorld extends StaffWorld {
  /** A location of company A and of company B. */
  locationA: string;
  locationB: string;
  product(token: string, overrides?: Json): Promise<Json>;
  warehouse(token: string, overrides?: Json): Promise<string>;
  patient(token: string): Promise<string>;
  withRoles(roles: string[]): Promise<string>;
  post(path: string, json: unknown, token?: string, headers?: Record<string, string>): Promise<Answer>;
  get(path: string, token?: string): Promise<Answer>;
}

export const productBody = (overrides: Json = {}): Json => ({
  code: unique('P-'),
  name: 'Iron sucrose 100 mg',
  category: 'iron',
  unit: 'vial',
  minimumStock: 5,
  reusable: false,
  lotTracked: true,
  expiryTracked: true,
  prescriptionDrug: true,
  cost: { amount: 12.5, currency: 'PEN' },
  ...overrides,
});

async function locationOf(world: StaffWorld, token: string): Promise<string> {
  return expectStatus(await world.call(token, 'POST', '/empresas/actual/sedes', { json: { name: unique('Sede ') } }), 201).body
    .id as string;
}

export async function startProductosWorld(): Promise<ProductosWorld> {
  const world = await startStaffWorld();
  try {
    const locationA = await locationOf(world, world.a);
    const locationB = await locationOf(world, world.b);
    const self: ProductosWorld = {
      ...world,
      locationA,
      locationB,
      post: (path, json, token = self.a, headers = {}) => world.call(token, 'POST', path, { json, headers }),
      get: (path, token = self.a) => world.call(token, 'GET', path),
      product: async (token, overrides = {}) =>
        expectStatus(await world.call(token, 'POST', '/productos', { json: productBody(overrides) }), 201).body,
      warehouse: async (token, overrides = {}) => {
        const json = {
          locationId: token === self.b ? locationB : locationA,
          code: unique('ALM-'),
          name: 'Farmacia',
          kind: 'pharmacy',
          ...overrides,
        };
        return expectStatus(await world.call(token, 'POST', '/productos/almacenes', { json }), 201).body.id as string;
      },
      patient: async (token) =>
        expectStatus(await world.call(token, 'POST', '/pacientes', { json: registration({}) }), 201).body.id as string,
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
    return self;
  } catch (err) {
    await world.close();
    throw err;
  }
}
