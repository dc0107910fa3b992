// Projections that heal, seen over HTTP: a projection whose read store fails keeps retrying, /health turns 503 once
// it has been failing longer than the documented time (and 200 again once it healed), and a poison event parks only
// the record it belongs to, listed at /sistema/proyecciones while sign-in goes on.
import assert from 'node:assert/strict';
import { registeredGroups } from '../../src/http/groups.js';
import type { GroupModule } from '../../src/http/groupModule.js';
import { LIMITS } from '../../src/limits.js';
import { ReadModelUnavailableError } from '../../src/projections/runner/projectionFailures.js';
import { PLATFORM_DOCS } from '../../src/stores/readStore.js';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';

const outage = { on: false };

/** Its read store "fails" while `outage.on`: what a projection meets during a MongoDB election. */
const flakyGroup: GroupModule = {
  tag: 'Flaky',
  description: 'A projection whose store goes away',
  permissions: [],
  routes: [],
  projections: [
    {
      name: 'flaky',
      version: 1,
      collections: { sessions: [] },
      eventTypes: ['SessionStarted'],
      handle(event, tx) {
        if (outage.on) throw new ReadModelUnavailableError(new Error('simulated: connection refused'));
        tx.put('sessions', { tenantId: PLATFORM_DOCS, id: event.streamName, _position: Number(event.position) });
      },
    },
  ],
};

/** Cannot apply a session that started: a bug met on valid history. */
const brittleGroup: GroupModule = {
  tag: 'Brittle',
  description: 'A projection with a bug',
  permissions: [],
  routes: [],
  projections: [
    {
      name: 'brittle',
      version: 1,
      collections: { sessions: [] },
      eventTypes: ['SessionStarted'],
      handle: () => {
        throw new Error('brittle projection: unexpected session shape');
      },
    },
  ],
};

describe('projections that heal, over HTTP', () => {
  let server: TestServer;
  let platformAdmin: string;
  before(async () => {
    server = await startTestServer({ groups: [...registeredGroups(), flakyGroup, brittleGroup], logLevel: 'silent' });
    platformAdmin = (await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret)).accessToken;
  });
  after(async () => {
    outage.on = false;
    await server?.close();
  });

  const projection = async (name: string): Promise<ApiJson> => {
    const answer = await server.request('GET', `/sistema/proyecciones/${name}`, { token: platformAdmin });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };

  async function waitForState(name: string, state: string): Promise<ApiJson> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = await projection(name);
      if (status.state === state) return status;
      if (Date.now() > deadline) assert.fail(`${name} never reached ${state}: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('answers /health 503 once a projection has been failing longer than documented, and 200 again once it healed', async () => {
    outage.on = true;
    await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret); // sign-in goes on
    const failing = await waitForState('flaky', 'failed');
    assert.match(failing.error, /connection refused/);
    assert.ok(failing.failedSince && failing.retry.attempts >= 1, JSON.stringify(failing));
    assert.equal((await server.request('GET', '/health')).status, 200, 'a young failure is the retries’ business');

    server.clock.advance((LIMITS.projections.unhealthyAfterFailedSeconds + 1) * 1000);
    const unhealthy = await server.request('GET', '/health');
    assert.equal(unhealthy.status, 503);
    assert.match(unhealthy.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(unhealthy.body.type, '/problems/projection-failed');
    assert.deepEqual(
      unhealthy.body.projections.map((p: ApiJson) => p.name),
      ['flaky'],
    );
    assert.ok(Number(unhealthy.headers['retry-after']) > 0);

    outage.on = false;
    const healed = await waitForState('flaky', 'live');
    assert.equal(healed.failedSince, undefined);
    assert.equal(Number(healed.lag), 0);
    assert.equal((await server.request('GET', '/health')).status, 200);
  });

  it('parks only the session a poison event belongs to, shows it, and goes on with the others', async () => {
    await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret);
    const brittle = await waitForState('brittle', 'live');
    assert.ok(brittle.parked.length >= 2, 'every sign-in so far parked its own session');
    for (const parked of brittle.parked) {
      assert.equal(parked.scope, 'stream');
      assert.equal(parked.tenantId, 'platform');
      assert.equal(parked.stream, parked.eventStream);
      assert.equal(parked.eventType, 'SessionStarted');
      assert.match(parked.error, /unexpected session shape/);
    }
    assert.equal(new Set(brittle.parked.map((p: ApiJson) => p.stream)).size, brittle.parked.length);
    const list = await server.request('GET', '/sistema/proyecciones', { token: platformAdmin });
    assert.equal(list.body.items.find((p: ApiJson) => p.name === 'brittle').parked.length, brittle.parked.length);
    assert.equal((await server.request('GET', '/health')).status, 200, 'a parked scope is shown, not a failure');
  });
});
