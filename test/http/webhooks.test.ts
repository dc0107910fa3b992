// Webhooks over real HTTP, delivered to a receiver of the test's own on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_TARGETS):
// retries with the same webhook-id and signatures verified independently, rotation overlap, manual replay, tenancy.
import assert from 'node:assert/strict';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';
import {
  createPosition,
  HOOK_ENV,
  PAST_RETRY_MS,
  register,
  startReceiver,
  verifies,
  type TestReceiver,
} from '../support/webhookReceiver.js';

describe('Webhooks over HTTP', () => {
  let server: TestServer;
  let receiver: TestReceiver;
  let token: string;
  before(async () => {
    server = await startTestServer({ env: HOOK_ENV });
    token = await server.signInAndSelect(server.admin);
  });
  // A receiver per test: what one test's endpoint gets never reaches another's.
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => receiver?.close());
  after(async () => server?.close());
  const disable = async (id: string) => {
    const answer = await server.request('POST', `/sistema/webhooks/${id}/desactivacion`, { token, body: { reason: 'next test' } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  };

  it('delivers to a receiver that fails twice three times, with the same webhook-id and a signature that verifies', async () => {
    const { endpoint, secret } = await register(server, token, receiver.url);
    assert.match(secret, /^whsec_/);
    assert.equal(endpoint.status, 'enabled');
    receiver.script = [500, 500, 200];
    const position = await createPosition(server, token);
    await receiver.waitFor(1);
    server.clock.advance(PAST_RETRY_MS);
    await receiver.waitFor(2);
    server.clock.advance(PAST_RETRY_MS);
    await receiver.waitFor(3);
    const ids = new Set(receiver.received.map((h) => h.id));
    assert.equal(ids.size, 1);
    assert.match([...ids][0]!, /^msg_[0-9a-f]{32}$/);
    for (const hook of receiver.received) assert.ok(verifies(secret, hook), 'each attempt is signed with the secret');
    const payload = JSON.parse(receiver.received[0]!.body);
    assert.equal(payload.type, 'JobPositionCreated');
    assert.equal(payload.data.recordType, 'jobPosition');
    assert.equal(payload.data.recordId, position.id);
    assert.equal(payload.data.patientId, null);
    assert.match(payload.data.position, /^\d+$/);
    const log = await server.request('GET', `/sistema/webhooks/${endpoint.id}/entregas`, { token });
    assert.equal(log.status, 200, JSON.stringify(log.body));
    const [delivery] = log.body.items;
    assert.equal(delivery.id, [...ids][0]);
    assert.equal(delivery.status, 'succeeded');
    assert.deepEqual(
      delivery.attempts.map((a: ApiJson) => a.statusCode),
      [500, 500, 200],
    );
    assert.equal(delivery.attempts[0].responseBody, 'receiver failed');
    assert.equal(delivery.nextAttemptAt, null);
    await disable(endpoint.id);
  });

  it("sends the delivery in the trace of the request that wrote the event: same trace id, the delivery's own span", async () => {
    const { endpoint } = await register(server, token, receiver.url);
    const traceId = '7d3e1c9a0b5f4e2d8c6a4b2e0f1d3c5b';
    const callerSpan = 'a1b2c3d4e5f60718';
    await createPosition(server, token, { traceparent: `00-${traceId}-${callerSpan}-01` });
    await receiver.waitFor(1);
    const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(receiver.received[0]!.traceparent ?? '');
    assert.ok(sent, `traceparent ${receiver.received[0]!.traceparent}`);
    assert.equal(sent[1], traceId);
    assert.notEqual(sent[2], callerSpan);
    await disable(endpoint.id);
  });

  it('signs with the new and the old secret while a rotation overlaps, and never shows a secret again', async () => {
    const { endpoint, secret: first } = await register(server, token, receiver.url);
    const rotated = await server.request('POST', `/sistema/webhooks/${endpoint.id}/rotacion`, { token, body: {} });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const second = rotated.body.secret as string;
    assert.notEqual(second, first);
    assert.ok(rotated.body.endpoint.previousSecretValidUntil);
    receiver.script = [200];
    await createPosition(server, token);
    await receiver.waitFor(1);
    const [hook] = receiver.received;
    assert.equal(hook!.signatures.length, 2);
    assert.ok(verifies(second, hook!) && verifies(first, hook!));
    assert.ok(verifies(second, { ...hook!, signatures: [hook!.signatures[0]!] }), 'the new secret signs first');
    for (const path of [`/sistema/webhooks/${endpoint.id}`, `/sistema/webhooks/${endpoint.id}/historial`, '/sistema/webhooks']) {
      const answer = await server.request('GET', path, { token });
      assert.equal(answer.status, 200);
      const text = JSON.stringify(answer.body);
      assert.ok(!/whsec_|sealed|"secret"|previousSecret"/.test(text), `${path} shows no secret: ${text}`);
    }
    await disable(endpoint.id);
  });

  it('replays a delivery by hand with the same webhook-id', async () => {
    const { endpoint, secret } = await register(server, token, receiver.url);
    receiver.script = [200];
    await createPosition(server, token);
    await receiver.waitFor(1);
    const log = await server.request('GET', `/sistema/webhooks/${endpoint.id}/entregas?status=succeeded`, { token });
    const id = log.body.items[0].id as string;
    server.clock.advance(1_000);
    const replayedAfter = server.clock.now();
    const replay = await server.request('POST', `/sistema/webhooks/${endpoint.id}/entregas/${id}/reenvio`, { token });
    assert.equal(replay.status, 202, JSON.stringify(replay.body));
    await receiver.waitFor(2);
    assert.deepEqual(
      receiver.received.map((h) => h.id),
      [id, id],
    );
    assert.ok(verifies(secret, receiver.received[1]!));
    // updatedSince: the replayed delivery changed after an instant before the replay, not after one past it.
    const since = async (instant: Date) =>
      (await server.request('GET', `/sistema/webhooks/${endpoint.id}/entregas?updatedSince=${instant.toISOString()}`, { token })).body;
    assert.deepEqual(
      (await since(replayedAfter)).items.map((d: ApiJson) => d.id),
      [id],
    );
    assert.deepEqual((await since(new Date(server.clock.now().getTime() + 60_000))).items, []);
    const after = await server.request('GET', `/sistema/webhooks/${endpoint.id}/entregas`, { token });
    assert.deepEqual(
      after.body.items[0].attempts.map((a: ApiJson) => a.manual),
      [false, true],
    );
  });

  it("answers another company's endpoint and its deliveries as absent (404)", async () => {
    const { endpoint } = await register(server, token, receiver.url);
    const other = await server.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase here');
    const otherToken = await server.signInAndSelect(other);
    for (const [method, path, body] of [
      ['GET', `/sistema/webhooks/${endpoint.id}`],
      ['GET', `/sistema/webhooks/${endpoint.id}/entregas`],
      ['GET', `/sistema/webhooks/${endpoint.id}/historial`],
      ['POST', `/sistema/webhooks/${endpoint.id}/rotacion`, {}],
      ['POST', `/sistema/webhooks/${endpoint.id}/desactivacion`, { reason: 'x' }],
    ] as const) {
      const answer = await server.request(method, path, { token: otherToken, ...(body ? { body } : {}) });
      assert.equal(answer.status, 404, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    }
    const list = await server.request('GET', '/sistema/webhooks', { token: otherToken });
    assert.deepEqual(list.body.items, []);
  });
});
