// The Productos routes, walked from their declarations (routeWalk.ts): 403 without the permission, 404 for another
// company's products, warehouses and patients' supply kits, OpenAPI entries complete.
import assert from 'node:assert/strict';
import { describeRouteWalk } from './routeWalk.js';
import { seedsFrom } from './adminSeeds.js';
import { registration } from './pacientesWorld.js';

describeRouteWalk({
  title: 'Productos routes: isolation and permissions from the declarations',
  tags: ['Productos'],
  minRoutes: 18,
  async seed(server, token) {
    const created = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
      const answer = await server.request('POST', path, { token, body });
      assert.equal(answer.status, 201, `${path}: ${JSON.stringify(answer.body)}`);
      return answer.body as Record<string, unknown>;
    };
    const sede = await created('/empresas/actual/sedes', { name: 'Sede almacén B' });
    const warehouse = await created('/productos/almacenes', { locationId: sede.id, code: 'ALM-B', name: 'Almacén B', kind: 'main' });
    const product = await created('/productos', {
      code: 'B-SALINE',
      name: 'Suero B',
      category: 'saline',
      unit: 'bag',
      minimumStock: 5,
      reusable: false,
      lotTracked: false,
      expiryTracked: false,
      prescriptionDrug: false,
    });
    const patient = await created('/pacientes', registration());
    return seedsFrom({
      '/productos/{id}': String(product.id),
      '/productos/almacenes/{id}': String(warehouse.id),
      '/productos/kits/pacientes/{patientId}': String(patient.id),
    });
  },
});
