// Device tokens (OWASP's device-cookie pattern): a client that completed sign-in presents its device token at the
// next login, and failures that came without it (someone who knows the e-mail, or even the password) do not hold it.
import assert from 'node:assert/strict';
import { startTestServer, TEST_ADMIN, type ApiJson, type HttpAnswer, type TestServer } from '../support/harness.js';
import { deref } from './openApiShape.js';
import { wrongCode } from '../support/totpCodes.js';
import { LIMITS } from '../../src/limits.js';
import { PLATFORM_TENANT, streamName } from '../../src/stores/eventStore.js';

const { email, password, totpSecret } = TEST_ADMIN;

describe('HTTP sign-in: trusted devices', function () {
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(async () => server?.close());

  const login = (pw: string, deviceToken?: string): Promise<HttpAnswer> =>
    server.request('POST', '/auth/login', { body: { email, password: pw, ...(deviceToken ? { deviceToken } : {}) } });
  const verify = (challenge: string, code: string): Promise<HttpAnswer> =>
    server.request('POST', '/auth/verify-2fa', { body: { challenge, code } });

  /** A full sign-in, optionally presenting a device token; answers the verify-2fa body. */
  async function signIn(deviceToken?: string): Promise<{ accessToken: string; deviceToken: string }> {
    const challenge = await login(password, deviceToken);
    assert.equal(challenge.status, 200, JSON.stringify(challenge.body));
    server.nextTotpStep();
    const verified = await verify(challenge.body.challenge, await server.totpCode(totpSecret));
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    return verified.body;
  }

  it('returns a device token on sign-in and keeps only its SHA-256 on the user stream', async () => {
    const { deviceToken } = await signIn();
    assert.equal(typeof deviceToken, 'string');
    assert.ok(deviceToken.length >= 43, 'at least 256 random bits');
    const events = await server.services.events.readStream(streamName(PLATFORM_TENANT, 'user', server.admin.userId));
    assert.ok(events.some((e) => e.type === 'DeviceTrusted'));
    assert.ok(!JSON.stringify(events.map((e) => e.data)).includes(deviceToken), 'the token itself is never stored');
  });

  it('lets the right password through with a device token while wrong passwords without it hold the account', async () => {
    const { deviceToken } = await signIn();
    let answer: HttpAnswer;
    do answer = await login('a guess by someone who knows the e-mail');
    while (answer.status === 401);
    assert.equal(answer.status, 429);
    assert.equal((await login(password)).status, 429, 'without the device token the account is held');
    assert.equal((await login(password, deviceToken)).status, 200, 'the device that signed in before is not');
  });

  it('lets the second factor through with a device token while wrong codes without it hold the user', async () => {
    const { deviceToken } = await signIn();
    server.nextTotpStep();
    const wrong = await wrongCode(server, totpSecret);
    let answer: HttpAnswer;
    do {
      const attackerLogin = await login(password); // someone who knows the password but not the authenticator
      assert.equal(attackerLogin.status, 200, JSON.stringify(attackerLogin.body));
      do answer = await verify(attackerLogin.body.challenge, wrong);
      while (answer.status === 401 && answer.body.type === '/problems/invalid-code');
    } while (answer.status !== 429);
    const untrusted = await login(password);
    assert.equal((await verify(untrusted.body.challenge, await server.totpCode(totpSecret))).status, 429, 'the untrusted client is held');
    const trusted = await login(password, deviceToken);
    assert.equal(trusted.status, 200);
    assert.equal((await verify(trusted.body.challenge, await server.totpCode(totpSecret))).status, 200, 'the trusted device is not');
  });

  it('throttles wrong passwords that present a device token on that device', async () => {
    const { deviceToken } = await signIn();
    for (let i = 0; i < LIMITS.throttling.login.accountFailuresBeforeDelay; i++)
      assert.equal((await login('wrong', deviceToken)).status, 401);
    assert.equal((await login(password, deviceToken)).status, 429, 'the device has its own delays');
    assert.equal((await login(password)).status, 200, 'the failures of one device do not hold the others');
  });

  it('rotates the device token on every sign-in: the one presented is retired, an unknown one counts as none', async () => {
    const first = await signIn();
    const second = await signIn(first.deviceToken);
    assert.notEqual(second.deviceToken, first.deviceToken);
    let answer: HttpAnswer;
    do answer = await login('a guess');
    while (answer.status === 401);
    assert.equal((await login(password, first.deviceToken)).status, 429, 'a retired token is not trusted any more');
    assert.equal((await login(password, 'made-up-token')).status, 429, 'nor is a made-up one');
    assert.equal((await login(password, second.deviceToken)).status, 200);
  });

  it('stops trusting a device token after its lifetime', async () => {
    const { deviceToken } = await signIn();
    const holdUntrusted = async (): Promise<void> => {
      let answer: HttpAnswer;
      do answer = await login('a guess');
      while (answer.status === 401);
    };
    await holdUntrusted();
    assert.equal((await login(password, deviceToken)).status, 200, 'trusted within its lifetime');
    server.clock.advance(LIMITS.deviceToken.ttlSeconds * 1000);
    await holdUntrusted();
    assert.equal((await login(password, deviceToken)).status, 429, 'not after it');
  });
});

describe('HTTP sign-in: trusted devices in the contract', () => {
  it('documents the device token on login and verify-2fa, with its lifetime and bound', async () => {
    const server = await startTestServer();
    try {
      const doc = (await server.request('GET', '/openapi.json')).body;
      const schemaOf = (ref: { $ref?: string }): ApiJson => (ref.$ref ? doc.components.schemas[ref.$ref.split('/').pop()!] : ref);
      const login = doc.paths['/auth/login'].post;
      const loginBody = schemaOf(login.requestBody.content['application/json'].schema);
      assert.ok(loginBody.properties.deviceToken, 'login accepts a device token');
      assert.ok(!loginBody.required.includes('deviceToken'), 'and does not require one');
      assert.match(login.description, /device/i);
      const verified = schemaOf(deref(doc.paths['/auth/verify-2fa'].post.responses['200'], doc).content['application/json'].schema);
      assert.ok(verified.required.includes('deviceToken'), 'a completed sign-in returns a device token');
      const described = verified.properties.deviceToken.description as string;
      assert.ok(
        described.includes(`${LIMITS.deviceToken.ttlSeconds / 86_400} days`) && described.includes(`${LIMITS.deviceToken.maxPerUser}`),
      );
    } finally {
      await server.close();
    }
  });
});
