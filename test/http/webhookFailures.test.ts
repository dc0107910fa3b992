// Webhooks when things go wrong, over real HTTP: private targets refused without the platform allowance (SSRF), a
// restart in the middle of the retries (same DATA_DIR), and an endpoint disabled with a notice after the last retry.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';
import { PLATFORM_DOCS } from '../../src/stores/readStore.js';
import { startMailServer } from '../support/mailServer.js';
import { startStaffWorld } from './staffWorld.js';
import { createPosition, HOOK_ENV, PAST_RETRY_MS, register, startReceiver } from '../support/webhookReceiver.js';

const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('Webhook targets without the platform allowance (SSRF)', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await server.signInAndSelect(server.admin);
  });
  after(async () => server?.close());

  it('refuses loopback, private, link-local and metadata addresses, a name resolving to loopback, and http (422 /body/url)', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost/hook',
      'http://93.184.216.34/hook',
    ]) {
      const answer = await server.request('POST', '/sistema/webhooks', { token, body: { url, eventTypes: ['patient'] } });
      assert.equal(answer.status, 422, `${url}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(
        answer.body.errors.map((e: { pointer: string }) => e.pointer),
        ['/body/url'],
        url,
      );
    }
  });
  it('checks a corrected url the same way, and a correction needs If-Match (428 without, 412 stale)', async () => {
    const body = { url: 'https://93.184.216.34/hook', eventTypes: ['NoSuchEvent'] }; // a public address; nothing is sent
    const created = await server.request('POST', '/sistema/webhooks', { token, body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const path = `/sistema/webhooks/${created.body.endpoint.id}`;
    const patch = (json: object, etag?: string) =>
      server.request('PATCH', path, { token, body: { ...json, reason: 'moved' }, ...(etag ? { headers: { 'if-match': etag } } : {}) });
    assert.equal((await patch({ description: 'x' })).status, 428);
    assert.equal((await patch({ description: 'x' }, 'W/"7"')).status, 412);
    const refused = await patch({ url: 'https://10.0.0.1/hook' }, 'W/"0"');
    assert.equal(refused.status, 422);
    assert.deepEqual(
      refused.body.errors.map((e: { pointer: string }) => e.pointer),
      ['/body/url'],
    );
    const corrected = await patch({ eventTypes: ['patient', 'patient'] }, 'W/"0"');
    assert.equal(corrected.status, 422, 'a type listed twice');
    const ok = await patch({ description: 'ERP v2' }, 'W/"0"');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.headers.etag, 'W/"1"');
  });
});

describe('Webhook deliveries across a restart', () => {
  let dataDir: string;
  let server: TestServer | null = null;
  after(async () => {
    await server?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('a restart in the middle of the retries (its checkpoint lost) delivers once more with the same id, and nothing twice', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-hooks-'));
    const receiver = await startReceiver([200, 500, 200]);
    try {
      server = await startTestServer({ dataDir, env: HOOK_ENV });
      const token = await server.signInAndSelect(server.admin);
      await register(server, token, receiver.url);
      await createPosition(server, token);
      await receiver.waitFor(1); // delivered (200)
      await createPosition(server, token);
      await receiver.waitFor(2); // failed (500): retried in a minute
      // Lose the process manager's checkpoint too: the restart replays the whole log, and must make nothing twice.
      assert.ok(await server.services.processes.waitFor(await server.services.events.headPosition()));
      const checkpoints = await server.services.reads.collection('process_checkpoints');
      assert.ok(await checkpoints.deleteOne(PLATFORM_DOCS, 'webhook-deliveries'));
      await server.close();
      server = await startTestServer({ dataDir, env: HOOK_ENV });
      // The new clock starts at the real time, up to a TOTP step behind where the old one was.
      server.clock.advance(2 * PAST_RETRY_MS);
      await receiver.waitFor(3);
      await new Promise((resolve) => setTimeout(resolve, 600)); // time for anything that would come twice
      const ids = receiver.received.map((h) => h.id);
      assert.equal(ids.length, 3, JSON.stringify(ids));
      assert.notEqual(ids[0], ids[1]);
      assert.equal(ids[2], ids[1], 'the retry after the restart has the same webhook-id');
    } finally {
      await receiver.close();
    }
  });
});

describe('Webhook endpoint disabled after persistent failure', () => {
  it('disables the endpoint with the reason when the last retry fails, and e-mails the company administrators', async () => {
    const mail = await startMailServer();
    const receiver = await startReceiver([503]);
    const env = { ...HOOK_ENV, WEBHOOK_RETRY_SCHEDULE_MS: '0,60000', SMTP_URL: mail.url };
    const server = await startTestServer({ env });
    try {
      const token = await server.signInAndSelect(server.admin);
      const { endpoint } = await register(server, token, receiver.url);
      const traceId = '3f2e1d0c9b8a47968574635241302f1e';
      await createPosition(server, token, { traceparent: `00-${traceId}-0123456789abcdef-01` });
      await receiver.waitFor(1);
      server.clock.advance(PAST_RETRY_MS);
      await receiver.waitFor(2);
      const read = () => server.request('GET', `/sistema/webhooks/${endpoint.id}`, { token });
      await until(async () => (await read()).body.status === 'disabled', 'the endpoint to be disabled');
      const disabled = (await read()).body;
      assert.equal(disabled.disabledAutomatically, true);
      assert.match(disabled.statusReason, /kept failing: 2 attempts .* HTTP 503/);
      assert.equal(disabled.updatedBy, 'process:webhooks');
      // The disabling is in the trace of the write whose delivery kept failing.
      const disabling = (await server.services.events.readAll()).filter((e) => e.metadata.actor === 'process:webhooks');
      assert.deepEqual(
        disabling.map((e) => [e.type, e.metadata.traceId]),
        [['WebhookEndpointDisabled', traceId]],
      );
      const log = await server.request('GET', `/sistema/webhooks/${endpoint.id}/entregas`, { token });
      assert.equal(log.body.items[0].status, 'failed');
      await until(() => Promise.resolve(mail.received.some((m) => m.to.includes(TEST_ADMIN.email))), 'the notice e-mail');
      assert.match(mail.textsTo(TEST_ADMIN.email).join('\n'), /was disabled: deliveries kept failing/);
      // Disabled: later events are not delivered.
      await createPosition(server, token);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(receiver.received.length, 2);
    } finally {
      await server.close();
      await receiver.close();
      await mail.close();
    }
  });
});

describe('Webhook permissions', () => {
  it('sistema:webhooks alone manages webhooks: an auditor (sistema:audit) is refused (403)', async () => {
    const w = await startStaffWorld();
    try {
      const auditor = await w.memberWith(['sistema:audit']);
      const body = { url: 'https://93.184.216.34/hook', eventTypes: ['NoSuchEvent'] };
      assert.equal((await w.call(auditor.token, 'GET', '/sistema/webhooks')).status, 403);
      assert.equal((await w.call(auditor.token, 'POST', '/sistema/webhooks', { json: body })).status, 403);
      const manager = await w.memberWith(['sistema:webhooks']);
      assert.equal((await w.call(manager.token, 'POST', '/sistema/webhooks', { json: body })).status, 201);
    } finally {
      await w.close();
    }
  });
});
