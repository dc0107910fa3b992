// Issue 27's "Done when" walked end to end over real HTTP, on one live service configured as an operator would
// (METRICS_TOKEN, ACCESS_LOG=all, one CORS origin): a scrape under load, a traced write followed into the access log and
// the event store, compressed and revalidated reads, preflights. The typed client example runs against a live service
// in typescriptClient.test.ts (clients/typescript/example), which `npm test` runs in CI.
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { accessLine, captureLogs } from './capturedLogs.js';
import { registration } from './pacientesWorld.js';
import { expectStatus, startStaffWorld, type StaffWorld } from './staffWorld.js';

const METRICS_TOKEN = 'done-when-metrics-token-42';
const APP = 'https://ward.clinic.example';
const CALLER_TRACE = '5c0ff8b1e6a24d0f9c1e2d3a4b5c6d7e';
const traceparent = `00-${CALLER_TRACE}-1a2b3c4d5e6f7081-01`;
const LOAD = 40;

/** A GET as the wire carries it (still compressed), to see Content-Encoding, the bytes and a 304's empty body. */
function wire(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The samples of one metric family in a scrape, as label sets with their values. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const line = new RegExp(`^${name}\\{(.*)\\} (\\S+)$`, 'gm');
  return [...text.matchAll(line)].map((m) => ({
    labels: Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!])),
    value: Number(m[2]),
  }));
}

describe("Issue 27 done when: one operator's walk over a live service", () => {
  let w: StaffWorld;
  let logs: ReturnType<typeof captureLogs>;
  let patientId: string;
  const scrape = async (): Promise<string> => {
    const answer = await fetch(`${w.server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(answer.status, 200);
    return answer.text();
  };
  const count = (text: string, method: string, route: string, status: string): number =>
    samples(text, 'http_request_duration_seconds_count').find(
      (s) => s.labels.method === method && s.labels.route === route && s.labels.status === status,
    )?.value ?? 0;

  before(async () => {
    logs = captureLogs();
    w = await startStaffWorld({ env: { METRICS_TOKEN, ACCESS_LOG: 'all', CORS_ORIGINS: APP }, logLevel: 'info' });
  });
  after(async () => {
    await w?.close();
    logs.restore();
  });

  it('(a) a scrape under load shows the request histogram by route template and the projection lag', async () => {
    // The registry is the process's (other suites count too): the load is what the counts grew by.
    const before = await scrape();
    const written = await Promise.all(Array.from({ length: LOAD }, () => w.call(w.a, 'POST', '/pacientes', { json: registration() })));
    for (const answer of written) expectStatus(answer, 201);
    patientId = written[0]!.body.id as string;
    const reads = await Promise.all(
      Array.from({ length: LOAD }, (_, i) => w.call(w.a, 'GET', i % 2 ? '/pacientes?limit=20' : `/pacientes/${written[i]!.body.id}`)),
    );
    for (const answer of reads) expectStatus(answer, 200);
    const text = await scrape();

    for (const [method, route, status, requests] of [
      ['POST', '/pacientes', '201', LOAD],
      ['GET', '/pacientes', '200', LOAD / 2],
      ['GET', '/pacientes/{id}', '200', LOAD / 2],
    ] as const) {
      const grew = count(text, method, route, status) - count(before, method, route, status);
      assert.ok(grew >= requests, `${method} ${route} ${status}: ${grew} more observations for ${requests} requests`);
      const buckets = samples(text, 'http_request_duration_seconds_bucket').filter(
        (s) => s.labels.method === method && s.labels.route === route && s.labels.status === status,
      );
      assert.ok(buckets.length > 5, `${route}: ${buckets.length} buckets`);
      const values = buckets.map((b) => b.value);
      assert.deepEqual(
        values,
        [...values].sort((x, y) => x - y),
        `${route}: cumulative buckets`,
      );
      assert.equal(buckets.at(-1)!.labels.le, '+Inf');
      assert.equal(buckets.at(-1)!.value, count(text, method, route, status), `${route}: +Inf holds every observation`);
      const sum = samples(text, 'http_request_duration_seconds_sum').find(
        (s) => s.labels.method === method && s.labels.route === route && s.labels.status === status,
      );
      assert.ok(sum && sum.value > 0 && Number.isFinite(sum.value), `${route}: a positive duration sum`);
    }
    assert.ok(!text.includes(patientId), 'a raw URL never becomes a label');

    const total = (await w.server.services.events.readAll()).length;
    for (const gauge of ['projection_lag_events', 'process_manager_lag_events']) {
      const lags = samples(text, gauge);
      assert.ok(lags.length > 0, `${gauge} is scraped`);
      for (const lag of lags)
        assert.ok(Number.isInteger(lag.value) && lag.value >= 0 && lag.value <= total, `${gauge} ${JSON.stringify(lag)}`);
    }
  });

  it('(b) a traceparent reaches the answer, the access line and the metadata of the events it appended', async () => {
    const created = await w.call(w.a, 'POST', '/pacientes', { json: registration(), headers: { traceparent } });
    expectStatus(created, 201);
    const answered = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(created.headers.get('traceparent') ?? '');
    assert.ok(answered, 'the answer carries a traceparent');
    assert.equal(answered[1], CALLER_TRACE);
    const correlationId = created.headers.get('x-request-id')!;
    const line = await accessLine(logs.lines, correlationId);
    assert.deepEqual([line.method, line.route, line.status, line.traceId], ['POST', '/pacientes', 201, CALLER_TRACE]);
    const appended = (await w.server.services.events.readAll()).filter((e) => e.metadata.correlationId === correlationId);
    assert.ok(
      appended.some((e) => e.type === 'PatientRegistered'),
      appended.map((e) => e.type).join(),
    );
    for (const event of appended) assert.deepEqual([event.metadata.traceId, event.metadata.spanId], [CALLER_TRACE, answered[2]]);
  });

  it('(c) the contract and a list page arrive gzipped and brotli’d when asked, decoding to the same JSON', async () => {
    for (const [path, auth] of [
      ['/openapi.json', {}],
      ['/pacientes?limit=40', { authorization: `Bearer ${w.a}` }],
    ] as const) {
      const identity = await wire(`${w.server.url}${path}`, { ...auth, 'accept-encoding': 'identity' });
      assert.equal(identity.status, 200);
      assert.equal(identity.headers['content-encoding'], undefined);
      const json = JSON.parse(identity.bytes.toString('utf8'));
      for (const [coding, decode] of [
        ['gzip', zlib.gunzipSync],
        ['br', zlib.brotliDecompressSync],
      ] as const) {
        const answer = await wire(`${w.server.url}${path}`, { ...auth, 'accept-encoding': coding });
        assert.equal(answer.headers['content-encoding'], coding, `${path} ${coding}`);
        assert.ok(answer.bytes.length < identity.bytes.length, `${path} ${coding}: smaller`);
        assert.deepEqual(JSON.parse(decode(answer.bytes).toString('utf8')), json, `${path} ${coding}`);
        console.log(`      ${path}: ${coding} ${answer.bytes.length} of ${identity.bytes.length} bytes`);
      }
    }
  });

  it('(d) a repeated GET of a record and of a list page with If-None-Match answers 304 with no body', async () => {
    const auth = { authorization: `Bearer ${w.a}` };
    for (const path of [`/pacientes/${patientId}`, '/pacientes?limit=40']) {
      const first = await wire(`${w.server.url}${path}`, auth);
      assert.equal(first.status, 200);
      const etag = String(first.headers.etag ?? '');
      // A record keeps its revision's weak W/"n" (what If-Match compares); a list page has a strong ETag of its bytes.
      assert.match(etag, path.includes('?') ? /^"[^"]+"$/ : /^W\/"\d+"$/, `${path}: ETag ${etag}`);
      const again = await wire(`${w.server.url}${path}`, { ...auth, 'if-none-match': etag });
      assert.equal(again.status, 304, path);
      assert.equal(again.bytes.length, 0, `${path}: no body`);
      assert.equal(again.headers.etag, etag);
    }
  });

  it('(e) a preflight from the allowed origin gets the route’s methods; from another, no CORS allow header', async () => {
    const preflight = (origin: string) =>
      fetch(`${w.server.url}/pacientes/${patientId}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, if-match' },
      });
    const allowed = await preflight(APP);
    assert.ok(allowed.ok, `status ${allowed.status}`);
    assert.equal(allowed.headers.get('access-control-allow-origin'), APP);
    const methods = (allowed.headers.get('access-control-allow-methods') ?? '').split(', ');
    assert.ok(methods.includes('GET') && methods.includes('PATCH'), methods.join());
    const other = await preflight('https://elsewhere.example');
    assert.ok(!other.ok, `status ${other.status}`);
    for (const header of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers'])
      assert.equal(other.headers.get(header), null, header);
  });
});
