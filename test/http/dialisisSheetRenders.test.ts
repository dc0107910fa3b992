// Issue 20 item 5 over HTTP: session sheets of 300 readings render in the worker pool while /health keeps answering; one
// company has at most LIMITS.renders.perCompany sheets in the pool and a bounded queue (429 beyond); the same revision
// is answered from the cache with the same bytes, a new revision renders again.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sessionStream } from '../../src/commands/dialisis/session/sessionEvents.js';
import { LIMITS } from '../../src/limits.js';
import { expectStatus, startDialisisWorld, type DialisisWorld } from './dialisisWorld.js';
import { sessionSteps } from './dialisisSessionSteps.js';
import { readingsEvery } from './dialisisSheetFixture.js';

const READINGS = 300;
// More sheets than one company may have in the pool and queued: the rest are refused with 429.
const SHEETS = LIMITS.renders.perCompany + LIMITS.renders.queuedPerCompany + 6;

describe('Dialisis session sheets render off the event loop', function () {
  this.timeout(180_000);
  let w: DialisisWorld;
  const sessions: string[] = [];

  /** Readings of a whole treatment, appended to the session's stream as the readings route would (seeding 300 POSTs per sheet is slow). */
  async function withReadings(sessionId: string): Promise<void> {
    const { services, admin, clock } = w.server;
    const metadata = {
      tenantId: admin.companyId,
      actor: 'test',
      sessionId: null,
      correlationId: randomUUID(),
      causationId: null,
      commandId: randomUUID(),
      occurredAt: clock.now().toISOString(),
      ip: null,
      userAgent: null,
      reason: null,
    };
    const events = readingsEvery(READINGS, 1).map((data) => ({
      id: randomUUID(),
      type: 'ReadingRecorded',
      data: { ...data, tmpMmHg: Math.min(data.tmpMmHg ?? 0, 400), source: 'manual', readingId: randomUUID() },
      metadata,
    }));
    const appended = await services.events.appendToStream(sessionStream(admin.companyId, sessionId), events, { expectedRevision: 'any' });
    await services.projections.waitFor(appended.position);
  }

  before(async () => {
    w = await startDialisisWorld();
    const steps = sessionSteps(w);
    for (let i = 0; i <= SHEETS; i++) {
      const sessionId = await steps.extraSession(await w.patient(w.a));
      await withReadings(sessionId);
      sessions.push(sessionId);
    }
  });
  after(async () => w?.close());
  // The first sheet starts the pool's worker and compiles the route: not what the burst measures.
  before(async () => assert.equal((await sheet(sessions.pop()!)).status, 200));

  const sheet = async (sessionId: string, minPosition?: string) => {
    const query = minPosition ? `?minPosition=${encodeURIComponent(minPosition)}` : '';
    const res = await fetch(`${w.server.url}/dialisis/sesiones/${sessionId}/hoja${query}`, { headers: { authorization: `Bearer ${w.a}` } });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      bytes: Buffer.from(await res.arrayBuffer()),
      at: performance.now(),
    };
  };
  const renders = () => w.server.services.renders.stats();
  const rendered = () => w.server.services.renders.sessionSheet.stats().rendered;

  it('keeps /health answering while the sheets render, and holds one company to its share of the pool', async () => {
    const started = performance.now();
    const answers = Promise.all(sessions.map((id) => sheet(id)));
    let allDone = false;
    void answers.then(() => (allDone = true));
    // /health, probed one after another for as long as the sheets render.
    const probes: { ms: number; sent: number; at: number }[] = [];
    while (!allDone) {
      const sent = performance.now();
      expectStatus(await w.call(w.a, 'GET', '/health'), 200);
      probes.push({ ms: performance.now() - sent, sent, at: performance.now() });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sheets = await answers;
    const lastSheet = Math.max(...sheets.map((s) => s.at));
    const ok = sheets.filter((s) => s.status === 200);
    const refused = sheets.filter((s) => s.status === 429);
    const during = probes.filter((p) => p.sent < lastSheet);
    const answeredMeanwhile = probes.filter((p) => p.at < lastSheet).length;
    const worst = Math.max(...during.map((p) => p.ms));
    const median = during.map((p) => p.ms).sort((a, b) => a - b)[during.length >> 1]!;
    console.log(
      `      ${ok.length} sheets of ${READINGS} readings in ${Math.round(lastSheet - started)} ms; /health asked ${during.length} ` +
        `times meanwhile: median ${median.toFixed(1)} ms, worst ${worst.toFixed(1)} ms`,
    );

    assert.equal(ok.length + refused.length, SHEETS, `statuses ${sheets.map((s) => s.status).join(',')}`);
    assert.ok(ok.length >= LIMITS.renders.perCompany + LIMITS.renders.queuedPerCompany, `${ok.length} rendered`);
    for (const s of ok) assert.equal(s.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    // The company's queue was full: the rest were told when to come back.
    assert.ok(refused.length >= 1, 'some sheets beyond the queue are refused');
    for (const s of refused) assert.equal(s.retryAfter, String(LIMITS.renders.retryAfterSeconds));
    assert.equal(renders().gate.peakPerCompany, LIMITS.renders.perCompany);
    // The event loop was never held by a render: /health kept answering while they ran (before: once, after all of them).
    // No bound in milliseconds (a loaded machine stretches every probe): the latency is printed above and benched.
    assert.ok(answeredMeanwhile >= 3, `/health answered ${answeredMeanwhile} times while the sheets rendered`);
  });

  it('answers the same revision from the cache with the same bytes, and renders a new revision again', async () => {
    const sessionId = sessions[0]!;
    const first = await sheet(sessionId);
    assert.equal(first.status, 200);
    const before = rendered();
    const again = await sheet(sessionId);
    assert.equal(again.status, 200);
    assert.ok(again.bytes.equals(first.bytes), 'the same bytes');
    assert.equal(rendered(), before, 'no new render');

    // The patient arrives: a new revision of the session, a new sheet.
    const arrived = expectStatus(await w.call(w.nurse.token, 'POST', `/dialisis/sesiones/${sessionId}/llegada`, { json: {} }), 200);
    const changed = await sheet(sessionId, arrived.headers.get('x-event-position')!);
    assert.equal(changed.status, 200);
    assert.equal(rendered(), before + 1, 'rendered again');
    assert.ok(!changed.bytes.equals(first.bytes), 'new bytes');
  });
});
