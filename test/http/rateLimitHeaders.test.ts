// RateLimit-Policy and RateLimit (IETF httpapi draft) on the throttled routes' answers, the 429 included, and in the contract.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import { LIMITS } from '../../src/limits.js';
import { registeredGroups } from '../../src/http/groups.js';
import { buildOpenApiDocument } from '../../src/http/openapi.js';

type Answer = { $ref?: string; headers?: Record<string, unknown> };
const perMinute = LIMITS.throttling.login.perIpPerMinute;

describe('RateLimit headers over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(async () => server?.close());

  it('counts sign-ins per address down to the 429, whose RateLimit agrees with its Retry-After', async () => {
    const attempt = (i: number) =>
      server.request('POST', '/auth/login', { body: { email: `nobody${i}@clinic.example`, password: 'not the right password' } });
    const first = await attempt(0);
    assert.equal(first.status, 401);
    assert.equal(first.headers['ratelimit-policy'], `"sign-in-address";q=${perMinute};w=60`);
    assert.equal(first.headers['ratelimit'], `"sign-in-address";r=${perMinute - 1};t=60`);
    for (let i = 1; i < perMinute; i++) await attempt(i);
    server.clock.advance(10_000);
    const refused = await attempt(perMinute);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '50');
    assert.equal(refused.headers['ratelimit-policy'], `"sign-in-address";q=${perMinute};w=60`);
    assert.equal(refused.headers['ratelimit'], '"sign-in-address";r=0;t=50');
    server.clock.advance(60_000);
  });

  it('counts a client credentials request per address', async () => {
    const res = await server.request('POST', '/auth/token', {
      body: { grant_type: 'client_credentials', client_id: 'c1_unknown', client_secret: 'x'.repeat(40) },
    });
    assert.ok(res.status === 400 || res.status === 401, `${res.status} ${JSON.stringify(res.body)}`);
    assert.match(res.headers['ratelimit-policy'] ?? '', /^"token-address";q=\d+;w=60/);
    assert.match(res.headers['ratelimit'] ?? '', /^"token-address";r=\d+;t=60/);
  });

  it('sends none on routes without a throttle', async () => {
    const res = await server.request('GET', '/health');
    assert.equal(res.status, 200);
    assert.equal(res.headers['ratelimit'], undefined);
    assert.equal(res.headers['ratelimit-policy'], undefined);
  });

  it('declares both on the successes and the 429 of every route that declares a 429, described once', () => {
    const doc = buildOpenApiDocument(registeredGroups(), {}) as {
      paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
      components: { headers: Record<string, { description: string }>; responses: Record<string, Answer> };
    };
    // A response shared by several operations is a reference to components.responses.
    const resolved = (a: Answer): Answer => (a.$ref ? doc.components.responses[a.$ref.split('/').pop()!]! : a);
    let throttled = 0;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (!op.responses['429']) continue;
        throttled++;
        for (const status of Object.keys(op.responses).filter((s) => s === '429' || s.startsWith('2')))
          for (const h of ['RateLimit', 'RateLimit-Policy'])
            assert.ok(resolved(op.responses[status]!).headers?.[h], `${method.toUpperCase()} ${path} ${status} declares ${h}`);
      }
    assert.ok(throttled >= 8, `${throttled} throttled operations`);
    const described = Object.values(doc.components.headers).filter((h) => /RateLimit draft/.test(h.description));
    assert.equal(described.length, 1);
  });
});
