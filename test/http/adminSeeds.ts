// Records of one company for the route walk (adminWalk.test.ts): one of each kind a path parameter can name.
import assert from 'node:assert/strict';
import type { TestServer } from '../support/harness.js';
import { positionBody, staffBody } from './staffWorld.js';

export interface Seeds {
  /** The value of path parameter `name` in a route `path`, naming a record of the seeded company. */
  valueFor(path: string, name: string): string;
}

export async function seedCompanyRecords(server: TestServer, token: string, company: { id: string; adminUserId: string }): Promise<Seeds> {
  const created = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const answer = await server.request('POST', path, { token, body });
    assert.equal(answer.status, 201, `${path}: ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  };
  const client = await created('/integraciones', { name: 'Lab B', roles: ['nurse'] });
  await created('/roles', { code: 'b-only', name: 'Only in B', permissions: ['pacientes:read'] });
  const position = await created('/cargos-laborales', positionBody());
  const staff = await created('/colaboradores', staffBody(position.id as string));
  const sedes = '/empresas/actual/sedes';
  const sede = await created(sedes, { name: 'Sede B', registryCode: '00099999' });
  const roomId = (await created(`${sedes}/${String(sede.id)}/salas`, { name: 'Sala B' })).createdId as string;
  const stationId = (await created(`${sedes}/${String(sede.id)}/puestos`, { code: 'B-01', roomId })).createdId as string;
  const admin = await server.request('GET', `/usuarios/${company.adminUserId}`, { token });
  assert.equal(admin.status, 200, JSON.stringify(admin.body));
  const values: Record<string, string> = {
    '/usuarios/por-email/{email}': (admin.body as { email: string }).email,
    '/cargos-laborales/{id}': position.id as string,
    '/colaboradores/{id}': staff.id as string,
    [`${sedes}/{sedeId}`]: sede.id as string,
    [`${sedes}/{sedeId}/salas/{salaId}`]: roomId,
    [`${sedes}/{sedeId}/puestos/{puestoId}`]: stationId,
    '/empresas/{id}': company.id,
    '/usuarios/{id}': company.adminUserId,
    '/integraciones/{id}': (client.client as { id: string }).id,
    '/roles/{code}': 'b-only',
  };
  return seedsFrom(values);
}

/** Seeds from the path prefix that ends with each parameter, e.g. '/roles/{code}' -> 'b-only'. */
export function seedsFrom(values: Record<string, string>): Seeds {
  return {
    valueFor(path, name) {
      const prefix = path.slice(0, path.indexOf(`{${name}}`) + name.length + 2);
      const value = values[prefix];
      if (value === undefined) throw new Error(`seeds: no record of the seeded company for {${name}} in ${path}: add one`);
      return value;
    },
  };
}
