// The second factor and the throttles: replay, challenge life cycle, wrong codes, 429 with Retry-After.
import assert from 'node:assert/strict';
import { generate } from 'otplib';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';
import { wrongCode } from '../support/totpCodes.js';
import { PLATFORM_TENANT, streamName } from '../../src/stores/eventStore.js';

const { email, password, totpSecret } = TEST_ADMIN;

async function challengeOf(server: TestServer): Promise<string> {
  const login = await server.request('POST', '/auth/login', { body: { email, password } });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return login.body.challenge;
}

const verify = (server: TestServer, challenge: string, code: string) =>
  server.request('POST', '/auth/verify-2fa', { body: { challenge, code } });

describe('HTTP sign-in: second factor', function () {
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(async () => server?.close());

  it('accepts a code once per user ever: a replay is refused and recorded', async () => {
    server.nextTotpStep();
    const code = await server.totpCode(totpSecret);
    assert.equal((await verify(server, await challengeOf(server), code)).status, 200);
    const replay = await verify(server, await challengeOf(server), code);
    assert.equal(replay.status, 401);
    assert.equal(replay.body.type, '/problems/invalid-code');
    const types = (await server.services.events.readStream(streamName(PLATFORM_TENANT, 'user', server.admin.userId))).map((e) => e.type);
    assert.ok(types.includes('TotpReplayRefused'));
    server.nextTotpStep();
    assert.equal((await verify(server, await challengeOf(server), await server.totpCode(totpSecret))).status, 200, 'the next step works');
  });

  it('accepts the previous time step at most', async () => {
    server.nextTotpStep();
    server.nextTotpStep();
    server.nextTotpStep();
    const epoch = Math.floor(server.clock.now().getTime() / 1000);
    const twoStepsAgo = await generate({ secret: totpSecret, epoch: epoch - 60 });
    const previous = await generate({ secret: totpSecret, epoch: epoch - 30 });
    const challenge = await challengeOf(server);
    if (twoStepsAgo !== previous && twoStepsAgo !== (await server.totpCode(totpSecret))) {
      assert.equal((await verify(server, challenge, twoStepsAgo)).status, 401);
    }
    assert.equal((await verify(server, challenge, previous)).status, 200);
  });

  it('kills the challenge after 5 wrong codes (malformed ones count too)', async () => {
    const challenge = await challengeOf(server);
    server.nextTotpStep();
    const wrong = await wrongCode(server, totpSecret);
    for (const code of [wrong, 'abc', '1234567', wrong, wrong]) {
      const answer = await verify(server, challenge, code);
      assert.equal(answer.status, 401);
      assert.equal(answer.body.type, '/problems/invalid-code');
    }
    const right = await verify(server, challenge, await server.totpCode(totpSecret));
    assert.equal(right.status, 401);
    assert.equal(right.body.type, '/problems/invalid-challenge');
  });

  it('uses a challenge once', async () => {
    const challenge = await challengeOf(server);
    server.nextTotpStep();
    assert.equal((await verify(server, challenge, await server.totpCode(totpSecret))).status, 200);
    server.nextTotpStep();
    const reused = await verify(server, challenge, await server.totpCode(totpSecret));
    assert.equal(reused.status, 401);
    assert.equal(reused.body.type, '/problems/invalid-challenge');
  });

  it('expires a challenge after 5 minutes', async () => {
    const challenge = await challengeOf(server);
    server.clock.advance(5 * 60_000);
    const late = await verify(server, challenge, await server.totpCode(totpSecret));
    assert.equal(late.status, 401);
    assert.equal(late.body.type, '/problems/invalid-challenge');
    assert.equal((await verify(server, 'no-such-challenge', '123456')).body.type, '/problems/invalid-challenge');
  });

  it('holds a user after 10 wrong codes in 15 minutes (429 with Retry-After)', async () => {
    server.nextTotpStep();
    const wrong = await wrongCode(server, totpSecret);
    for (let round = 0; round < 2; round++) {
      const challenge = await challengeOf(server);
      for (let i = 0; i < 5; i++) assert.equal((await verify(server, challenge, wrong)).status, 401);
    }
    const held = await verify(server, await challengeOf(server), await server.totpCode(totpSecret));
    assert.equal(held.status, 429);
    assert.equal(held.body.type, '/problems/too-many-requests');
    assert.ok(Number(held.headers['retry-after']) > 0);
    server.clock.advance(15 * 60_000);
    server.nextTotpStep();
    assert.equal((await verify(server, await challengeOf(server), await server.totpCode(totpSecret))).status, 200);
  });

  it('slows an account down after 5 consecutive wrong passwords, never locking it', async () => {
    const attempt = (pw: string) => server.request('POST', '/auth/login', { body: { email, password: pw } });
    for (let i = 0; i < 5; i++) assert.equal((await attempt('wrong password')).status, 401);
    const slowed = await attempt(password);
    assert.equal(slowed.status, 429, 'even the right password waits for the delay');
    assert.equal(slowed.headers['retry-after'], '2');
    server.clock.advance(2_000);
    assert.equal((await attempt('wrong password')).status, 401);
    const longer = await attempt(password);
    assert.equal(longer.headers['retry-after'], '4', 'the delay grows');
    server.clock.advance(4_000);
    assert.equal((await attempt(password)).status, 200, 'after the delay the right password works');
  });

  it('slows unknown e-mails down the same way (existence is not revealed)', async () => {
    const attempt = () => server.request('POST', '/auth/login', { body: { email: 'ghost@clinic.example', password: 'whatever pw' } });
    for (let i = 0; i < 5; i++) assert.equal((await attempt()).status, 401);
    const slowed = await attempt();
    assert.equal(slowed.status, 429);
    assert.equal(slowed.headers['retry-after'], '2');
  });

  it('limits sign-in attempts per client address to 20 a minute', async () => {
    for (let i = 0; i < 20; i++) {
      const answer = await server.request('POST', '/auth/login', {
        body: { email: `user${i}@elsewhere.example`, password: 'some password' },
      });
      assert.equal(answer.status, 401);
    }
    const limited = await server.request('POST', '/auth/login', { body: { email, password } });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60);
    server.clock.advance(60_000);
    assert.equal((await server.request('POST', '/auth/login', { body: { email, password } })).status, 200);
  });
});
