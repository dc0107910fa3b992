// One webhook attempt over HTTP(S): connects to the address checked beforehand (never resolving the name again, so DNS
// rebinding cannot move it), with the URL's name as Host and TLS SNI; checks the address actually connected to; bounds
// the whole exchange in time and the response in size.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isBlockedAddress, type Target } from './webhookTargets.js';

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
}

/** Characters of a response body kept in the delivery log. */
export const KEPT_RESPONSE_CHARS = 1024;

/** A lookup that answers the checked address whatever it is asked. */
const pinned =
  (target: Target): LookupFunction =>
  (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

export function postWebhook(
  target: Target,
  headers: Record<string, string>,
  body: string,
  limits: { timeoutMs: number; maxResponseBytes: number; allowPrivateTargets: boolean },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const client = target.url.protocol === 'https:' ? https : http;
    const req = client.request(target.url, {
      method: 'POST',
      // A connection of its own: a pooled socket may lead elsewhere, and it would never be checked.
      agent: false,
      lookup: pinned(target),
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString(), ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({ statusCode: null, responseBody: null, error: `no answer within ${limits.timeoutMs} ms` });
    }, limits.timeoutMs);
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        const address = socket.remoteAddress ?? '';
        if (!limits.allowPrivateTargets && isBlockedAddress(address)) {
          req.destroy();
          finish({ statusCode: null, responseBody: null, error: `connected to ${address}, a private or reserved address` });
        }
      });
    });
    req.on('error', (err) => finish({ statusCode: null, responseBody: null, error: err.message }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        finish({
          statusCode: res.statusCode ?? null,
          responseBody: Buffer.concat(chunks).toString('utf8').slice(0, KEPT_RESPONSE_CHARS) || null,
          error: null,
        });
      res.on('data', (chunk: Buffer) => {
        const room = limits.maxResponseBytes - size;
        size += chunk.length;
        chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, Math.max(0, room)));
        if (size > limits.maxResponseBytes) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(body);
  });
}
