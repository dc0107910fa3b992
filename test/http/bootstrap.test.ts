// First start: the platform administrator and first company, from BOOTSTRAP_* or generated and shown once.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';
import type { BootstrapCredentials } from '../../src/commands/platform/bootstrapWrites.js';
import { bootstrapBanner } from '../../src/bootstrapBanner.js';

async function tenantsOf(server: TestServer, email: string, password: string, secret: string) {
  const { accessToken } = await server.signIn(email, password, secret);
  return (await server.request('GET', '/tenants', { token: accessToken })).body.items as { id: string; name: string; roles: string[] }[];
}

describe('first start (bootstrap)', function () {
  let dataDir: string;
  beforeEach(async () => (dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-boot-'))));
  afterEach(async () => fs.rm(dataDir, { recursive: true, force: true }));

  it('creates the administrator and company from BOOTSTRAP_* values', async () => {
    const announced: BootstrapCredentials[] = [];
    const server = await startTestServer({ dataDir, announce: (c) => void announced.push(c) });
    try {
      assert.equal(announced.length, 1);
      assert.deepEqual(announced[0]!.generated, []);
      const items = await tenantsOf(server, TEST_ADMIN.email, TEST_ADMIN.password, TEST_ADMIN.totpSecret);
      assert.deepEqual(items, [{ id: server.admin.companyId, name: TEST_ADMIN.companyName, roles: ['admin'] }]);
    } finally {
      await server.close();
    }
  });

  it('generates the values when unset, shows them once, and does nothing on the next start', async () => {
    const announced: BootstrapCredentials[] = [];
    const first = await startTestServer({ dataDir, generatedBootstrap: true, announce: (c) => void announced.push(c) });
    let creds: BootstrapCredentials;
    try {
      assert.equal(announced.length, 1);
      creds = announced[0]!;
      assert.deepEqual([...creds.generated].sort(), ['companyName', 'email', 'password', 'totpSecret']);
      assert.match(creds.totpSecret, /^[A-Z2-7]{32}$/);
      assert.ok(creds.otpauthUri.startsWith('otpauth://totp/'));
      const items = await tenantsOf(first, creds.email, creds.password, creds.totpSecret);
      assert.equal(items.length, 1);
      assert.equal(items[0]!.name, creds.companyName);
      const banner = await bootstrapBanner(creds, first.url);
      assert.ok(banner.includes(creds.password) && banner.includes(creds.otpauthUri));
      assert.ok(/[\u2580\u2584\u2588]/.test(banner), 'a QR code drawn with block characters');
    } finally {
      await first.close();
    }
    const second = await startTestServer({ dataDir, generatedBootstrap: true, announce: (c) => void announced.push(c) });
    try {
      assert.equal(announced.length, 1, 'nothing new on the second start');
      second.clock.advance(10 * 60_000); // past the first server's accepted TOTP steps
      const items = await tenantsOf(second, creds.email, creds.password, creds.totpSecret);
      assert.equal(items.length, 1);
    } finally {
      await second.close();
    }
  });

  it('creates exactly one administrator when two servers start at once on one store', async () => {
    const announced: BootstrapCredentials[] = [];
    const servers = await Promise.all(
      // Two instances on one store (as on EventStoreDB): not one data directory's lock, which would refuse the second.
      [0, 1].map(() => startTestServer({ dataDir, generatedBootstrap: true, serviceLock: false, announce: (c) => void announced.push(c) })),
    );
    try {
      assert.equal(announced.length, 1);
      const creds = announced[0]!;
      assert.deepEqual(servers.map((s) => s.bootstrap.created).sort(), [false, true]);
      const winner = servers.find((s) => s.bootstrap.created)!;
      const items = await tenantsOf(winner, creds.email, creds.password, creds.totpSecret);
      assert.equal(items.length, 1);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('refuses a BOOTSTRAP_ADMIN_TOTP_SECRET that is not Base32 of at least 16 bytes', async () => {
    for (const secret of ['JBSWY3DPEHPK3PXP', 'not base32 at all!!', 'JBSWY3DPEHPK3PXP1BSWY3DPEHPK3PXP']) {
      await assert.rejects(startTestServer({ dataDir, env: { BOOTSTRAP_ADMIN_TOTP_SECRET: secret } }), /BOOTSTRAP_ADMIN_TOTP_SECRET/);
    }
  });
});
