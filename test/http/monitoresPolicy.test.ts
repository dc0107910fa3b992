// The machine list and a machine's view date the preventive maintenance under the company policy as projected, kept per
// company while its document is unchanged: after a policy change both show the new plan when read with the change's
// minPosition (also while the policy's read model is behind the machines'), with no restart, and a request whose
// policy did not change reads neither the policy's stream nor its document.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { registeredGroups } from '../../src/http/groups.js';
import { empresasGroup } from '../../src/http/routes/empresas/index.js';
import { consistencyTokens } from '../../src/http/consistencyToken.js';
import { changePolicy } from '../../src/commands/empresas/policyWrites.js';
import { POLICY_EVENT_TYPES, policyStream } from '../../src/commands/empresas/policyEvents.js';
import { COMPANY_POLICIES, EMPRESAS_PROJECTION, empresasProjection } from '../../src/projections/empresas/empresasProjection.js';
import type { ProjectionRunner } from '../../src/projections/runner/runnerTypes.js';
import { countingEventStore } from '../support/countingEventStore.js';
import { held } from '../support/heldProjection.js';
import { expectStatus, startMonitoresWorld, unique, type Answer, type Json, type MonitoresWorld } from './monitoresWorld.js';

const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const itemsOf = (answer: Answer): Json[] => expectStatus(answer, 200).body.items as Json[];
const at = (token: string | null): string => (token ? `minPosition=${encodeURIComponent(token)}` : '');

/** A plan of `days` (and many hours) for one model, recorded over HTTP: the change's X-Event-Position. */
async function planOf(w: MonitoresWorld, model: string, days: number): Promise<string> {
  const policy = expectStatus(await w.call(w.a, 'GET', '/empresas/actual/politica'), 200);
  const settings = { maintenance: { modelOverrides: [{ model, preventiveEveryHours: 5000, preventiveEveryDays: days }] } };
  const put = await w.call(w.a, 'PUT', '/empresas/actual/politica', {
    json: { settings, reason: 'manufacturer plan' },
    headers: { 'if-match': policy.headers.get('etag')! },
  });
  return expectStatus(put, 200).headers.get('x-event-position')!;
}

/** A machine's maintenance as the list, the list of those due within 10 days and its view show it, read at `token`. */
async function shown(w: MonitoresWorld, id: string, token: string | null) {
  const list = itemsOf(await w.call(w.a, 'GET', `/monitores?limit=50&${at(token)}`)).find((m) => m.id === id)!;
  const dueSoon = itemsOf(await w.call(w.a, 'GET', `/monitores?limit=50&maintenanceDueInDays=10&${at(token)}`)).some((m) => m.id === id);
  const view = expectStatus(await w.call(w.a, 'GET', `/monitores/${id}?${at(token)}`), 200).body;
  return { list: list.maintenance as Json, dueSoon, view: view.maintenance as Json };
}

describe('Machines under the company policy over HTTP', () => {
  let w: MonitoresWorld;
  before(async () => {
    w = await startMonitoresWorld();
  });
  after(async () => w?.close());

  it('the list and the view show the maintenance due under the policy just changed (read at its minPosition), change after change', async () => {
    const today = w.server.clock.now().toISOString().slice(0, 10);
    const model = unique('Model-');
    const id = (await w.register(w.a, { model, installDate: today })).body.id as string;
    const first = await shown(w, id, null); // the page and the policy kept before any change
    assert.equal(first.list.everyDays, 180, 'the general plan');
    for (const days of [30, 7, 60]) {
      const { list, dueSoon, view } = await shown(w, id, await planOf(w, model, days));
      assert.deepEqual([list.everyDays, list.dueDate, list.overdue], [days, addDays(today, days), false], `list under ${days} days`);
      assert.deepEqual(view, list, `view under ${days} days`);
      assert.equal(dueSoon, days <= 10, `due within 10 days under ${days} days`);
    }
  });

  it('a list or a machine read whose policy did not change reads neither the policy stream nor its document', async () => {
    const model = unique('Model-');
    const id = (await w.register(w.a, { model })).body.id as string;
    const { services } = w.server;
    const stream = policyStream(w.server.admin.companyId);
    const counting = countingEventStore(services.events);
    const runner = services.projections;
    const policyDocReads = { n: 0 };
    const collection: ProjectionRunner['collection'] = runner.collection.bind(runner);
    const original = services.events;
    services.events = counting.store;
    runner.collection = ((projection: string, logical: string) => {
      const c = collection(projection, logical);
      if (projection !== EMPRESAS_PROJECTION || logical !== COMPANY_POLICIES) return c;
      return { ...c, get: (...a: Parameters<typeof c.get>) => (policyDocReads.n++, c.get(...a)) };
    }) as ProjectionRunner['collection'];
    try {
      await shown(w, id, null);
      counting.reads.reset();
      policyDocReads.n = 0;
      for (let i = 0; i < 3; i++) await shown(w, id, null);
      assert.equal(counting.reads.callsByStream.get(stream) ?? 0, 0, 'no read of the policy stream');
      assert.equal(policyDocReads.n, 0, 'no read of the policy document: kept while unchanged');

      const token = await planOf(w, model, 14);
      counting.reads.reset();
      policyDocReads.n = 0;
      assert.equal((await shown(w, id, token)).list.everyDays, 14);
      assert.equal(policyDocReads.n, 1, 'read once after the change');
      await shown(w, id, token);
      assert.equal(policyDocReads.n, 1, 'and kept again');
      assert.equal(counting.reads.callsByStream.get(stream) ?? 0, 0, 'no read of the policy stream');
    } finally {
      services.events = original;
      runner.collection = collection;
    }
  });
});

describe('Machines under the company policy over HTTP, while the policy read model is behind', () => {
  // The Empresas projection holds every policy event until released; the machines' projection runs on.
  const policies = held(empresasProjection, POLICY_EVENT_TYPES);
  let w: MonitoresWorld;
  before(async () => {
    const groups = registeredGroups();
    groups[groups.indexOf(empresasGroup)] = { ...empresasGroup, projections: [policies.projection] };
    w = await startMonitoresWorld({ groups });
  });
  after(async () => {
    policies.release();
    await w?.close();
  });

  it('a read at the minPosition of a policy change waits for the policy read model: never the maintenance of the old plan', async () => {
    const today = w.server.clock.now().toISOString().slice(0, 10);
    const model = unique('Model-');
    const id = (await w.register(w.a, { model, installDate: today })).body.id as string;
    assert.equal((await shown(w, id, null)).list.everyDays, 180);
    const policy = expectStatus(await w.call(w.a, 'GET', '/empresas/actual/politica'), 200);
    policies.hold();
    // The command alone (its HTTP answer would wait for the read model): appended, not projected.
    const { services, admin } = w.server;
    const context = {
      tenantId: admin.companyId,
      actor: admin.userId,
      sessionId: null,
      correlationId: randomUUID(),
      ip: null,
      userAgent: null,
    };
    const settings = { maintenance: { modelOverrides: [{ model, preventiveEveryHours: 5000, preventiveEveryDays: 30 }] } };
    const written = await changePolicy(services, context, { settings, reason: 'manufacturer plan' }, policy.body.revision as number);
    const token = (await consistencyTokens(services)).seal(written.position!);
    const reading = shown(w, id, token);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const meanwhile = expectStatus(await w.call(w.a, 'GET', '/empresas/actual/politica'), 200).body;
    assert.equal(meanwhile.revision, policy.body.revision, 'the policy read model is still behind the change');
    policies.release();
    const { list, view, dueSoon } = await reading;
    assert.deepEqual([list.everyDays, list.dueDate], [30, addDays(today, 30)], 'the list waited for the new plan');
    assert.deepEqual(view, list, 'the view too');
    assert.equal(dueSoon, false);
  });
});
