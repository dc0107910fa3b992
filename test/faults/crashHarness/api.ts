// The harness's HTTP client of the service: the administrator signed in through the real flow (password, TOTP code at
// the service's clock, company selected), JSON calls that answer status and body, and a call that never throws when
// the service dies under it (its outcome says whether an answer came).
import { generate } from 'otplib';
import { ADMIN, type RunningService } from './service.js';
import { userIdOf } from '../../../bench/dialisisDay.js';

export type Json = Record<string, unknown>;

export interface Answer {
  status: number;
  body: Json;
}

/** What one request got: an answer, or nothing (the connection died: the service was killed while it was in flight). */
export type Outcome = { answered: true; status: number; body: Json } | { answered: false; error: string };

export interface Api {
  url: string;
  /** The signed-in administrator's user id. */
  userId: string;
  /** The service's clock: this process's plus its offset. */
  now(): Date;
  call(method: string, path: string, body?: unknown): Promise<Answer>;
  /** A call that must answer this status: its body. Calls wait out a 503 with Retry-After. */
  expect(status: number, method: string, path: string, body?: unknown): Promise<Json>;
  attempt(method: string, path: string, body?: unknown): Promise<Outcome>;
}

/**
 * A request as a client that is not under test sends it: a 503 with Retry-After (the service holding writes while it
 * recovers) is sent again after the time it names, for up to a minute.
 */
async function waitingOut503(url: string, method: string, token: string | null, body: unknown, timeoutMs: number): Promise<Answer> {
  const until = Date.now() + 60_000;
  for (;;) {
    const answer = await raw(url, method, token, body, timeoutMs);
    if (answer.status !== 503 || answer.retryAfterSeconds === null || Date.now() > until) return answer;
    await new Promise((r) => setTimeout(r, Math.min(answer.retryAfterSeconds!, 5) * 1000));
  }
}

async function raw(
  url: string,
  method: string,
  token: string | null,
  body: unknown,
  timeoutMs: number,
): Promise<Answer & { retryAfterSeconds: number | null }> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let parsed: Json;
  try {
    parsed = text ? (JSON.parse(text) as Json) : {};
  } catch {
    parsed = { text };
  }
  const retryAfter = res.headers.get('retry-after');
  return { status: res.status, body: parsed, retryAfterSeconds: retryAfter === null ? null : Number(retryAfter) || 1 };
}

export async function signIn(service: RunningService): Promise<Api> {
  const now = () => new Date(Date.now() + service.clockOffsetMs);
  const must = async (status: number, method: string, path: string, token: string | null, body?: unknown) => {
    const a = await waitingOut503(`${service.url}${path}`, method, token, body, 30_000);
    if (a.status !== status) throw new Error(`${method} ${path} answered ${a.status}: ${JSON.stringify(a.body)}`);
    return a.body;
  };
  const { challenge } = await must(200, 'POST', '/auth/login', null, { email: ADMIN.email, password: ADMIN.password });
  const code = await generate({ secret: ADMIN.totpSecret, epoch: Math.floor(now().getTime() / 1000) });
  const { accessToken } = await must(200, 'POST', '/auth/verify-2fa', null, { challenge, code });
  const tenants = (await must(200, 'GET', '/tenants', accessToken as string)) as { items: { id: string }[] };
  const selected = await must(200, 'POST', `/tenants/${tenants.items[0]!.id}/select`, accessToken as string, {});
  const token = (selected.accessToken as string | undefined) ?? (accessToken as string);
  const call = (method: string, path: string, body?: unknown) => waitingOut503(`${service.url}${path}`, method, token, body, 60_000);
  return {
    url: service.url,
    userId: userIdOf(token),
    now,
    call,
    async expect(status, method, path, body) {
      const a = await call(method, path, body);
      if (a.status !== status) throw new Error(`${method} ${path} answered ${a.status} (expected ${status}): ${JSON.stringify(a.body)}`);
      return a.body;
    },
    async attempt(method, path, body) {
      try {
        // Once: the operation under test is judged by the one answer it got (or did not get).
        const a = await raw(`${service.url}${path}`, method, token, body, 60_000);
        return { answered: true, status: a.status, body: a.body };
      } catch (err) {
        return { answered: false, error: String((err as { cause?: unknown }).cause ?? err) };
      }
    },
  };
}
