// A projection that failed must not make sign-in, company selection or logout answer before their own read
// models applied the write: each waits on the projections it depends on.
import assert from 'node:assert/strict';
import { registeredGroups } from '../../src/http/groups.js';
import type { GroupModule } from '../../src/http/groupModule.js';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';

/** A group whose only projection fails on the first event it sees: a poison projection, unrelated to sign-in. */
const brokenGroup: GroupModule = {
  tag: 'Broken',
  description: 'A projection that always fails',
  permissions: [],
  routes: [],
  projections: [
    {
      name: 'alwaysFails',
      version: 1,
      collections: { nothing: [] },
      eventTypes: ['UserRegistered', 'LoginSucceeded', 'SessionStarted'],
      handle: () => {
        throw new Error('poison');
      },
    },
  ],
};

describe('sign-in while an unrelated projection is failed', () => {
  let server: TestServer;
  before(async () => {
    const groups = registeredGroups();
    groups.push(brokenGroup);
    server = await startTestServer({ groups });
  });
  after(async () => server?.close());

  it('answers sign-in, selection and /auth/me only once the session read model has the write, 20 times in a row', async () => {
    const { email, password, totpSecret } = TEST_ADMIN;
    for (let i = 0; i < 20; i++) {
      const tokens = await server.signIn(email, password, totpSecret);
      const me = await server.request('GET', '/auth/me', { token: tokens.accessToken });
      assert.equal(me.status, 200, `sign-in ${i}: ${JSON.stringify(me.body)}`);
      await server.selectTenant(tokens.accessToken, server.admin.companyId);
      const selected = await server.request('GET', '/auth/me', { token: tokens.accessToken });
      assert.equal(selected.body.company?.id, server.admin.companyId, `selection ${i}`);
      const out = await server.request('POST', '/auth/logout', { token: tokens.accessToken, body: {} });
      assert.equal(out.status, 204);
      const after = await server.request('GET', '/auth/me', { token: tokens.accessToken });
      assert.equal(after.status, 401, `logout ${i}`);
    }
  });
});
