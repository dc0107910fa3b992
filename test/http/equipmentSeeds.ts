// Records of one company for the equipment route walk (equipmentWalk.test.ts): one of each kind a path parameter names.
import assert from 'node:assert/strict';
import type { TestServer } from '../support/harness.js';
import { seedsFrom, type Seeds } from './adminSeeds.js';
import { dialyzerBody } from './filtrosWorld.js';
import { machineBody } from './monitoresWorld.js';

export async function seedEquipment(server: TestServer, token: string): Promise<Seeds> {
  const created = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const answer = await server.request('POST', path, { token, body });
    assert.equal(answer.status, 201, `${path}: ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  };
  const dialyzer = await created('/filtros-dialisis', dialyzerBody());
  const sede = await created('/empresas/actual/sedes', { name: 'Sede equipos' });
  const base = `/empresas/actual/sedes/${String(sede.id)}`;
  const roomId = (await created(`${base}/salas`, { name: 'Sala' })).createdId as string;
  const stationId = (await created(`${base}/puestos`, { code: 'E-01', roomId })).createdId as string;
  const machine = await created('/monitores', machineBody({ locationId: sede.id as string, stationId }));
  const fault = await server.request('POST', `/monitores/${String(machine.id)}/averias`, {
    token,
    body: { severity: 'low', problem: 'alarm' },
  });
  assert.equal(fault.status, 200, JSON.stringify(fault.body));
  const line = { model: 'AV-Set', lot: 'L-1', serial: 'SEED-1', primingVolumeMl: 140, reusable: true, receivedOn: '2025-01-10' };
  const arterial = await created('/lineas-arteriales', line);
  const venous = await created('/lineas-venosas', line);
  return seedsFrom({
    '/filtros-dialisis/{id}': dialyzer.id as string,
    '/monitores/{id}': machine.id as string,
    '/monitores/{id}/averias/{ticketId}': (fault.body as { openTicket: { ticketId: string } }).openTicket.ticketId,
    '/lineas-arteriales/{id}': arterial.id as string,
    '/lineas-venosas/{id}': venous.id as string,
  });
}
