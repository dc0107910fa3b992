// Sign-in under a concurrent burst: every attempt is reserved on its stream before the code or password is
// checked, so a burst evaluates no more than the documented limits and no failure goes uncounted.
import assert from 'node:assert/strict';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';
import { wrongCode } from '../support/totpCodes.js';
import { LIMITS } from '../../src/limits.js';
import { PLATFORM_TENANT, streamName } from '../../src/stores/eventStore.js';
import { unknownLoginId } from '../../src/commands/platform/unknownLogin/decider.js';

const { email, password, totpSecret } = TEST_ADMIN;

const countOf = (types: string[], type: string): number => types.filter((t) => t === type).length;

describe('HTTP sign-in under a concurrent burst', function () {
  this.timeout(120_000);
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(async () => server?.close());

  const userEvents = async (): Promise<string[]> =>
    (await server.services.events.readStream(streamName(PLATFORM_TENANT, 'user', server.admin.userId))).map((e) => e.type);

  it('evaluates at most the per-challenge limit of 200 wrong codes sent at once, and counts every one evaluated', async () => {
    const login = await server.request('POST', '/auth/login', { body: { email, password } });
    assert.equal(login.status, 200);
    const code = await wrongCode(server, totpSecret);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => server.request('POST', '/auth/verify-2fa', { body: { challenge: login.body.challenge, code } })),
    );
    const statuses = answers.map((a) => a.status);
    assert.deepEqual(
      statuses.filter((s) => s !== 401 && s !== 429),
      [],
      'only 401 (wrong code, dead challenge) or 429 (throttled): never 409 or 5xx',
    );
    const evaluated = countOf(await userEvents(), 'TotpCodeRejected');
    assert.ok(evaluated <= LIMITS.challenge.maxCodeAttempts, `${evaluated} codes were evaluated`);
    assert.equal(answers.filter((a) => a.body?.type === '/problems/invalid-code').length, evaluated, 'every evaluated code is recorded');
  });

  it('evaluates at most the per-user limit when every open challenge gets 5 wrong codes at once', async () => {
    const challenges: string[] = [];
    for (let i = 0; i < LIMITS.challenge.maxOpenPerUser; i++) {
      const login = await server.request('POST', '/auth/login', { body: { email, password } });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      challenges.push(login.body.challenge);
    }
    const code = await wrongCode(server, totpSecret);
    await Promise.all(
      challenges.flatMap((challenge) =>
        Array.from({ length: 5 }, () => server.request('POST', '/auth/verify-2fa', { body: { challenge, code } })),
      ),
    );
    const evaluated = countOf(await userEvents(), 'TotpCodeRejected');
    assert.ok(evaluated <= LIMITS.throttling.verify2fa.userFailuresPerWindow, `${evaluated} codes were evaluated`);
  });

  it('checks at most the throttle threshold of 60 wrong passwords sent at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => server.request('POST', '/auth/login', { body: { email, password: 'not the right password' } })),
    );
    assert.deepEqual(
      answers.map((a) => a.status).filter((s) => s !== 401 && s !== 429),
      [],
    );
    const checked = countOf(await userEvents(), 'LoginFailed');
    assert.ok(checked <= LIMITS.throttling.login.accountFailuresBeforeDelay + 1, `${checked} passwords were checked`);
  });

  it('checks no more passwords for an unknown e-mail than for an account when 60 arrive at once (existence is not revealed)', async () => {
    const burst = async (target: string): Promise<number[]> => {
      server.clock.advance(60 * 60_000); // a fresh minute for the per-address limit, and no delay left from before
      const answers = await Promise.all(
        Array.from({ length: 60 }, () =>
          server.request('POST', '/auth/login', { body: { email: target, password: 'not the right password' } }),
        ),
      );
      return answers.map((a) => a.status).sort();
    };
    const ghost = 'ghost@clinic.example';
    const ghostStatuses = await burst(ghost);
    const ghostStream = streamName(PLATFORM_TENANT, 'unknownLogin', unknownLoginId(ghost));
    const checked = (await server.services.events.readStream(ghostStream)).length;
    assert.ok(checked <= LIMITS.throttling.login.accountFailuresBeforeDelay + 1, `${checked} passwords were checked`);
    assert.deepEqual(ghostStatuses, await burst(email), 'an unknown e-mail answers a burst exactly like an account');
  });

  it('refuses a new challenge while the most a user may hold are open, until one is used or expires', async () => {
    const login = () => server.request('POST', '/auth/login', { body: { email, password } });
    const open: string[] = [];
    for (let i = 0; i < LIMITS.challenge.maxOpenPerUser; i++) {
      const answer = await login();
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      open.push(answer.body.challenge);
    }
    const refused = await login();
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0 && Number(refused.headers['retry-after']) <= LIMITS.challenge.ttlSeconds);
    server.nextTotpStep();
    const used = await server.request('POST', '/auth/verify-2fa', {
      body: { challenge: open[0], code: await server.totpCode(totpSecret) },
    });
    assert.equal(used.status, 200);
    assert.equal((await login()).status, 200, 'a used challenge is no longer open');
    assert.equal((await login()).status, 429);
    server.clock.advance(LIMITS.challenge.ttlSeconds * 1000);
    assert.equal((await login()).status, 200, 'expired challenges are no longer open');
  });
});
