// A webhook receiver of the test's own (node:http on 127.0.0.1): it answers each request with the next status of its
// script (the last one from then on), keeps what it received, and verifies Standard Webhooks signatures with node:crypto
// on its own, independently of the service's signer.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import type { ApiJson, TestServer } from './harness.js';

export interface ReceivedHook {
  id: string;
  timestamp: string;
  signatures: string[];
  /** The W3C traceparent the delivery was sent with, if any. */
  traceparent: string | null;
  body: string;
}

export interface TestReceiver {
  url: string;
  received: ReceivedHook[];
  /** Statuses answered to the next requests (the last one repeats). */
  script: number[];
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** True when one of the space-separated `v1,` signatures is the HMAC-SHA256 of id.timestamp.body with the secret. */
export function verifies(secret: string, hook: ReceivedHook): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${hook.id}.${hook.timestamp}.${hook.body}`).digest();
  return hook.signatures.some((s) => {
    const [version, value] = s.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export async function startReceiver(script: number[] = [200]): Promise<TestReceiver> {
  const received: ReceivedHook[] = [];
  const receiver = { script };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signatures: String(req.headers['webhook-signature'] ?? '').split(' '),
        traceparent: typeof req.headers.traceparent === 'string' ? req.headers.traceparent : null,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = receiver.script.length > 1 ? receiver.script.shift()! : (receiver.script[0] ?? 200);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'receiver failed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    get script() {
      return receiver.script;
    },
    set script(value: number[]) {
      receiver.script = value;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} requests, expected ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const HOOK_ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '0,60000,60000,60000' };
/** Past the longest jittered retry delay of HOOK_ENV (60 s + 20 %). */
export const PAST_RETRY_MS = 80_000;

let seq = 0;
export const createPosition = async (server: TestServer, token: string, headers: Record<string, string> = {}): Promise<ApiJson> => {
  const body = { code: `WH-${++seq}-${Date.now() % 100000}`, name: 'Webhook test', clinical: false, licenceRequired: false };
  const created = await server.request('POST', '/cargos-laborales', { token, body, headers });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
};

export const register = async (server: TestServer, token: string, url: string, eventTypes = ['jobPosition']): Promise<ApiJson> => {
  const created = await server.request('POST', '/sistema/webhooks', { token, body: { url, description: 'ERP', eventTypes } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
};
