// An endpoint whose secret this instance cannot open (a company export imported into another instance carries the
// secrets sealed with the source's key): each attempt fails with the reason, on the schedule, never a hot loop.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import {
  createPosition,
  HOOK_ENV,
  PAST_RETRY_MS,
  register,
  startReceiver,
  verifies,
  type TestReceiver,
} from '../support/webhookReceiver.js';
import { endpointsOf } from '../../src/processes/webhooks/webhookDeliveries.js';

const FOREIGN = 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Webhook endpoint with a secret sealed elsewhere', () => {
  let server: TestServer;
  let receiver: TestReceiver;
  before(async () => {
    server = await startTestServer({ env: HOOK_ENV });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await server?.close();
  });

  it('records a failed attempt naming the secret and schedules the next, sending nothing unsigned', async () => {
    const token = await server.signInAndSelect(server.admin);
    const { endpoint } = await register(server, token, receiver.url);
    const endpoints = endpointsOf(server.services);
    const doc = (await endpoints.get(server.admin.companyId, endpoint.id))!;
    // Sealed with another key: what an imported company's endpoint holds.
    await endpoints.replace({ ...doc, sealedSecret: FOREIGN });
    await createPosition(server, token);
    let delivery;
    for (let tries = 0; tries < 100; tries++) {
      const log = await server.request('GET', `/sistema/webhooks/${endpoint.id}/entregas`, { token });
      delivery = log.body.items[0];
      if (delivery?.attempts.length > 0) break;
      await sleep(50);
    }
    assert.ok(delivery, 'a delivery');
    assert.equal(delivery.attempts.length, 1, JSON.stringify(delivery));
    assert.match(delivery.attempts[0].error, /secret/);
    assert.equal(delivery.status, 'pending');
    assert.ok(delivery.nextAttemptAt, 'the next attempt is scheduled');
    assert.equal(receiver.received.length, 0, 'nothing sent');

    // Rotating gives it a secret of this instance: the next attempt is signed with it alone.
    const rotated = await server.request('POST', `/sistema/webhooks/${endpoint.id}/rotacion`, { token });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    let after = (await endpoints.get(server.admin.companyId, endpoint.id))!;
    for (let tries = 0; !after.sealedPreviousSecret && tries < 100; tries++) {
      await sleep(20);
      after = (await endpoints.get(server.admin.companyId, endpoint.id))!;
    }
    // The rotated-out secret was sealed elsewhere too (in an imported log, the event itself carries it).
    await endpoints.replace({ ...after, sealedPreviousSecret: FOREIGN });
    server.clock.advance(PAST_RETRY_MS);
    await receiver.waitFor(1);
    assert.ok(verifies(rotated.body.secret, receiver.received[0]!), 'signed with the new secret');
  });
});
