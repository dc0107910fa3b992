// Compression by Accept-Encoding and conditional GETs over real HTTP (issue 27 items 4 and 5): gzip and brotli answers
// decode to the same bytes, event streams are never compressed, If-None-Match answers 304 without a body (a read still
// audited), and Cache-Control says what a cache may keep.
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { accessLogStream, RECORD_ACCESSED } from '../../src/http/accessAudit.js';
import { compressibleType } from '../../src/http/compression.js';
import { expectStatus, startMonitoresWorld, unique, type MonitoresWorld } from './monitoresWorld.js';
import { openSse, type SseClient } from './sseClient.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they travelled (still compressed). */
  bytes: Buffer;
}

describe('Compression and conditional GETs over HTTP', () => {
  let w: MonitoresWorld;
  let patientId: string;

  /** A GET seen as the wire carries it: no client-side decoding. */
  const raw = (path: string, headers: Record<string, string> = {}, token: string | null = w.a): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      http
        .get(`${w.server.url}${path}`, { headers: { ...auth, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  const decoded = (answer: Raw): Buffer => {
    const coding = answer.headers['content-encoding'];
    if (coding === 'br') return zlib.brotliDecompressSync(answer.bytes);
    if (coding === 'gzip') return zlib.gunzipSync(answer.bytes);
    assert.equal(coding, undefined);
    return answer.bytes;
  };
  const vary = (answer: Raw): string[] =>
    String(answer.headers.vary ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase());

  before(async () => {
    w = await startMonitoresWorld();
    for (let i = 0; i < 50; i++) patientId = await w.patient(w.a);
  });
  after(async () => w?.close());

  describe('compression', () => {
    for (const [what, path, token] of [
      ['a list page of 50 patients', '/pacientes?limit=50', 'a'],
      ['the contract', '/openapi.json', null],
    ] as const) {
      it(`${what} arrives gzipped and brotli'd when asked, decoding to the identity bytes`, async () => {
        const bearer = token === null ? null : w.a;
        const identity = await raw(path, { 'accept-encoding': 'identity' }, bearer);
        assert.equal(identity.status, 200);
        assert.equal(identity.headers['content-encoding'], undefined);
        assert.ok(vary(identity).includes('accept-encoding'));
        const sizes: string[] = [`identity ${identity.bytes.length}`];
        for (const coding of ['gzip', 'br']) {
          const answer = await raw(path, { 'accept-encoding': coding }, bearer);
          assert.equal(answer.status, 200);
          assert.equal(answer.headers['content-encoding'], coding);
          assert.ok(vary(answer).includes('accept-encoding'));
          assert.match(String(answer.headers['content-type']), /json/);
          assert.deepEqual(JSON.parse(decoded(answer).toString('utf8')), JSON.parse(identity.bytes.toString('utf8')));
          assert.ok(answer.bytes.length < identity.bytes.length / 3, `${coding} is much smaller`);
          sizes.push(`${coding} ${answer.bytes.length}`);
        }
        // Prefers brotli when both are accepted.
        assert.equal((await raw(path, { 'accept-encoding': 'gzip, deflate, br' }, bearer)).headers['content-encoding'], 'br');
        console.log(`      ${what}: ${sizes.join(', ')} bytes`);
      });
    }

    it('a tiny body is not compressed, nor a refusal below the threshold', async () => {
      const tiny = await raw('/pacientes?limit=1&q=nobody-by-this-name', { 'accept-encoding': 'gzip, br' });
      assert.equal(tiny.status, 200);
      assert.ok(tiny.bytes.length < 1024);
      assert.equal(tiny.headers['content-encoding'], undefined);
      const refused = await raw('/pacientes', { 'accept-encoding': 'gzip, br' }, null);
      assert.equal(refused.status, 401);
      assert.equal(refused.headers['content-encoding'], undefined);
    });

    it('compresses JSON, problem+json, CSV, NDJSON, scripts and styles; never an event stream', () => {
      for (const type of [
        'application/json',
        'application/problem+json',
        'text/csv',
        'application/x-ndjson',
        'text/javascript',
        'text/css',
      ])
        assert.ok(compressibleType(type), type);
      for (const type of ['text/event-stream', 'image/png', 'application/pdf', 'application/octet-stream'])
        assert.ok(!compressibleType(type), type);
    });

    it('a problem+json above the threshold is compressed too', async () => {
      const path = `/nothing-here/${'x'.repeat(1500)}`;
      const answer = await raw(path, { 'accept-encoding': 'gzip' }, null);
      assert.equal(answer.status, 404);
      assert.equal(answer.headers['content-encoding'], 'gzip');
      assert.match(String(answer.headers['content-type']), /^application\/problem\+json/);
      assert.equal(JSON.parse(decoded(answer).toString('utf8')).status, 404);
    });

    it('the docs and panel bundles are served from forms compressed once: the same bytes every time', async () => {
      for (const path of ['/docs/assets/swagger-ui-bundle.js', '/panel/assets/panel.js']) {
        const identity = await raw(path, {}, null);
        assert.equal(identity.status, 200, path);
        for (const coding of ['br', 'gzip']) {
          const first = await raw(path, { 'accept-encoding': coding }, null);
          const again = await raw(path, { 'accept-encoding': coding }, null);
          assert.equal(first.headers['content-encoding'], coding);
          assert.match(String(first.headers['content-type']), /javascript/);
          assert.ok(decoded(first).equals(identity.bytes), `${path} ${coding} decodes to the file`);
          assert.ok(first.bytes.equals(again.bytes));
          assert.equal(Number(first.headers['content-length']), first.bytes.length, 'a known length: not compressed per request');
        }
      }
    });

    it('the change feed streams uncompressed, events arriving as they are written', async () => {
      let feed: SseClient | null = null;
      try {
        feed = await openSse(`${w.server.url}/sistema/eventos?recordType=patient`, w.a, { 'accept-encoding': 'gzip, br' });
        assert.equal(feed.status, 200);
        assert.match(String(feed.headers['content-type']), /^text\/event-stream/);
        assert.equal(feed.headers['content-encoding'], undefined);
        const before = feed.messages.length;
        await w.patient(w.a);
        await feed.until(before + 1);
      } finally {
        feed?.close();
      }
    });

    it('a live dashboard streams uncompressed: its panels arrive on opening', async () => {
      const mine = expectStatus(await w.call(w.a, 'GET', '/widgets/tableros/mio'), 200);
      const id = String(mine.body.id);
      const panels = [{ panelId: 'p', widgetId: 'dashboard-activity', params: {}, position: { x: 0, y: 0, w: 6, h: 4 } }];
      const headers = { 'if-match': mine.headers.get('etag')! };
      expectStatus(await w.call(w.a, 'PUT', `/widgets/tableros/${id}`, { json: { title: 'Live', panels }, headers }), 200);
      let live: SseClient | null = null;
      try {
        live = await openSse(`${w.server.url}/widgets/tableros/${id}/eventos`, w.a, { 'accept-encoding': 'gzip, br' });
        assert.equal(live.status, 200);
        assert.match(String(live.headers['content-type']), /^text\/event-stream/);
        assert.equal(live.headers['content-encoding'], undefined);
        await live.until(1);
      } finally {
        live?.close();
      }
    });
  });

  describe('conditional GETs and Cache-Control', () => {
    it('a list page has a strong ETag: If-None-Match answers 304 with no body, a change gives 200 with a new ETag', async () => {
      const first = await raw('/pacientes?limit=50', { 'accept-encoding': 'identity' });
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[^"]+"$/, 'strong');
      const again = await raw('/pacientes?limit=50', { 'if-none-match': etag });
      assert.equal(again.status, 304);
      assert.equal(again.bytes.length, 0);
      assert.equal(again.headers.etag, etag);
      assert.equal(again.headers['cache-control'], 'private, no-cache');
      // A compressed answer names its own representation, and revalidates too.
      const gz = await raw('/pacientes?limit=50', { 'accept-encoding': 'gzip' });
      assert.equal(gz.headers.etag, `${etag.slice(0, -1)}-gzip"`);
      const gz304 = await raw('/pacientes?limit=50', { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) });
      assert.equal(gz304.status, 304);
      assert.equal(gz304.headers.etag, gz.headers.etag, 'a 304 names the representation its 200 would have been');
      assert.equal((await raw('/pacientes?limit=50', { 'if-none-match': `"something-else", ${etag}` })).status, 304);
      assert.equal((await raw('/pacientes?limit=50', { 'if-none-match': '"something-else"' })).status, 200);

      await w.patient(w.a, { givenNames: 'Aaron' });
      const changed = await raw('/pacientes?limit=50', { 'if-none-match': etag });
      assert.equal(changed.status, 200);
      assert.notEqual(changed.headers.etag, etag);
      assert.ok(JSON.parse(changed.bytes.toString('utf8')).items.length > 0);
    });

    it('a Generador list page (prepared) revalidates too: 304 while unchanged, a new record gives 200 and a new ETag', async () => {
      const code = unique('acceso-');
      const fields = [{ name: 'flow', label: 'Flujo', type: 'integer', required: true, minimum: 0, maximum: 3000 }];
      const definition = {
        code,
        name: 'Acceso',
        patientLinked: false,
        fields,
        listFields: ['flow'],
        filterFields: [],
        sortFields: ['flow'],
      };
      expectStatus(await w.call(w.a, 'POST', '/generador/modulos', { json: definition }), 201);
      expectStatus(await w.call(w.a, 'POST', `/generador/modulos/${code}/publicacion`, { json: {} }), 200);
      const base = `/generador/m/${code}`;
      expectStatus(await w.call(w.a, 'POST', base, { json: { values: { flow: 900 } } }), 201);
      const first = await raw(`${base}?sort=flow`);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[^"]+"$/);
      const again = await raw(`${base}?sort=flow`, { 'if-none-match': etag });
      assert.equal(again.status, 304);
      assert.equal(again.bytes.length, 0);
      expectStatus(await w.call(w.a, 'POST', base, { json: { values: { flow: 1200 } } }), 201);
      const changed = await raw(`${base}?sort=flow`, { 'if-none-match': etag });
      assert.equal(changed.status, 200);
      assert.notEqual(changed.headers.etag, etag);
      assert.equal(JSON.parse(changed.bytes.toString('utf8')).items.length, 2);
    });

    it('a record answers 304 on its weak ETag (If-Match keeps working), and 200 once it changed', async () => {
      const path = `/pacientes/${patientId}`;
      const read = await raw(path);
      assert.equal(read.headers.etag, 'W/"0"');
      for (const tag of ['W/"0"', '"0"']) {
        const cached = await raw(path, { 'if-none-match': tag });
        assert.equal(cached.status, 304, tag);
        assert.equal(cached.bytes.length, 0);
        assert.equal(cached.headers.etag, 'W/"0"');
      }
      const newNumber = String(90_000_000 + Math.floor(Math.random() * 9_000_000));
      expectStatus(await w.call(w.a, 'PATCH', path, { json: { documentNumber: newNumber }, headers: { 'if-match': 'W/"0"' } }), 200);
      const changed = await raw(path, { 'if-none-match': 'W/"0"' });
      assert.equal(changed.status, 200);
      assert.equal(changed.headers.etag, 'W/"1"');
    });

    it('a read answered 304 is still in the access audit', async () => {
      const correlationId = unique('etag-read-');
      const unread = await w.patient(w.a); // reads of one record by one reader coalesce: a record never read before
      const cached = await raw(`/pacientes/${unread}`, { 'if-none-match': 'W/"0"', 'x-request-id': correlationId });
      assert.equal(cached.status, 304);
      await w.server.flushAccessAudit();
      const stream = accessLogStream(w.server.admin.companyId, w.server.services.now().toISOString());
      const entries = (await w.server.services.events.readStream(stream)).filter(
        (e) => e.type === RECORD_ACCESSED && e.metadata.correlationId === correlationId,
      );
      assert.equal(entries.length, 1);
      assert.equal((entries[0]!.data as { recordId: string }).recordId, unread);
    });

    it("If-None-Match never opens another company's record nor one the caller may not read", async () => {
      const path = `/pacientes/${patientId}`;
      assert.equal((await raw(path, { 'if-none-match': '*' }, w.b)).status, 404);
      const outsider = (await w.memberWith(['clientes:read'])).token;
      assert.equal((await raw(path, { 'if-none-match': '*' }, outsider)).status, 403);
      assert.equal((await raw('/pacientes?limit=50', { 'if-none-match': '*' }, outsider)).status, 403);
    });

    it('Cache-Control: private, no-cache on company data; no-store on tokens; no-cache on unversioned assets', async () => {
      assert.equal((await raw('/pacientes?limit=1')).headers['cache-control'], 'private, no-cache');
      assert.equal((await raw(`/pacientes/${patientId}`)).headers['cache-control'], 'private, no-cache');
      const login = await w.server.request('POST', '/auth/login', { body: { email: w.server.admin.email, password: 'wrong one' } });
      assert.equal(login.headers['cache-control'], 'no-store');
      const signIn = await w.server.request('POST', '/auth/login', {
        body: { email: w.server.admin.email, password: w.server.admin.password },
      });
      assert.equal(signIn.status, 200);
      assert.equal(signIn.headers['cache-control'], 'no-store');
      assert.equal((await raw('/auth/me')).headers['cache-control'] ?? 'no-store', 'no-store');
      // Hashed asset URLs are immutable (staticAssets.test.ts); the bare name is revalidated.
      assert.equal((await raw('/docs/assets/swagger-ui.css', {}, null)).headers['cache-control'], 'no-cache');
      assert.equal((await raw('/openapi.json', {}, null)).headers['cache-control'], 'no-cache');
    });
  });
});
