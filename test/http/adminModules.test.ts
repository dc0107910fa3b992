// A module switched off hides its routes (403 module-disabled) and keeps its data; switched on again, it works.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import { registeredGroups } from '../../src/http/groups.js';

describe('Optional modules', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer({ groups: registeredGroups() });
    token = await server.signInAndSelect(server.admin);
  });
  after(async () => server?.close());

  it('a module switched off answers 403 module-disabled on its routes; switched on again it answers', async () => {
    assert.equal((await server.request('GET', '/productos', { token })).status, 200);
    const off = await server.request('PUT', '/empresas/actual/modulos', {
      token,
      body: { modules: ['Dialisis'], reason: 'no stock module' },
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const hidden = await server.request('GET', '/productos', { token });
    assert.equal(hidden.status, 403);
    assert.equal(hidden.body.type, '/problems/module-disabled');
    assert.equal((await server.request('GET', '/pacientes', { token })).status, 200, 'core groups are always on');
    await server.request('PUT', '/empresas/actual/modulos', { token, body: { modules: ['Dialisis', 'Productos'], reason: 'back' } });
    assert.equal((await server.request('GET', '/productos', { token })).status, 200);
  });
});
