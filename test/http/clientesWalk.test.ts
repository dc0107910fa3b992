// The Clientes routes, walked from their declarations (routeWalk.ts): 403 without the permission, 404 for another
// company's clients, contracts and authorizations, OpenAPI entries complete.
import assert from 'node:assert/strict';
import { describeRouteWalk } from './routeWalk.js';
import { seedsFrom } from './adminSeeds.js';
import { clientBody, contractBody } from './clientesWorld.js';
import { registration } from './pacientesWorld.js';

describeRouteWalk({
  title: 'Clientes routes: isolation and permissions from the declarations',
  tags: ['Clientes'],
  minRoutes: 17,
  async seed(server, token) {
    const created = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
      const answer = await server.request('POST', path, { token, body });
      assert.equal(answer.status, 201, `${path}: ${JSON.stringify(answer.body)}`);
      return answer.body as Record<string, unknown>;
    };
    const client = String((await created('/clientes', clientBody())).id);
    const contract = String((await created(`/clientes/${client}/contratos`, contractBody())).contractId);
    const coverages = [{ clientId: client, memberNumber: 'W-1', validFrom: '2025-01-01' }];
    const patientId = String((await created('/pacientes', registration({ coverages }))).id);
    const auth = { patientId, code: 'W-1', validFrom: '2025-03-01', validTo: '2025-03-31', sessionsAuthorized: 2 };
    const authorization = String((await created(`/clientes/${client}/autorizaciones`, auth)).id);
    return seedsFrom({
      '/clientes/{id}': client,
      '/clientes/{id}/contratos/{contractId}': contract,
      '/clientes/{id}/autorizaciones/{authId}': authorization,
    });
  },
});
