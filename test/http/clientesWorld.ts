// Shared by the Clientes HTTP suites: companies A and B, patients, members with a built-in role (monitoresWorld), and
// the bodies of a client, a contract and an authorization.
import { expectStatus, startMonitoresWorld, unique, type Answer, type Json, type MonitoresWorld } from './monitoresWorld.js';

export { expectStatus, pointers, unique, type Answer, type Json } from './monitoresWorld.js';

export const clientBody = (overrides: Json = {}): Json => ({
  legalName: 'Seguro Social de Salud',
  tradeName: 'EsSalud',
  payerType: 'social-security',
  country: 'US',
  taxId: { type: 'OTHER', number: unique('TX-') },
  fiscalAddress: { line1: 'Av. Domingo Cueto 120', city: 'Lima' },
  contacts: [{ name: 'Mesa de partes', role: 'Billing', phone: '+51 1 265 6000', email: 'partes@essalud.example' }],
  billingEmail: 'facturas@essalud.example',
  ...overrides,
});

export const contractBody = (overrides: Json = {}): Json => ({
  number: unique('C-'),
  serviceCode: '90935',
  validFrom: '2025-01-01',
  validTo: '2025-12-31',
  rate: { amount: '350.00', currency: 'PEN', taxIncluded: true },
  includes: ['dialyzer', 'bloodlines', 'epo-iron'],
  authorizationRequired: true,
  withoutAuthorization: 'block',
  sessionsPerMonthCap: 13,
  paymentTermsDays: 60,
  ...overrides,
});

export interface ClientesWorld extends MonitoresWorld {
  client(token: string, overrides?: Json): Promise<Answer>;
}

export async function startClientesWorld(): Promise<ClientesWorld> {
  return withClients(await startMonitoresWorld());
}

/** A world (e.g. the Dialisis one, to treat sessions) that registers clients too. */
export function withClients<W extends MonitoresWorld>(world: W): W & ClientesWorld {
  return {
    ...world,
    client: async (token, overrides = {}) =>
      expectStatus(await world.call(token, 'POST', '/clientes', { json: clientBody(overrides) }), 201),
  };
}
