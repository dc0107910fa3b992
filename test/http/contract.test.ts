// The contract served by the Sistema group: the OpenAPI document, the docs page, readiness and projections.
import assert from 'node:assert/strict';
import { TOKENS } from './spineTestGroup.js';
import { problemOf, startSpineServer, type Json, type SpineServer } from './spineServer.js';
import { assertOpenApiShape, deref } from './openApiShape.js';

describe('HTTP spine: contract and Sistema routes', () => {
  let spine: SpineServer;
  const call: SpineServer['call'] = (p, init) => spine.call(p, init);

  before(async () => {
    spine = await startSpineServer();
  });
  after(async () => {
    await spine.close();
  });

  it('serves an OpenAPI 3.1 document listing every route with its full status table', async () => {
    const doc = (await (await call('/openapi.json')).json()) as Json;
    // Answers and parameters shared by several operations are components, referenced by $ref.
    const resolved = (o: Json): Json => deref(o, doc);
    assert.equal(doc.openapi, '3.1.0');
    assertOpenApiShape(doc);
    assert.match(doc.info.version, /^\d+\.\d+\.\d+/);
    for (const phrase of [
      '15 min',
      'HS256',
      '30 min',
      '12 h',
      'reuse',
      '429',
      'Retry-After',
      '256 KiB',
      'max 200',
      'If-Match',
      '428',
      '24 h',
      'minPosition',
      'X-Event-Position',
      '422',
      'semantic versioning',
    ]) {
      assert.ok(doc.info.description.includes(phrase), `info.description mentions ${phrase}`);
    }
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: doc.components.securitySchemes.bearerAuth.description,
    });
    assert.ok(doc.components.schemas.Problem);
    assert.deepEqual(
      doc.tags.map((t: Json) => t.name),
      ['Notas', 'Sistema'],
    );
    const ids = new Set<string>();
    for (const group of spine.groups) {
      for (const route of group.routes) {
        const op = doc.paths[route.path]?.[route.method];
        assert.ok(op, `${route.method} ${route.path} is documented`);
        assert.ok(!ids.has(op.operationId));
        ids.add(op.operationId);
        assert.deepEqual(op.tags, [route.tag]);
        for (const status of Object.keys(route.responses)) assert.ok(op.responses[status], `${route.path} documents ${status}`);
        assert.ok(op.responses['500']);
        assert.deepEqual(op.security ?? doc.security, route.auth === 'public' ? [] : [{ bearerAuth: [] }]);
      }
    }
    const post = doc.paths['/notas'].post;
    assert.deepEqual(Object.keys(post.responses), ['201', '400', '409', '413', '415', '422', '500', '503', '507']);
    assert.equal(resolved(post.responses['422']).content['application/problem+json'].schema.$ref, '#/components/schemas/Problem');
    assert.ok(post.parameters.map(resolved).some((p: Json) => p.in === 'header' && p.name === 'Idempotency-Key'));
    assert.deepEqual(Object.keys(doc.paths['/notas/{id}'].get.responses), ['200', '401', '403', '404', '422', '500']);
    assert.deepEqual(
      Object.keys(doc.paths['/yo'].get.responses),
      ['200', '401', '403', '500'],
      'a session route refuses API client tokens (403)',
    );
    const list = doc.paths['/notas'].get;
    assert.deepEqual(
      list.parameters.map(resolved).map((p: Json) => `${p.in}:${p.name}`),
      ['query:limit', 'query:cursor', 'query:updatedSince', 'query:minPosition'],
    );
    assert.ok(list.responses['503']);
  });

  it('serves the docs page with its assets from the local swagger-ui-dist package', async () => {
    const res = await call('/docs');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script>[^<]|https?:\/\//, 'no inline script, no external URL');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(
      assets.some((a) => /\/swagger-ui-bundle\.[0-9a-f]{12}\.js$/.test(a)),
      'a content-hashed URL',
    );
    for (const asset of assets) {
      const a = await call(asset);
      assert.equal(a.status, 200, asset);
      assert.ok((await a.arrayBuffer()).byteLength > 0, asset);
    }
    const init = await (await call('/docs/assets/docs-initializer.js')).text();
    assert.match(init, /\/openapi\.json/);
    await problemOf(await call('/docs/assets/..%2Fpackage.json'), 404, '/problems/not-found');
  });

  it('reports readiness and projection status, and starts a rebuild', async () => {
    assert.equal((await call('/notas', { method: 'POST', json: { text: 'before the rebuild', priority: 1 } })).status, 201);
    const ready = await call('/ready');
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as Json).status, 'ready');
    await problemOf(await call('/sistema/proyecciones', { token: TOKENS.reader }), 403, '/problems/platform-admin-required');
    const statuses = (await (await call('/sistema/proyecciones', { token: TOKENS.admin })).json()) as Json;
    assert.ok(statuses.items.some((s: Json) => s.name === 'notes' && typeof s.lag === 'number'));
    await problemOf(
      await call('/sistema/proyecciones/nope/reconstruir', { method: 'POST', token: TOKENS.admin }),
      404,
      '/problems/not-found',
    );
    const started = await call('/sistema/proyecciones/notes/reconstruir', { method: 'POST', token: TOKENS.admin });
    assert.equal(started.status, 202);
    const location = started.headers.get('location')!;
    assert.equal(location, '/sistema/proyecciones/notes');
    const watched = await call(location, { token: TOKENS.admin });
    assert.equal(watched.status, 200);
    assert.equal(((await watched.json()) as Json).name, 'notes');
    // Let the rebuild finish before the stores close (no time bound asserted).
    for (let state = 'rebuilding'; state === 'rebuilding'; await new Promise((r) => setTimeout(r, 20))) {
      state = ((await (await call(location, { token: TOKENS.admin })).json()) as Json).state;
    }
    const after = (await (await call('/notas?limit=200')).json()) as Json;
    assert.ok(
      after.items.some((n: Json) => n.text === 'before the rebuild'),
      'the rebuilt projection serves reads',
    );
  });
});
