// Platform routes of issue 24 on their edges: what a client can ask that once answered 500 or a false "intact".
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';

describe('platform routes on their edges', function () {
  this.timeout(60_000);
  let server: TestServer;
  let platform: string;
  before(async () => {
    server = await startTestServer();
    platform = (await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret)).accessToken;
  });
  after(async () => server.close());

  it('two backups taken within the same second are both kept, never a 500', async () => {
    const first = await server.request('POST', '/sistema/respaldos', { token: platform });
    const second = await server.request('POST', '/sistema/respaldos', { token: platform });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.notEqual(first.body.name, second.body.name);
    const listed = await server.request('GET', '/sistema/respaldos', { token: platform });
    assert.deepEqual(listed.body.items.map((b: { name: string }) => b.name).sort(), [first.body.name, second.body.name].sort());
  });

  it('rotations that race run one after another, and the next rotation still works (no key file left ahead of the log)', async () => {
    const rotate = () =>
      server.request('POST', '/sistema/claves/rotacion', { token: platform, body: { keys: ['tokens', 'chain'], reason: 'race' } });
    const answers = await Promise.all([rotate(), rotate(), rotate()]);
    assert.ok(
      answers.every((a) => a.status === 200 || a.status === 409),
      JSON.stringify(answers.map((a) => a.body)),
    );
    platform = (await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret)).accessToken;
    const next = await server.request('POST', '/sistema/claves/rotacion', {
      token: platform,
      body: { keys: ['tokens', 'chain'], reason: 'after' },
    });
    assert.equal(next.status, 200, JSON.stringify(next.body));
  });

  it('verifying the chain of a company that does not exist is a 404, not an intact empty chain', async () => {
    const unknown = await server.request('POST', '/sistema/integridad/empresas/00000000000000000000000000000000/verificacion', {
      token: platform,
    });
    assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
    const known = await server.request('POST', `/sistema/integridad/empresas/${server.admin.companyId}/verificacion`, { token: platform });
    assert.equal(known.status, 202, JSON.stringify(known.body));
    const own = await server.request('POST', '/sistema/integridad/empresas/platform/verificacion', { token: platform });
    assert.equal(own.status, 202, JSON.stringify(own.body));
  });
});
