// Metrics, the access log and W3C tracing over real HTTP and stores (issue 27 items 1-3): a scrape names route
// templates and projection lag, the access line has its fields and no query values or bodies, a traceparent reaches
// the answer, the log line and the appended events' metadata, and spans reach an OTLP receiver only when configured.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { trace } from '@opentelemetry/api';
import { expectStatus, startStaffWorld, type Json, type StaffWorld } from './staffWorld.js';
import { registration } from './pacientesWorld.js';
import { tracingEnabled } from '../../src/observability/tracing.js';
import { accessLine, captureLogs } from './capturedLogs.js';
import { freePort } from '../../bench/processes.js';

const METRICS_TOKEN = 'metrics-token-0123456789';
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const traceparent = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

describe('Observability over HTTP: /metrics, access log, traceparent', () => {
  let w: StaffWorld;
  let logs: ReturnType<typeof captureLogs>;

  before(async () => {
    logs = captureLogs();
    w = await startStaffWorld({ env: { METRICS_TOKEN }, logLevel: 'info' });
  });
  after(async () => {
    await w?.close();
    logs.restore();
  });

  it('a scrape under a few requests shows the request histogram by route template and the projection lag', async () => {
    // The registry is the process's: other services in this test process count too, so the registration is a difference.
    const registrations = (text: string) =>
      Number(/http_request_duration_seconds_count\{method="POST",route="\/pacientes",status="201"\} (\d+)/.exec(text)?.[1] ?? 0);
    const scrapeText = async () =>
      (await fetch(`${w.server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const before = registrations(await scrapeText());
    const id = expectStatus(await w.call(w.a, 'POST', '/pacientes', { json: registration() }), 201).body.id as string;
    expectStatus(await w.call(w.a, 'GET', `/pacientes/${id}`), 200);
    expectStatus(await w.call(w.a, 'GET', '/pacientes?limit=5'), 200);
    const scrape = await fetch(`${w.server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(scrape.status, 200);
    assert.match(scrape.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await scrape.text();
    assert.match(text, /http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/pacientes\/\{id\}",status="200"\}/);
    assert.equal(registrations(text), before + 1);
    assert.ok(!text.includes(id), 'a raw URL never becomes a label');
    assert.match(text, /projection_lag_events\{projection="[^"]+"\} \d+/);
    assert.match(text, /process_manager_lag_events\{manager="[^"]+"\} \d+/);
    for (const name of [
      'http_requests_in_flight',
      'event_store_append_batch_size_count',
      'event_store_append_batch_seconds_count',
      'event_store_append_seconds_count',
      'event_store_fsync_seconds_count',
      'access_audit_queue_depth',
      'nodejs_heap_size_total_bytes',
    ])
      assert.match(text, new RegExp(`^${name}\\b`, 'm'), name);
  });

  it('the heap used after the latest full GC is the live set: garbage dropped before the GC is not in it', async () => {
    const scrapeLive = async () => {
      const text = await (await fetch(`${w.server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      return Number(/^nodejs_heap_used_after_major_gc_bytes ([\d.e+]+)/m.exec(text)?.[1] ?? NaN);
    };
    v8.setFlagsFromString('--expose-gc');
    const fullGc = vm.runInNewContext('gc') as () => void;
    // Both measured right after a full GC: heap used between GCs moves with sweeping and allocation, this does not.
    const held = { arrays: Array.from({ length: 64 }, () => Array.from({ length: 100_000 }, (_, i) => i + 0.5)) };
    fullGc();
    const withGarbage = process.memoryUsage().heapUsed;
    held.arrays = [];
    fullGc();
    const live = process.memoryUsage().heapUsed;
    assert.ok(withGarbage - live > 40 * 2 ** 20, `the garbage was ${withGarbage - live} bytes`);
    let reported = NaN;
    for (let turn = 0; turn < 50 && !(Math.abs(reported - live) < 0.2 * live); turn++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      reported = await scrapeLive();
    }
    assert.ok(Math.abs(reported - live) < 0.2 * live, `after-GC gauge ${reported}, heap used after the GC ${live}, before ${withGarbage}`);
  });

  it('/metrics needs the metrics bearer token: none, or a user access token, is a 401', async () => {
    const none = await fetch(`${w.server.url}/metrics`);
    assert.equal(none.status, 401);
    const user = await fetch(`${w.server.url}/metrics`, { headers: { authorization: `Bearer ${w.a}` } });
    assert.equal(user.status, 401);
    assert.ok(!(await user.text()).includes('http_request_duration'));
  });

  it('one access line per request: method, route template, status, duration, bytes, tenant, actor, ids; no query value, body or token', async () => {
    const answer = expectStatus(await w.call(w.a, 'GET', '/pacientes?q=Zoila&limit=5', { headers: { traceparent } }), 200);
    const line = await accessLine(logs.lines, answer.headers.get('x-request-id')!);
    const { companyId, userId } = w.server.admin;
    assert.deepEqual(
      [line.level, line.method, line.route, line.status, line.tenantId, line.actor, line.traceId, line.queryNames],
      ['info', 'GET', '/pacientes', 200, companyId, userId, CALLER_TRACE, ['q', 'limit']],
    );
    assert.equal(typeof line.durationMs, 'number');
    assert.equal(line.bytes, Number(answer.headers.get('content-length')));
    assert.equal(line.ip, '127.0.0.1');
    assert.ok(!line.raw.includes('Zoila'), 'no query value');
    assert.ok(!line.raw.includes(w.a), 'no token');

    const created = await w.call(w.a, 'POST', '/pacientes', { json: registration({ givenNames: 'Zenobia' }) });
    const written = await accessLine(logs.lines, expectStatus(created, 201).headers.get('x-request-id')!);
    assert.deepEqual([written.route, written.status], ['/pacientes', 201]);
    assert.ok(!written.raw.includes('Zenobia'), 'no body');
  });

  it('a refusal is logged at warn with the route template, whatever the sampling', async () => {
    const other = await w.call(w.b, 'GET', `/pacientes/${'0'.repeat(8)}-0000-4000-8000-000000000000`);
    const line = await accessLine(logs.lines, expectStatus(other, 404).headers.get('x-request-id')!);
    assert.deepEqual([line.level, line.route, line.status], ['warn', '/pacientes/{id}', 404]);
  });

  it('a traceparent is continued: the answer, the access line and the appended events name its trace', async () => {
    const created = await w.call(w.a, 'POST', '/pacientes', { json: registration(), headers: { traceparent, tracestate: 'vendor=abc' } });
    expectStatus(created, 201);
    const answered = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(created.headers.get('traceparent') ?? '');
    assert.ok(answered, 'the answer carries a traceparent');
    assert.equal(answered[1], CALLER_TRACE);
    assert.notEqual(answered[2], CALLER_SPAN, "the service's own span, child of the caller's");
    assert.equal(created.headers.get('tracestate'), 'vendor=abc');
    const correlationId = created.headers.get('x-request-id')!;
    assert.equal((await accessLine(logs.lines, correlationId)).traceId, CALLER_TRACE);
    const appended = (await w.server.services.events.readAll()).filter((e) => e.metadata.correlationId === correlationId);
    assert.ok(appended.length > 0);
    for (const event of appended) assert.deepEqual([event.metadata.traceId, event.metadata.spanId], [CALLER_TRACE, answered[2]]);
  });

  it('a malformed traceparent is ignored: a new trace starts', async () => {
    for (const bad of [
      `00-${'0'.repeat(32)}-${CALLER_SPAN}-01`,
      `00-${CALLER_TRACE}-${CALLER_SPAN}-01-extra`,
      'ff-x',
      `00-${CALLER_TRACE.toUpperCase()}-${CALLER_SPAN}-01`,
    ]) {
      const answer = expectStatus(await w.call(w.a, 'GET', '/pacientes?limit=1', { headers: { traceparent: bad } }), 200);
      const fresh = /^00-([0-9a-f]{32})-[0-9a-f]{16}-01$/.exec(answer.headers.get('traceparent') ?? '');
      assert.ok(fresh, bad);
      assert.notEqual(fresh[1], CALLER_TRACE, bad);
      assert.notEqual(fresh[1], '0'.repeat(32), bad);
    }
  });

  it('tracing is off by default: no tracer provider is registered and no span is recorded', () => {
    assert.equal(tracingEnabled(), false);
    const span = trace.getTracerProvider().getTracer('probe').startSpan('probe');
    assert.equal(span.isRecording(), false);
    span.end();
  });
});

describe('Observability over HTTP: the private metrics port and OTLP export', () => {
  let w: StaffWorld;
  let metricsPort: number;
  const received: Json[] = [];
  let receiver: http.Server;

  before(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ path: req.url, type: req.headers['content-type'], body: JSON.parse(body) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const otlp = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
    metricsPort = await freePort();
    w = await startStaffWorld({ env: { METRICS_PORT: String(metricsPort), OTEL_EXPORTER_OTLP_ENDPOINT: otlp } });
  });
  after(async () => {
    await w?.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('METRICS_PORT serves /metrics without a token; the main port then has no /metrics (404)', async () => {
    expectStatus(await w.call(w.a, 'GET', '/pacientes?limit=5'), 200);
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(scrape.status, 200);
    assert.match(await scrape.text(), /http_request_duration_seconds_count\{method="GET",route="\/pacientes",status="200"\}/);
    assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/pacientes`)).status, 404);
    assert.equal((await fetch(`${w.server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status, 404);
  });

  it('with an OTLP endpoint the request, command and append spans arrive in the caller trace', async () => {
    const created = await w.call(w.a, 'POST', '/pacientes', { json: registration(), headers: { traceparent } });
    expectStatus(created, 201);
    const serverSpan = created.headers.get('traceparent')!.split('-')[2];
    await w.close(); // the exporter sends what it holds at shutdown
    const spans = received.flatMap((r) =>
      (r.body.resourceSpans as Json[]).flatMap((rs: Json) => (rs.scopeSpans as Json[]).flatMap((ss: Json) => ss.spans as Json[])),
    );
    const inTrace = spans.filter((s) => s.traceId === CALLER_TRACE);
    const request = inTrace.find((s) => s.name === 'POST /pacientes');
    assert.ok(request, `spans: ${spans.map((s) => s.name).join(', ')}`);
    assert.deepEqual([request.spanId, request.parentSpanId], [serverSpan, CALLER_SPAN]);
    const command = inTrace.find((s) => String(s.name).startsWith('command '));
    assert.ok(command);
    assert.equal(command.parentSpanId, serverSpan);
    const append = inTrace.find((s) => s.name === 'event store append');
    assert.ok(append);
    assert.equal(append.parentSpanId, command.spanId);
    assert.ok(received.every((r) => r.path === '/v1/traces'));
  });
});
