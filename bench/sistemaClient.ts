// The bench's side of the Sistema section: an authenticated JSON client of the service, a change feed reader on
// Server-Sent Events and a webhook receiver on loopback, each telling when a created record arrived.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LatencyFigures } from './scaleQueries.js';
import { patientBody } from './http.js';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** One request with the bench's bearer token; throws on an unexpected status. */
export function clientOf(url: string, token: string) {
  return async (method: 'GET' | 'POST', path: string, body?: unknown, expect: number[] = [200, 201, 202]): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!expect.includes(res.status)) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown>, headers: res.headers };
  };
}
export type Client = ReturnType<typeof clientOf>;

/** mean, p50 and p99 of samples in ms. */
export function summarize(samples: number[]): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { meanMs: round(samples.reduce((s, x) => s + x, 0) / Math.max(samples.length, 1)), p50Ms: round(at(0.5)), p99Ms: round(at(0.99)) };
}

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Arrival times (nowMs) by record id, and a wait for one of them. */
export class Arrivals {
  readonly at = new Map<string, number>();
  private readonly waiters = new Map<string, () => void>();
  count = 0;

  arrived(recordId: string): void {
    this.count++;
    if (!this.at.has(recordId)) this.at.set(recordId, nowMs());
    this.waiters.get(recordId)?.();
    this.waiters.delete(recordId);
  }

  async waitFor(recordId: string, timeoutMs = 30_000): Promise<number> {
    if (!this.at.has(recordId)) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${recordId} did not arrive within ${timeoutMs} ms`)), timeoutMs);
        this.waiters.set(recordId, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.at.get(recordId)!;
  }
}

/** Opens GET /sistema/eventos as SSE after `from`; each event's recordId is recorded on arrival. */
export async function openFeedStream(url: string, token: string, from: string, arrivals: Arrivals): Promise<{ close(): void }> {
  const hangUp = new AbortController();
  const res = await fetch(`${url}/sistema/eventos?from=${from}&recordType=patient`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: hangUp.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`SSE -> ${res.status} ${await res.text()}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split('\n').find((line) => line.startsWith('data: '));
          if (data) arrivals.arrived((JSON.parse(data.slice(6)) as { recordId: string }).recordId);
        }
      }
    } catch {
      /* hung up */
    }
  })();
  return { close: () => hangUp.abort() };
}

/** A webhook receiver on 127.0.0.1 answering 200 at once; each delivery's data.recordId is recorded on arrival. */
export async function startHookReceiver(arrivals: Arrivals): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { recordId: string } };
      arrivals.arrived(body.data.recordId);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let patients = 0;
/** A new patient of the company over HTTP (the group's main command): its id and when the answer came. */
export async function registerPatient(client: Client): Promise<{ id: string; ackAt: number }> {
  const n = patients++;
  const answer = await client('POST', '/pacientes', JSON.parse(patientBody(n, '8')));
  return { id: answer.body.id as string, ackAt: nowMs() };
}
