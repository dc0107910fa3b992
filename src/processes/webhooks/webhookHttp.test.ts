// One attempt over HTTP: connects to the checked address whatever the name resolves to now (DNS rebinding), with the
// name as Host; refuses a private address actually connected to; bounded in time and in response size.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { postWebhook } from './webhookHttp.js';
import { jittered } from './webhookDispatch.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from './webhookSettings.js';

describe('webhook attempts over HTTP', () => {
  let server: http.Server;
  let port: number;
  const hosts: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      hosts.push(String(req.headers.host));
      if (req.url === '/slow') return; // never answers
      if (req.url === '/big') return void res.end('x'.repeat(200_000));
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const limits = { timeoutMs: 2_000, maxResponseBytes: 1_000, allowPrivateTargets: true };
  const target = (path: string) => ({ url: new URL(`http://hooks.invalid:${port}${path}`), address: '127.0.0.1', family: 4 as const });

  it('connects to the checked address with the name as Host (the name is never resolved again)', async () => {
    const outcome = await postWebhook(target('/in'), {}, '{}', limits);
    assert.equal(outcome.statusCode, 204, JSON.stringify(outcome));
    assert.equal(hosts.at(-1), `hooks.invalid:${port}`);
  });

  it('refuses a private address connected to without the allowance', async () => {
    const outcome = await postWebhook(target('/in'), {}, '{}', { ...limits, allowPrivateTargets: false });
    assert.equal(outcome.statusCode, null);
    assert.match(outcome.error ?? '', /connected to 127\.0\.0\.1, a private or reserved address/);
  });

  it('gives up on an answer that does not come in time, and keeps only the start of a big one', async () => {
    const slow = await postWebhook(target('/slow'), {}, '{}', { ...limits, timeoutMs: 150 });
    assert.deepEqual([slow.statusCode, slow.error], [null, 'no answer within 150 ms']);
    const big = await postWebhook(target('/big'), {}, '{}', limits);
    assert.equal(big.statusCode, 200);
    assert.ok(big.responseBody !== null && big.responseBody.length <= 1024);
  });

  it('the default schedule, jittered at its shortest, still retries for more than 24 hours', () => {
    const shortest = DEFAULT_RETRY_SCHEDULE_MS.reduce((sum, d) => sum + jittered(d, () => 0), 0);
    assert.ok(shortest > 24 * 3600_000, `${shortest / 3600_000} h`);
    assert.equal(
      jittered(1000, () => 1),
      1200,
    );
  });
});
