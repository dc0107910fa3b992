// Principals kept by access token (src/http/keptPrincipals.ts): a narrowed role, a sign-out and an expiry are seen by
// the very next request made with a token whose principal was kept.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import { activateAndEnroll, signInto } from './adminWorld.js';

describe('authentication with kept principals', () => {
  let server: TestServer;
  let admin: string;
  const list = async (token: string): Promise<number> => (await server.request('GET', '/pacientes?limit=50', { token })).status;

  before(async () => {
    server = await startTestServer();
    admin = await server.signInAndSelect(server.admin);
  });
  after(async () => server?.close());

  it('answers 403 on the next request once the role no longer grants the permission', async () => {
    const role = await server.request('POST', '/roles', {
      token: admin,
      body: { code: 'archivo', name: 'Archivo', permissions: ['pacientes:read'] },
    });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const invited = await server.request('POST', '/usuarios', {
      token: admin,
      body: { email: 'archivo@clinica.pe', name: 'archivo', roles: ['archivo'] },
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    const person = await activateAndEnroll(server, 'archivo@clinica.pe', invited.body.activation.token as string);
    const token = await signInto(server, person, server.admin.companyId);
    for (let n = 0; n < 3; n++) assert.equal(await list(token), 200);
    const narrowed = await server.request('PUT', '/roles/archivo', {
      token: admin,
      body: { name: 'Archivo', permissions: ['colaboradores:read'], reason: 'patients moved to admission' },
    });
    assert.equal(narrowed.status, 200, JSON.stringify(narrowed.body));
    assert.equal(await list(token), 403);
  });

  it('refuses the token at once after sign-out', async () => {
    const { accessToken } = await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret);
    await server.selectTenant(accessToken, server.admin.companyId);
    for (let n = 0; n < 3; n++) assert.equal(await list(accessToken), 200);
    assert.equal((await server.request('POST', '/auth/logout', { token: accessToken })).status, 204);
    assert.equal(await list(accessToken), 401);
  });

  it('refuses the token once it expires, with no write in between', async () => {
    const { accessToken } = await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret);
    await server.selectTenant(accessToken, server.admin.companyId);
    for (let n = 0; n < 3; n++) assert.equal(await list(accessToken), 200);
    server.clock.advance(16 * 60 * 1000);
    assert.equal(await list(accessToken), 401);
  });
});
