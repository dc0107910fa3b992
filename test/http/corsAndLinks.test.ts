// CORS from CORS_ORIGINS (preflights from the route declarations) and RFC 8288 `Link: rel="next"` on paged lists.
import assert from 'node:assert/strict';
import { expectStatus, startPacientesWorld, type PacientesWorld } from './pacientesWorld.js';
import { startTestServer } from '../support/harness.js';

const APP = 'https://app.clinic.example';
const OTHER = 'https://evil.example';

const preflight = (url: string, origin: string, method: string, headers = 'authorization, content-type') =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

describe('CORS and pagination links over HTTP', () => {
  let world: PacientesWorld;
  before(async () => {
    world = await startPacientesWorld({ env: { CORS_ORIGINS: `${APP}, http://localhost:5173` } });
  });
  after(async () => world?.close());

  it('answers an allowed origin’s preflight with the methods and request headers the path’s routes declare', async () => {
    const res = await preflight(`${world.server.url}/pacientes/0190f5b0-0000-7000-8000-000000000000`, APP, 'PATCH');
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), APP);
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    const methods = res.headers.get('access-control-allow-methods')!.split(', ');
    assert.ok(methods.includes('GET') && methods.includes('PATCH'), methods.join());
    assert.ok(!methods.includes('POST'), 'POST is declared on /pacientes, not on /pacientes/{id}');
    const headers = res.headers.get('access-control-allow-headers')!.toLowerCase().split(', ');
    for (const h of ['authorization', 'content-type', 'if-match']) assert.ok(headers.includes(h), `${h} in ${headers.join()}`);
    assert.equal(res.headers.get('access-control-max-age'), '600');
    assert.match(res.headers.get('vary') ?? '', /Origin/);

    const create = await preflight(`${world.server.url}/pacientes`, APP, 'POST');
    assert.ok(create.headers.get('access-control-allow-headers')!.split(', ').includes('Idempotency-Key'));
  });

  it('answers another origin’s preflight 403 without any allow header', async () => {
    const res = await preflight(`${world.server.url}/pacientes`, OTHER, 'GET');
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal(res.headers.get('access-control-allow-methods'), null);
    assert.equal(((await res.json()) as { type: string }).type, '/problems/cors-origin-not-allowed');
  });

  it('echoes an allowed origin on actual answers (errors too) and exposes the headers clients read', async () => {
    const list = await fetch(`${world.server.url}/pacientes`, { headers: { origin: APP, authorization: `Bearer ${world.a}` } });
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('access-control-allow-origin'), APP);
    const exposed = list.headers.get('access-control-expose-headers')!.split(', ');
    for (const h of ['ETag', 'Location', 'X-Event-Position', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Link'])
      assert.ok(exposed.includes(h), `${h} in ${exposed.join()}`);
    const unauthorized = await fetch(`${world.server.url}/pacientes`, { headers: { origin: APP } });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers.get('access-control-allow-origin'), APP);

    const other = await fetch(`${world.server.url}/pacientes`, { headers: { origin: OTHER, authorization: `Bearer ${world.a}` } });
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    assert.match(other.headers.get('vary') ?? '', /Origin/);
    const noOrigin = await fetch(`${world.server.url}/pacientes`, { headers: { authorization: `Bearer ${world.a}` } });
    assert.equal(noOrigin.headers.get('access-control-allow-origin'), null);
    assert.match(noOrigin.headers.get('vary') ?? '', /Origin/);
  });

  it('sends no CORS header at all when CORS_ORIGINS is unset', async () => {
    const server = await startTestServer();
    try {
      const res = await preflight(`${server.url}/pacientes`, APP, 'GET');
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      assert.equal(res.headers.get('access-control-allow-methods'), null);
    } finally {
      await server.close();
    }
  });

  it('links the next page of the patients list (same query, cursor replaced), none on the last page', async () => {
    for (let i = 0; i < 3; i++) await world.register(world.a, { familyNames: 'Enlazada Paginada' });
    const first = expectStatus(await world.call(world.a, 'GET', '/pacientes?q=paginada&limit=2'), 200);
    assert.equal(typeof first.body.nextCursor, 'string');
    const link = first.headers.get('link');
    const expected = `</pacientes?q=paginada&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}>; rel="next"`;
    assert.equal(link, expected);
    const next = expectStatus(await world.call(world.a, 'GET', link.slice(1, link.indexOf('>'))), 200);
    assert.equal(next.body.items.length, 1);
    assert.equal(next.body.nextCursor, null);
    assert.equal(next.headers.get('link'), null);
  });

  it('links the next page of the audit trail', async () => {
    const page = expectStatus(await world.call(world.a, 'GET', '/sistema/auditoria?limit=1'), 200);
    assert.equal(typeof page.body.nextCursor, 'string');
    assert.equal(page.headers.get('link'), `</sistema/auditoria?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}>; rel="next"`);
  });
});
