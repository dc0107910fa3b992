// The change feed as Server-Sent Events over real HTTP (issue 24, done-when): a client that disconnects and resumes
// with Last-Event-ID gets every event written while it was away exactly once; streams are bounded and end on shutdown.
import assert from 'node:assert/strict';
import { expectStatus, startClientesWorld, type ClientesWorld, type Json } from './clientesWorld.js';
import { openSse, type SseClient } from './sseClient.js';
import { FEED_LIMITS } from '../../src/http/routes/sistema/feedHub.js';
import { LIMITS } from '../../src/limits.js';

describe('Change feed over HTTP: GET /sistema/eventos as Server-Sent Events', () => {
  let w: ClientesWorld;
  const open: SseClient[] = [];

  const head = async (): Promise<string> =>
    expectStatus(await w.call(w.a, 'GET', '/sistema/eventos?from=0&limit=1'), 200).body.head as string;
  const sse = async (query: string, headers: Record<string, string> = {}, token = w.a): Promise<SseClient> => {
    const client = await openSse(`${w.server.url}/sistema/eventos?${query}`, token, headers);
    open.push(client);
    return client;
  };
  const clients = async (n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await w.client(w.a)).body.id as string);
    return ids;
  };
  const ofClients = (messages: { data: string }[]): Json[] =>
    messages.map((m) => JSON.parse(m.data) as Json).filter((e) => e.type === 'ClientRegistered');

  before(async () => {
    w = await startClientesWorld();
  });
  afterEach(async () => {
    for (const client of open.splice(0)) client.close();
    await new Promise((resolve) => setTimeout(resolve, 200)); // the server sees the hang-ups and frees their slots
  });
  after(async () => w?.close());

  it('resumes after a disconnect from Last-Event-ID: every event written meanwhile, exactly once, then live ones', async () => {
    const from = await head();
    const early = await clients(3);
    const first = await sse(`from=${from}&recordType=client`);
    assert.equal(first.status, 200);
    assert.match(String(first.headers['content-type']), /^text\/event-stream/);
    const seenFirst = await first.until(3);
    assert.ok(first.retry !== null && first.retry > 0, 'a retry hint');
    assert.deepEqual(
      ofClients(seenFirst).map((e) => e.recordId),
      early,
    );
    for (const m of seenFirst) {
      assert.equal(m.event, 'ClientRegistered');
      assert.equal(m.id, (JSON.parse(m.data) as Json).position);
    }
    const lastId = seenFirst.at(-1)!.id!;
    first.close();
    await first.ended;

    const whileAway = await clients(4);
    // Last-Event-ID wins over from (an EventSource resends its URL, with the old from, on every reconnect).
    const second = await sse(`from=${from}&recordType=client`, { 'last-event-id': lastId });
    const resumed = await second.until(4);
    assert.deepEqual(
      ofClients(resumed).map((e) => e.recordId),
      whileAway,
    );
    const live = await clients(2);
    const all = await second.until(6);
    assert.deepEqual(
      ofClients(all).map((e) => e.recordId),
      [...whileAway, ...live],
    );
    const ids = [...seenFirst, ...all].map((m) => m.id);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    const positions = ids.map((id) => BigInt(id!));
    assert.ok(
      positions.every((p, i) => i === 0 || p > positions[i - 1]!),
      'in log order',
    );
  });

  it('shows only what the caller may see, from its own company', async () => {
    const member = await w.memberWith(['clientes:read']);
    const from = await head();
    const stream = await sse(`from=${from}`, {}, member.token);
    expectStatus(await w.call(w.a, 'POST', '/pacientes', { json: (await import('./pacientesWorld.js')).registration() }), 201);
    expectStatus(await w.call(w.b, 'POST', '/clientes', { json: (await import('./clientesWorld.js')).clientBody() }), 201);
    const [mine] = await clients(1);
    const got = await stream.until(1);
    assert.deepEqual(
      got.map((m) => [m.event, (JSON.parse(m.data) as Json).recordId]),
      [['ClientRegistered', mine]],
    );
  });

  it(`bounds the open streams of a company (${FEED_LIMITS.maxOpenPerCompany}), answering 429 beyond`, async () => {
    const from = await head();
    const max = FEED_LIMITS.maxOpenPerCompany;
    for (let i = 0; i < max; i++) {
      const stream = await sse(`from=${from}`);
      assert.equal(stream.status, 200);
      // The slots left after this one (IETF RateLimit draft: a concurrency quota has no window nor reset).
      assert.equal(stream.headers['ratelimit-policy'], `"feed-streams";q=${max};qu="concurrent-requests"`);
      assert.equal(stream.headers['ratelimit'], `"feed-streams";r=${max - 1 - i}`);
    }
    const refused = await sse(`from=${from}`);
    assert.equal(refused.status, 429);
    assert.ok(refused.headers['retry-after']);
    assert.equal(refused.headers['ratelimit'], `"feed-streams";r=0;t=${refused.headers['retry-after']}`);
    await refused.ended;
    assert.match(refused.text(), /too-many-streams/);
    for (const client of open.splice(0)) client.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await sse(`from=${from}`)).status, 200, 'a closed stream frees its slot');
  });

  it('keeps a quiet stream alive with heartbeat comments, and ends it after an access token lifetime', async () => {
    const limits = FEED_LIMITS as { heartbeatMs: number; maxStreamMs: number };
    const kept = { ...limits };
    limits.heartbeatMs = 150;
    limits.maxStreamMs = 1_000;
    try {
      const stream = await sse(`from=${await head()}&recordType=machine`);
      const began = Date.now();
      await stream.ended;
      assert.ok(Date.now() - began < 5_000);
      assert.ok(stream.comments.filter((c) => c === 'heartbeat').length >= 3, stream.comments.join(','));
      assert.deepEqual(stream.messages, []);
    } finally {
      Object.assign(limits, kept);
    }
  });

  it('never outlives the access token that opened it', async () => {
    const member = await w.memberWith(['clientes:read']);
    const from = await head();
    w.server.clock.advance(LIMITS.accessToken.ttlSeconds * 1000 - 1_500);
    const stream = await sse(`from=${from}`, {}, member.token);
    assert.equal(stream.status, 200);
    const began = Date.now();
    await stream.ended;
    assert.ok(Date.now() - began < 4_000, `ended after ${Date.now() - began} ms`);
    await w.refreshSessions();
  });

  it('ends open streams when the service shuts down, without waiting for the clients', async () => {
    const other = await startClientesWorld();
    try {
      const from = expectStatus(await other.call(other.a, 'GET', '/sistema/eventos?from=0&limit=1'), 200).body.head as string;
      const stream = await openSse(`${other.server.url}/sistema/eventos?from=${from}`, other.a);
      const poll = other.call(other.a, 'GET', `/sistema/eventos?from=${from}&wait=30&recordType=machine`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const began = Date.now();
      await other.close();
      await stream.ended;
      assert.deepEqual((await poll).body.items, [], 'a long-poll answers its empty page');
      assert.ok(Date.now() - began < 3_000, `closed in ${Date.now() - began} ms`);
    } finally {
      await other.close();
    }
  });
});
