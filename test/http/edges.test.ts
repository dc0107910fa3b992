// Requests a hostile or broken client can send before any route runs: each answers a 4xx problem+json, never a
// 500 and never an empty body.
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestServer, type TestServer } from '../support/harness.js';

/** Sends raw bytes and returns what the server wrote before closing. */
function rawRequest(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
}

function parseRaw(answer: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('HTTP edges: malformed requests answer problem+json', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  for (const coding of ['gzip', 'deflate', 'br', 'x-unknown']) {
    it(`refuses a body with Content-Encoding: ${coding} with 415, unauthenticated or not`, async () => {
      const res = await fetch(`${server.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
        body: JSON.stringify({ email: 'nobody@clinic.example', password: 'whatever password' }),
      });
      assert.equal(res.status, 415);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(res.headers.get('accept-encoding'), 'identity');
      const body = (await res.json()) as { type: string };
      assert.equal(body.type, '/problems/unsupported-content-encoding');
    });
  }

  it('accepts Content-Encoding: identity as no encoding at all', async () => {
    const res = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: JSON.stringify({ email: 'nobody@clinic.example', password: 'whatever password' }),
    });
    assert.equal(res.status, 401);
  });

  for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
    it(`answers 404 for the docs asset "${name}" (no prototype lookup)`, async () => {
      const res = await server.request('GET', `/docs/assets/${name}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.type, '/problems/not-found');
    });
  }

  it('answers a request line over the header limit with 431 problem+json', async () => {
    const answer = parseRaw(await rawRequest(server.port, `GET /${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    assert.equal(answer.status, 431);
    assert.match(answer.headers['content-type'] ?? '', /application\/problem\+json/);
    const body = JSON.parse(answer.body) as { status: number; type: string };
    assert.equal(body.status, 431);
    assert.equal(body.type, '/problems/request-header-fields-too-large');
  });

  for (const [what, target] of [
    ['a raw space', '/a b'],
    ['a raw non-ASCII byte', '/\u00e9'],
  ] as const) {
    it(`answers a URL with ${what} with 400 problem+json`, async () => {
      const answer = parseRaw(await rawRequest(server.port, Buffer.from(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1')));
      assert.equal(answer.status, 400);
      assert.match(answer.headers['content-type'] ?? '', /application\/problem\+json/);
      const body = JSON.parse(answer.body) as { status: number; type: string };
      assert.equal(body.status, 400);
      assert.equal(body.type, '/problems/bad-request');
    });
  }

  it('still serves the next client after refusing malformed requests', async () => {
    const res = await server.request('GET', '/health');
    assert.equal(res.status, 200);
  });
});
