// Two scopes (architecture.md, Scopes and permissions): platform operations need a platform administrator;
// a company role, even the company's own admin, never reaches them.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';

describe('Scopes: a company role never reaches the platform', () => {
  let server: TestServer;
  let companyAdmin: string;
  let platformAdmin: string;
  before(async () => {
    server = await startTestServer();
    const account = await server.createCompanyWithAdmin('Clinica Dos', 'admin2@clinic.example', 'another long passphrase');
    companyAdmin = await server.signInAndSelect(account);
    platformAdmin = await server.signInAndSelect(server.admin);
  });
  after(async () => server?.close());

  const platformRoutes: [method: string, path: string][] = [
    ['GET', '/sistema/proyecciones'],
    ['GET', '/sistema/proyecciones/pacientes'],
    ['POST', '/sistema/proyecciones/pacientes/reconstruir'],
    ['GET', '/sistema/auditoria/plataforma'],
  ];

  for (const [method, path] of platformRoutes) {
    it(`refuses ${method} ${path} to a company admin (403), and starts nothing`, async () => {
      const answer = await server.request(method, path, { token: companyAdmin, ...(method === 'POST' ? { body: {} } : {}) });
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal(answer.body.type, '/problems/platform-admin-required');
    });
  }

  it('no company permission is a platform permission: the company admin holds only company permissions', async () => {
    const me = await server.request('GET', '/auth/me', { token: companyAdmin });
    assert.equal(me.status, 200);
    const permissions = me.body.company.permissions as string[];
    assert.ok(permissions.includes('pacientes:write'));
    // The Sistema permissions a company holds read its own audit trail, export its own data and manage its own webhooks, never a platform route.
    assert.deepEqual(permissions.filter((p) => p.startsWith('sistema:')).sort(), ['sistema:audit', 'sistema:export', 'sistema:webhooks']);
  });

  it('serves platform routes to a platform administrator, with or without a company selected', async () => {
    const list = await server.request('GET', '/sistema/proyecciones', { token: platformAdmin });
    assert.equal(list.status, 200);
    const tokens = await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret);
    const unselected = await server.request('GET', '/sistema/proyecciones/pacientes', { token: tokens.accessToken });
    assert.equal(unselected.status, 200);
  });
});
