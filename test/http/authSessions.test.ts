// Sessions and tokens: refresh rotation and reuse, logout, idle and absolute expiry, bad tokens.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';

const { email, password, totpSecret } = TEST_ADMIN;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('HTTP sign-in: sessions and tokens', function () {
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(async () => server?.close());

  const signIn = () => server.signIn(email, password, totpSecret);
  const me = (token: string) => server.request('GET', '/auth/me', { token });
  const refresh = (refreshToken: string) => server.request('POST', '/auth/refresh', { body: { refreshToken } });

  it('rotates the refresh token on every use', async () => {
    const first = await signIn();
    const second = await refresh(first.refreshToken);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.notEqual(second.body.refreshToken, first.refreshToken);
    assert.equal(second.body.tokenType, 'Bearer');
    assert.equal((await me(second.body.accessToken)).status, 200);
    const third = await refresh(second.body.refreshToken);
    assert.equal(third.status, 200);
  });

  it('revokes the whole session when an old refresh token is presented again', async () => {
    const first = await signIn();
    await server.selectTenant(first.accessToken, server.admin.companyId);
    const second = await refresh(first.refreshToken);
    assert.equal(second.status, 200);
    const reused = await refresh(first.refreshToken);
    assert.equal(reused.status, 401);
    assert.equal(reused.body.type, '/problems/invalid-refresh-token');
    assert.equal((await refresh(second.body.refreshToken)).status, 401, 'the latest refresh token died with the session');
    assert.equal((await me(second.body.accessToken)).status, 401, 'and so did every access token');
    assert.equal((await server.request('GET', '/pacientes', { token: first.accessToken })).status, 401);
  });

  it('refuses made-up refresh tokens without harming the session', async () => {
    const first = await signIn();
    const sessionId = first.refreshToken.split('.')[0];
    assert.equal((await refresh(`${sessionId}.${'A'.repeat(43)}`)).status, 401);
    assert.equal((await refresh('garbage')).status, 401);
    assert.equal((await refresh(first.refreshToken)).status, 200);
  });

  it('logout makes the tokens useless at once', async () => {
    const tokens = await signIn();
    const out = await server.request('POST', '/auth/logout', { token: tokens.accessToken });
    assert.equal(out.status, 204);
    const after = await me(tokens.accessToken);
    assert.equal(after.status, 401);
    assert.match(after.headers['www-authenticate'] ?? '', /^Bearer /);
    assert.equal((await refresh(tokens.refreshToken)).status, 401);
  });

  it('expires a session after 30 idle minutes, and keeps an active one', async () => {
    const idle = await signIn();
    let active = await signIn();
    for (let minutes = 7; minutes <= 35; minutes += 7) {
      server.clock.advance(7 * 60_000);
      const next = await refresh(active.refreshToken);
      assert.equal(next.status, 200, `the active session refreshes at ${minutes} min`);
      active = next.body;
      assert.equal((await me(active.accessToken)).status, 200);
    }
    assert.equal((await me(idle.accessToken)).status, 401, 'the idle one is gone');
    assert.equal((await refresh(idle.refreshToken)).status, 401);
    const stream = `platform.session-${idle.refreshToken.split('.')[0]}`;
    const last = (await server.services.events.readStream(stream)).at(-1)!;
    assert.deepEqual([last.type, (last.data as { reason: string }).reason], ['SessionExpired', 'idle']);
  });

  it('ends every session after 12 hours, however active', async () => {
    let tokens = await signIn();
    for (let elapsed = 0; elapsed < 12 * 60 - 14; elapsed += 14) {
      server.clock.advance(14 * 60_000);
      const next = await refresh(tokens.refreshToken);
      assert.equal(next.status, 200, `refresh at ${elapsed + 14} min`);
      tokens = next.body;
    }
    server.clock.advance(14 * 60_000);
    assert.equal((await refresh(tokens.refreshToken)).status, 401);
    assert.equal((await me(tokens.accessToken)).status, 401);
  });

  it('answers 401 with WWW-Authenticate for tampered, expired, alg-none and foreign tokens', async () => {
    const { accessToken } = await signIn();
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const key = Buffer.from((await fs.readFile(path.join(server.dataDir, 'jwt.key'), 'utf8')).trim(), 'base64');
    const { exp: _exp, ...withoutExp } = claims;
    const bad = {
      tampered: `${header}.${b64url({ ...claims, sub: 'someone-else' })}.${signature}`,
      badSignature: `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
      algNone: `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      foreignKey: jwt.sign(claims, 'another key that is long enough to be used here', { algorithm: 'HS256' }),
      noExp: jwt.sign(withoutExp, key, { algorithm: 'HS256' }),
      wrongAudience: jwt.sign({ ...claims, aud: 'someone-else' }, key, { algorithm: 'HS256' }),
      notAJwt: 'abc.def',
    };
    for (const [name, token] of Object.entries(bad)) {
      const answer = await me(token);
      assert.equal(answer.status, 401, name);
      assert.match(answer.headers['www-authenticate'] ?? '', /^Bearer realm="dialysis", error="invalid_token"/, name);
    }
    assert.equal((await me(accessToken)).status, 200, 'the genuine token still works');
    server.clock.advance(15 * 60_000 + 1000);
    const expired = await me(accessToken);
    assert.equal(expired.status, 401);
    assert.match(expired.headers['www-authenticate'] ?? '', /expired/);
    const missing = await server.request('GET', '/auth/me');
    assert.equal(missing.status, 401);
    assert.match(missing.headers['www-authenticate'] ?? '', /^Bearer/);
  });

  it('keeps generated keys private in DATA_DIR', async () => {
    for (const file of ['jwt.key', 'totp.key']) {
      const mode = (await fs.stat(path.join(server.dataDir, file))).mode & 0o777;
      assert.equal(mode, 0o600, file);
    }
  });
});
