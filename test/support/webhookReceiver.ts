// A webhook receiver of the test's own (node:http on 127.0.0.1): it answers each request with the next status of its
// script (the last one from then on), keeps what it received, and verifies Standard Webhooks signatures with node:crypto
// on its own, independently of the service's signer.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  id: string;
  timestamp: string;
  signatures: string[];
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
