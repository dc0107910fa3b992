// Webhook targets (SSRF): loopback, private, link-local, CGNAT, mapped and unspecified addresses are refused, also behind a name.
import assert from 'node:assert/strict';
import { checkTarget, isBlockedAddress, TargetRefused } from './webhookTargets.js';

const refused = async (url: string, resolve?: (h: string) => Promise<{ address: string; family: number }[]>) =>
  assert.rejects(checkTarget(url, false, resolve), (err: unknown) => err instanceof TargetRefused);

describe('webhook targets', () => {
  it('blocks every private, loopback, link-local, CGNAT, multicast, unspecified and mapped address', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1']) {
      assert.equal(isBlockedAddress(a), true, a);
    }
    for (const a of ['::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe']) {
      assert.equal(isBlockedAddress(a), true, a);
    }
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34', '100.128.0.1']) {
      assert.equal(isBlockedAddress(a), false, a);
    }
  });

  it('blocks the IPv6 forms that embed or tunnel an IPv4 address, and the deprecated site-local range', () => {
    // IPv4-compatible (::a.b.c.d), 6to4 (2002::/16, e.g. 2002:a9fe:a9fe:: = 169.254.169.254), Teredo, local NAT64
    for (const a of [
      '::7f00:1',
      '::127.0.0.1',
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::1',
      '2001:0:4136:e378::1',
      '64:ff9b:1::a00:1',
      'fec0::1',
    ]) {
      assert.equal(isBlockedAddress(a), true, a);
    }
  });

  it('refuses http, private literals and a name resolving to loopback; the allowance lets them through', async () => {
    await refused('http://93.184.216.34/hook');
    await refused('https://127.0.0.1/hook');
    await refused('https://[::1]/hook');
    await refused('https://10.0.0.5/hook');
    await refused('https://169.254.169.254/latest/meta-data');
    await refused('https://user:pw@93.184.216.34/hook');
    await refused('https://hooks.example/x', () =>
      Promise.resolve([
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]),
    );
    const ok = await checkTarget('https://hooks.example/x', false, () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]));
    assert.equal(ok.address, '93.184.216.34');
    const allowed = await checkTarget('http://127.0.0.1:8080/x', true);
    assert.deepEqual([allowed.address, allowed.family], ['127.0.0.1', 4]);
  });

  it('refuses a real name that resolves to loopback (localhost)', async () => {
    await refused('https://localhost/hook');
  });
});
