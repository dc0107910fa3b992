// Streams that an attacker grows stay cheap: an account with 20k sign-in failures on its stream, and a program with 20k
// token issues, are answered from a snapshot and the events after it, and the throttle still decides on the whole
// history. Cost is counted in events read (a counting store), never timed.
import assert from 'node:assert/strict';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';
import { countingEventStore, type ReadCounts } from '../support/countingEventStore.js';
import { testMetadata } from '../support/eventFixtures.js';
import { clientToken } from './adminWorld.js';
import { LIMITS } from '../../src/limits.js';
import { PLATFORM_TENANT, streamName, type NewEvent } from '../../src/stores/eventStore.js';
import { newId } from '../../src/commands/eventIds.js';
import { createApiClient, revokeApiClient } from '../../src/commands/platform/apiClientWrites.js';

const { email, password, totpSecret } = TEST_ADMIN;
const HISTORY = 20_000;
/** Events one HTTP sign-in step may read from the account's streams (a few loads of a snapshot and a short tail). */
const READ_BOUND = 1_000;

describe('HTTP sign-in and client tokens on streams grown by attacks', function () {
  this.timeout(120_000);
  let server: TestServer;
  let reads: ReadCounts;
  beforeEach(async () => {
    server = await startTestServer();
    const counting = countingEventStore(server.services.events);
    server.services.events = counting.store;
    reads = counting.reads;
  });
  afterEach(async () => server?.close());

  /** Appends `count` events straight to the store (as years of attacks would have left them), in batches. */
  async function grow(stream: string, count: number, eventAt: (i: number) => Omit<NewEvent, 'id' | 'metadata'>): Promise<void> {
    const [last] = await server.services.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    let revision = last!.revision;
    for (let i = 0; i < count; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({
        id: newId(),
        metadata: testMetadata(PLATFORM_TENANT, { actor: 'anonymous' }),
        ...eventAt(i + j),
      }));
      revision = (await server.services.events.appendToStream(stream, batch, { expectedRevision: revision })).nextExpectedRevision;
    }
  }

  const login = (pw: string) => server.request('POST', '/auth/login', { body: { email, password: pw } });
  const userStreams = `${PLATFORM_TENANT}.user`;

  it('throttles and signs in from a snapshot of an account with 20k failures, reading a bounded number of events', async () => {
    const now = server.clock.now().getTime();
    const longAgo = new Date(now - 2 * 3600_000).toISOString();
    await grow(streamName(PLATFORM_TENANT, 'user', server.admin.userId), HISTORY, (i) => {
      const consecutiveFailures = Math.floor(i / 2) + 1;
      // The last failure is 10 s old: the account must still wait (the longest delay is 60 s).
      const at = i === HISTORY - 1 ? new Date(now - 10_000).toISOString() : longAgo;
      if (i % 10 === 8) return { type: 'TotpCodeRejected', data: { challengeId: `c${i}`, at: longAgo } };
      return i % 2 === 0
        ? { type: 'LoginAttemptReserved', data: { consecutiveFailures, at } }
        : { type: 'LoginFailed', data: { reason: 'wrong-password', consecutiveFailures, at } };
    });

    const first = await login(password);
    assert.equal(first.status, 429, 'the failures folded from the whole history throttle the account');
    reads.reset();
    const again = await login(password);
    assert.equal(again.status, 429, JSON.stringify(again.body));
    assert.ok(reads.under(userStreams) <= READ_BOUND, `a throttled attempt read ${reads.under(userStreams)} events of the account`);

    server.clock.advance(LIMITS.throttling.login.accountLongestDelaySeconds * 1000);
    reads.reset();
    const challenge = await login(password);
    assert.equal(challenge.status, 200, JSON.stringify(challenge.body));
    assert.ok(reads.under(userStreams) <= READ_BOUND, `the password step read ${reads.under(userStreams)} events of the account`);
    server.nextTotpStep();
    reads.reset();
    const verified = await server.request('POST', '/auth/verify-2fa', {
      body: { challenge: challenge.body.challenge, code: await server.totpCode(totpSecret) },
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.ok(reads.under(userStreams) <= READ_BOUND, `the code step read ${reads.under(userStreams)} events of the account`);

    // Failures after the snapshot still count: the delays start again after the threshold.
    for (let i = 0; i < LIMITS.throttling.login.accountFailuresBeforeDelay; i++) assert.equal((await login('wrong password')).status, 401);
    reads.reset();
    assert.equal((await login(password)).status, 429, 'the next attempt waits for its delay');
    assert.ok(reads.under(userStreams) <= READ_BOUND, `a throttled attempt read ${reads.under(userStreams)} events of the account`);
  });

  it('issues client tokens from a snapshot of a client with 20k token issues, and refuses it once revoked', async () => {
    const caller = { actor: server.admin.userId };
    const input = { companyId: server.admin.companyId, name: 'Laboratorio', roles: ['admin'] };
    const { clientId, clientSecret } = await createApiClient(server.services, input, caller);
    const expiresAt = new Date(server.clock.now().getTime() - 3600_000).toISOString();
    await grow(streamName(PLATFORM_TENANT, 'apiClient', clientId), HISTORY, () => ({
      type: 'ApiClientTokenIssued',
      data: { tokenId: newId(), expiresAt },
    }));
    const clientStreams = `${PLATFORM_TENANT}.apiClient`;

    assert.equal((await clientToken(server, clientId, clientSecret)).status, 200);
    reads.reset();
    assert.equal((await clientToken(server, clientId, clientSecret)).status, 200);
    assert.ok(reads.under(clientStreams) <= READ_BOUND, `a token request read ${reads.under(clientStreams)} events of the client`);

    await revokeApiClient(server.services, clientId, caller);
    reads.reset();
    assert.equal((await clientToken(server, clientId, clientSecret)).status, 401, 'the revocation after the snapshot holds');
    assert.ok(reads.under(clientStreams) <= READ_BOUND, `a token request read ${reads.under(clientStreams)} events of the client`);
  });
});
