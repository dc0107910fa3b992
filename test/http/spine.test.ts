// The HTTP spine over real HTTP: errors, validation, auth, idempotency, read-your-writes and access audit.
import assert from 'node:assert/strict';
import { accessLogStream } from '../../src/http/accessAudit.js';
import { newGate, TOKENS } from './spineTestGroup.js';
import { problemOf, startSpineServer, type Json, type SpineServer } from './spineServer.js';

describe('HTTP spine', () => {
  let spine: SpineServer;
  const call: SpineServer['call'] = (p, init) => spine.call(p, init);

  before(async () => {
    spine = await startSpineServer();
  });
  after(async () => {
    await spine.close();
  });

  it('answers with a correlation id and security headers', async () => {
    const res = await call('/health', { headers: { 'x-request-id': 'abc-123' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
    assert.equal(res.headers.get('x-request-id'), 'abc-123');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    const unsafe = await call('/health', { headers: { 'x-request-id': 'bad id\twith <script>' } });
    assert.match(unsafe.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('answers 400 with a fixed detail for malformed JSON', async () => {
    const res = await call('/notas', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text": "a", ' });
    const body = await problemOf(res, 400, '/problems/malformed-json');
    assert.doesNotMatch(JSON.stringify(body), /Unexpected|position|JSON\.parse/);
    assert.equal(body.instance, '/notas');
  });

  it('answers 422 naming each invalid, missing and unexpected field with a pointer', async () => {
    const res = await call('/notas', { method: 'POST', json: { priority: 9, extra: 1, also: true } });
    const body = await problemOf(res, 422, '/problems/validation-failed');
    const pointers = (body.errors as { pointer: string; message: string }[]).map((e) => e.pointer).sort();
    assert.deepEqual(pointers, ['/body/also', '/body/extra', '/body/priority', '/body/text']);
    assert.ok(body.errors.find((e: Json) => e.pointer === '/body/extra').message.includes("'extra'"));
    // A bodiless request is {} however it is framed: no type, a JSON type, or a JSON type with Content-Length: 0.
    for (const init of [
      {},
      { headers: { 'content-type': 'application/json' } },
      { headers: { 'content-type': 'application/json' }, body: '' },
    ]) {
      const empty = await call('/notas', { method: 'POST', ...init });
      assert.deepEqual((await problemOf(empty, 422, '/problems/validation-failed')).errors.map((e: Json) => e.pointer).sort(), [
        '/body/priority',
        '/body/text',
      ]);
    }
    assert.equal((await call('/notas', { headers: { 'content-type': 'application/json' } })).status, 200);
  });

  it('validates and coerces query strings and path params', async () => {
    const bad = await problemOf(await call('/notas?limit=abc&other=1'), 422, '/problems/validation-failed');
    assert.deepEqual(bad.errors.map((e: Json) => e.pointer).sort(), ['/query/limit', '/query/other']);
    const ok = await call('/notas?limit=5');
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as Json).limit, 5);
    const dflt = await call('/notas');
    assert.equal(((await dflt.json()) as Json).limit, 50);
    const badId = await problemOf(await call('/notas/not-a-uuid', { token: TOKENS.reader }), 422, '/problems/validation-failed');
    assert.equal(badId.errors[0].pointer, '/params/id');
  });

  it('answers 415 for a body that is not JSON and 413 for one over the limit', async () => {
    const res = await call('/notas', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'text=hello' });
    await problemOf(res, 415, '/problems/unsupported-media-type');
    const big = JSON.stringify({ text: 'x'.repeat(300 * 1024), priority: 1 });
    const tooBig = await call('/notas', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    await problemOf(tooBig, 413, '/problems/payload-too-large');
  });

  it('answers 404 for an unknown path and 405 with Allow for a wrong method', async () => {
    const nf = await problemOf(await call('/no-such-thing'), 404, '/problems/not-found');
    assert.equal(nf.instance, '/no-such-thing');
    const res = await call('/notas', { method: 'DELETE' });
    await problemOf(res, 405, '/problems/method-not-allowed');
    const allow = (res.headers.get('allow') ?? '').split(/,\s*/).sort();
    assert.deepEqual(allow, ['GET', 'HEAD', 'POST']);
  });

  it('answers 500 without internals, and logs the error with the correlation id and stack', async () => {
    const res = await call('/boom', { headers: { 'x-request-id': 'boom-1' } });
    const body = await problemOf(res, 500, '/problems/internal');
    assert.equal(body.correlationId, 'boom-1');
    assert.doesNotMatch(JSON.stringify(body), /secret|sqlite|\/var\/lib|at .*\.ts/);
    const entry = spine.logged.find((l) => l.level === 'error' && l.fields?.correlationId === 'boom-1');
    assert.ok(entry, 'the error is logged with its correlation id');
    assert.equal(entry.msg, 'unexpected error');
    assert.match(String((entry.fields?.error as Error).stack), /secret internal detail/);
    const access = spine.logged.find((l) => l.msg === 'access' && l.fields?.correlationId === 'boom-1');
    assert.deepEqual([access?.level, access?.fields?.status, access?.fields?.problem], ['error', 500, 'internal']);
  });

  it('a 503 the code chose (read models rebuilding) is an answer: a warn access line, no error line', async () => {
    const res = await call('/ocupado', { headers: { 'x-request-id': 'busy-1' } });
    const body = await problemOf(res, 503, '/problems/read-model-rebuilding');
    assert.equal(res.headers.get('retry-after'), '5');
    assert.equal(body.title, 'Service Unavailable');
    const lines = spine.logged.filter((l) => l.fields?.correlationId === 'busy-1');
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg, l.fields?.status, l.fields?.problem]),
      [['warn', 'access', 503, 'read-model-rebuilding']],
    );
  });

  it('maps domain errors to their status and stable code, with their fields', async () => {
    const rule = await problemOf(await call('/reglas', { method: 'POST', json: { kind: 'rule' } }), 409, '/problems/note-locked');
    assert.equal(rule.detail, 'the note is locked');
    assert.equal(rule.lockedBy, 'u1');
    const fields = await problemOf(await call('/reglas', { method: 'POST', json: { kind: 'fields' } }), 422, '/problems/validation-failed');
    assert.deepEqual(fields.errors, [{ pointer: '/body/birthDate', message: 'is in the future' }]);
  });

  it('answers 500 when a 2xx body drifts from its declared schema (tests enforce the contract)', async () => {
    const res = await call('/drift', { headers: { 'x-request-id': 'drift-1' } });
    await problemOf(res, 500, '/problems/internal');
    assert.ok(spine.logged.some((l) => l.fields?.correlationId === 'drift-1' && /declared schema/.test(l.msg)));
    const access = spine.logged.find((l) => l.msg === 'access' && l.fields?.correlationId === 'drift-1');
    assert.equal(access?.level, 'error', 'a 500 raised on purpose is still a fault');
  });

  it('checks a prepared body against its declared schema on every send (the verdict kept with the text)', async () => {
    for (const id of ['prepared-1', 'prepared-2']) {
      await problemOf(await call('/drift-prepared', { headers: { 'x-request-id': id } }), 500, '/problems/internal');
      assert.ok(spine.logged.some((l) => l.fields?.correlationId === id && /declared schema/.test(l.msg)));
    }
    for (let n = 0; n < 2; n++) {
      const res = await call('/drift-prepared?conforming=true');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(await res.text(), '{"ok":true}');
    }
  });

  it('outside tests a drifting 2xx body is logged and answered as the handler made it, never a 500', async () => {
    const served = await startSpineServer({ responseCheck: 'log' });
    try {
      const res = await served.call('/drift', { headers: { 'x-request-id': 'drift-2' } });
      assert.equal(res.status, 200);
      assert.ok(served.logged.some((l) => l.level === 'error' && l.fields?.correlationId === 'drift-2' && /declared schema/.test(l.msg)));
    } finally {
      await served.close();
    }
  });

  it('answers 401 with WWW-Authenticate for a missing, malformed or unknown token', async () => {
    const missing = await call('/yo');
    await problemOf(missing, 401, '/problems/unauthorized');
    assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer realm=/);
    const malformed = await call('/yo', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    await problemOf(malformed, 401, '/problems/unauthorized');
    assert.match(malformed.headers.get('www-authenticate') ?? '', /error="invalid_request"/);
    const unknown = await call('/yo', { token: 'tok-forged' });
    await problemOf(unknown, 401, '/problems/unauthorized');
    assert.match(unknown.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });

  it('runs session routes with the principal, scoped to the platform', async () => {
    const res = await call('/yo', { token: TOKENS.reader });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { userId: 'user-clinicA-1', tenantId: 'clinicA', scope: 'platform' });
  });

  it('answers 403 company-not-selected and 403 forbidden on tenant routes', async () => {
    const id = '0b6f1f8e-8a4c-4c36-9a7e-2f1d3c4b5a69';
    const noCompany = await problemOf(await call(`/notas/${id}`, { token: TOKENS.noCompany }), 403, '/problems/company-not-selected');
    assert.match(noCompany.detail, /POST \/tenants\/\{id\}\/select/);
    const noPermission = await problemOf(await call(`/notas/${id}`, { token: TOKENS.noPermission }), 403, '/problems/forbidden');
    assert.match(noPermission.detail, /notas:read/);
    await problemOf(await call(`/notas/${id}`, { token: TOKENS.reader }), 404, '/problems/not-found');
  });

  it('replays an idempotent request, and refuses the key with another body', async () => {
    const key = `note-${Date.now()}`;
    const first = await call('/notas', {
      method: 'POST',
      json: { text: 'dry weight 70.5 kg', priority: 2 },
      headers: { 'idempotency-key': key },
    });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const created = (await first.json()) as Json;
    const again = await call('/notas', {
      method: 'POST',
      json: { priority: 2, text: 'dry weight 70.5 kg' },
      headers: { 'idempotency-key': key },
    });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await again.json(), created);
    assert.equal(again.headers.get('location'), first.headers.get('location'));
    assert.equal(again.headers.get('etag'), first.headers.get('etag'));
    assert.equal((await spine.events.readStream(`platform.note-${created.id}`)).length, 1, 'the note was added once');
    const reused = await call('/notas', { method: 'POST', json: { text: 'another', priority: 2 }, headers: { 'idempotency-key': key } });
    await problemOf(reused, 422, '/problems/idempotency-key-reused');
    const badKey = await call('/notas', { method: 'POST', json: { text: 'x', priority: 1 }, headers: { 'idempotency-key': 'has space' } });
    assert.equal((await problemOf(badKey, 422, '/problems/validation-failed')).errors[0].pointer, '/headers/idempotency-key');
  });

  it('answers 409 for a key whose first request is still running', async () => {
    spine.gate.current = newGate();
    const key = `slow-${Date.now()}`;
    const first = call('/lento', { method: 'POST', json: {}, headers: { 'idempotency-key': key } });
    await spine.gate.current.entered;
    const second = await call('/lento', { method: 'POST', json: {}, headers: { 'idempotency-key': key } });
    await problemOf(second, 409, '/problems/idempotency-key-in-flight');
    spine.gate.current.release();
    assert.equal((await first).status, 200);
  });

  it('lets a client read its own write through minPosition', async () => {
    const res = await call('/notas', { method: 'POST', json: { text: 'read me', priority: 1 } });
    assert.equal(res.status, 201);
    const position = res.headers.get('x-event-position');
    assert.match(position ?? '', /^c1\.[A-Za-z0-9_-]+$/);
    const list = (await (await call(`/notas?limit=200&minPosition=${position}`)).json()) as Json;
    assert.ok(list.items.some((n: Json) => n.text === 'read me'));
  });

  it('audits reads of records declared auditAccess', async () => {
    const created = (await (await call('/notas', { method: 'POST', json: { text: 'audited', priority: 3 } })).json()) as Json;
    const res = await call(`/notas/${created.id}`, { token: TOKENS.reader, headers: { 'user-agent': 'spine-test' } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Json).scope, 'clinicA');
    await spine.app.accessAudit.flush();
    const log = await spine.events.readStream(accessLogStream('clinicA', new Date().toISOString()));
    const entry = log.find((e) => e.type === 'RecordAccessed' && e.data.recordId === created.id);
    assert.ok(entry, 'a RecordAccessed event was appended');
    assert.equal(entry.data.recordType, 'note');
    assert.equal(entry.data.route, '/notas/{id}');
    assert.equal(entry.metadata.actor, 'user-clinicA-1');
    assert.equal(entry.metadata.userAgent, 'spine-test');
    assert.equal(entry.metadata.correlationId, res.headers.get('x-request-id'));
  });
});
