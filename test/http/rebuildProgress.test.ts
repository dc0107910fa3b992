// A rebuild is watched over HTTP: while it runs, /sistema/proyecciones/{name} answers its percent, events per second and
// ETA (a projection slowed on purpose, over a few pages of events, so the rebuild lasts long enough to be polled).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { registeredGroups } from '../../src/http/groups.js';
import type { GroupModule } from '../../src/http/groupModule.js';
import { PLATFORM_DOCS } from '../../src/stores/readStore.js';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';

const TICKS = 2500;
const pace = { slow: false };

const slowGroup: GroupModule = {
  tag: 'Slow',
  description: 'A projection that takes its time while `pace.slow`',
  permissions: [],
  routes: [],
  projections: [
    {
      name: 'slowTicks',
      version: 1,
      collections: { ticks: [] },
      eventTypes: ['OpsTestTick'],
      async handle(event, tx) {
        if (pace.slow) await new Promise((resolve) => setTimeout(resolve, 1));
        tx.put('ticks', { tenantId: PLATFORM_DOCS, id: event.id, _position: Number(event.position) });
      },
    },
  ],
};

describe('rebuild progress over HTTP', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer({ groups: [...registeredGroups(), slowGroup] });
    token = (await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret)).accessToken;
    const metadata = {
      tenantId: 'platform',
      actor: 'system',
      sessionId: null,
      correlationId: 'ticks',
      causationId: null,
      commandId: 'ticks',
      occurredAt: server.clock.now().toISOString(),
      ip: null,
      userAgent: null,
      reason: null,
    };
    let revision: number | 'no_stream' = 'no_stream';
    for (let from = 0; from < TICKS; from += 500) {
      const batch = Array.from({ length: 500 }, (_, i) => ({ id: randomUUID(), type: 'OpsTestTick', data: { n: from + i }, metadata }));
      const result = await server.services.events.appendToStream('platform.opstick-1', batch, { expectedRevision: revision });
      revision = (revision === 'no_stream' ? -1 : revision) + batch.length;
      await server.services.projections.waitFor(result.position, { timeoutMs: 20_000 });
    }
  });
  after(async () => {
    pace.slow = false;
    await server?.close();
  });

  it('answers percent, rate and ETA while the rebuild runs, and 100 % at the end', async function () {
    this.timeout(30_000);
    pace.slow = true;
    const started = await server.request('POST', '/sistema/proyecciones/slowTicks/reconstruir', { token });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const seen: ApiJson[] = [];
    for (;;) {
      const answer = await server.request('GET', '/sistema/proyecciones/slowTicks', { token });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      seen.push(answer.body);
      if (answer.body.state !== 'rebuilding') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const during = seen.filter((s) => s.state === 'rebuilding' && s.rebuild);
    assert.ok(during.length > 0, 'the rebuild is visible while it runs');
    const midway = during.find((s) => s.rebuild.percent > 0 && s.rebuild.percent < 100);
    assert.ok(midway, `a percent between 0 and 100 while rebuilding: ${JSON.stringify(during.map((s) => s.rebuild))}`);
    assert.ok(midway.rebuild.ratePerSecond > 0);
    assert.equal(typeof midway.rebuild.etaSeconds, 'number');
    const last = seen[seen.length - 1];
    assert.equal(last.rebuild.percent, 100);
    assert.equal(last.rebuild.etaSeconds, 0);
  });

  it('tells a new rebuild from a finished one with equal figures by when it started', async function () {
    this.timeout(30_000);
    pace.slow = false;
    const finished = async () => {
      assert.equal((await server.request('POST', '/sistema/proyecciones/slowTicks/reconstruir', { token })).status, 202);
      for (;;) {
        const answer = await server.request('GET', '/sistema/proyecciones/slowTicks', { token });
        if (answer.body.state !== 'rebuilding') return answer.body.rebuild;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const first = await finished();
    const second = await finished();
    assert.equal(second.done, first.done);
    assert.ok(Date.parse(second.startedAt) > Date.parse(first.startedAt), JSON.stringify([first, second]));
  });
});
