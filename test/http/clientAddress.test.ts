// The client address behind reverse proxies (TRUST_PROXY=<hops>): the right-most address the trusted proxies did
// not write is the client; what the client wrote itself is never believed.
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { PLATFORM_TENANT, streamName } from '../../src/stores/eventStore.js';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';

const failedLoginIp = async (server: TestServer, xff?: string): Promise<string | null> => {
  const answer = await server.request('POST', '/auth/login', {
    body: { email: TEST_ADMIN.email, password: 'wrong password for the test' },
    ...(xff ? { headers: { 'x-forwarded-for': xff } } : {}),
  });
  assert.equal(answer.status, 401);
  const events = await server.services.events.readStream(streamName(PLATFORM_TENANT, 'user', server.admin.userId));
  return events.filter((e) => e.type === 'LoginFailed').at(-1)!.metadata.ip;
};

describe('client address behind proxies', () => {
  it('reads TRUST_PROXY as a hop count, and refuses anything else', () => {
    assert.equal(loadConfig({}).trustProxyHops, 0);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxyHops, 0);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxyHops, 2);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxyHops, 1);
    for (const junk of ['yes', '-1', '1.5', '99']) assert.throws(() => loadConfig({ TRUST_PROXY: junk }), /TRUST_PROXY/);
  });

  for (const [hops, xff, expected] of [
    ['0', '6.6.6.6', '127.0.0.1'],
    ['1', '6.6.6.6, 203.0.113.9', '203.0.113.9'],
    ['2', '6.6.6.6, 203.0.113.9, 10.0.0.2', '203.0.113.9'],
  ] as const) {
    it(`with TRUST_PROXY=${hops} takes ${expected} from X-Forwarded-For: ${xff}`, async () => {
      const server = await startTestServer({ env: { TRUST_PROXY: hops } });
      try {
        const ip = await failedLoginIp(server, xff);
        assert.ok(ip === expected || ip === `::ffff:${expected}`, `recorded ${ip}`);
      } finally {
        await server.close();
      }
    });
  }
});
