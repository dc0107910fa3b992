// The policy a view shows: the projected document, read once per change stamp of the company's document and kept
// while it is unchanged; read again after a change, on every call when the runner cannot stamp, and never kept under a
// stamp older than the read (a write during the read is read again).
import assert from 'node:assert/strict';
import type { ReadServices } from '../../readServices.js';
import type { PolicyDoc } from '../../projections/empresas/policyDoc.js';
import { DEFAULT_POLICY } from '../../commands/empresas/shared/policySettings.js';
import { LIMITS } from '../../limits.js';
import { policyShown } from './companyPolicy.js';

const policyDoc = (tenantId: string, revision: number, preventiveEveryDays: number): PolicyDoc => ({
  tenantId,
  id: tenantId,
  revision,
  settings: { ...DEFAULT_POLICY, maintenance: { ...DEFAULT_POLICY.maintenance, preventiveEveryDays } },
  updatedAt: '2026-01-01T00:00:00.000Z',
  updatedBy: 'u1',
  _position: revision + 1,
});

/** A runner's stamps and one policies collection, each document read counted. */
function fakeServices() {
  const docs = new Map<string, PolicyDoc>();
  const stamps = new Map<string, number | null>();
  const state = { reads: 0, duringRead: null as null | (() => void) };
  const collection = {
    get: async (tenantId: string) => {
      state.reads++;
      const doc = docs.get(tenantId) ?? null;
      const during = state.duringRead;
      state.duringRead = null;
      during?.();
      return doc ? structuredClone(doc) : null;
    },
  };
  const services = {
    projections: {
      changeStamp: (_p: string, _c: string, tenantId: string) => (stamps.has(tenantId) ? stamps.get(tenantId) : 1),
      collection: () => collection,
    },
  } as unknown as ReadServices;
  /** The projection wrote the company's document: a new stamp. */
  const write = (doc: PolicyDoc) => {
    docs.set(doc.tenantId, doc);
    stamps.set(doc.tenantId, (stamps.get(doc.tenantId) ?? 1) + 1);
  };
  return { services, docs, stamps, state, write };
}

describe('the policy a view shows (policyShown)', () => {
  it('reads the projected document once while it is unchanged, and again after a change', async () => {
    const f = fakeServices();
    assert.deepEqual(await policyShown(f.services, 't1'), { revision: -1, settings: DEFAULT_POLICY });
    f.write(policyDoc('t1', 0, 90));
    const first = await policyShown(f.services, 't1');
    assert.equal(first.revision, 0);
    assert.equal(first.settings.maintenance.preventiveEveryDays, 90);
    const reads = f.state.reads;
    for (let i = 0; i < 5; i++) assert.deepEqual(await policyShown(f.services, 't1'), first);
    assert.equal(f.state.reads, reads, 'unchanged: no store read');
    f.write(policyDoc('t1', 1, 30));
    const second = await policyShown(f.services, 't1');
    assert.deepEqual([second.revision, second.settings.maintenance.preventiveEveryDays], [1, 30]);
    assert.equal(f.state.reads, reads + 1);
  });

  it("keeps each company's own, and reads a company after another's change no more than before", async () => {
    const f = fakeServices();
    f.write(policyDoc('t1', 0, 90));
    f.write(policyDoc('t2', 4, 60));
    assert.equal((await policyShown(f.services, 't1')).revision, 0);
    assert.equal((await policyShown(f.services, 't2')).revision, 4);
    const reads = f.state.reads;
    f.write(policyDoc('t2', 5, 45));
    assert.equal((await policyShown(f.services, 't1')).revision, 0);
    assert.equal(f.state.reads, reads, "another company's change leaves this one kept");
    assert.equal((await policyShown(f.services, 't2')).settings.maintenance.preventiveEveryDays, 45);
  });

  it('reads again when the document changed while it was being read (the stamp is taken before the read)', async () => {
    const f = fakeServices();
    f.write(policyDoc('t1', 0, 90));
    // The read returns the document of before, and the projection writes the next one meanwhile.
    f.state.duringRead = () => f.write(policyDoc('t1', 1, 30));
    assert.equal((await policyShown(f.services, 't1')).revision, 0);
    assert.equal((await policyShown(f.services, 't1')).revision, 1, 'not kept under the stamp of after the write');
  });

  it('reads on every call while the runner cannot stamp (standby, stopping)', async () => {
    const f = fakeServices();
    f.write(policyDoc('t1', 0, 90));
    f.stamps.set('t1', null);
    await policyShown(f.services, 't1');
    await policyShown(f.services, 't1');
    assert.equal(f.state.reads, 2);
  });

  it('keeps a bounded number of companies, the least recently used leaving first', async () => {
    const f = fakeServices();
    const max = LIMITS.keptPolicies.maxCompanies;
    for (let i = 0; i <= max; i++) await policyShown(f.services, `t${i}`);
    assert.equal(f.state.reads, max + 1);
    await policyShown(f.services, `t${max}`);
    assert.equal(f.state.reads, max + 1, 'the latest is kept');
    await policyShown(f.services, 't0');
    assert.equal(f.state.reads, max + 2, 'the first one left');
  });

  it('never shares a kept policy between two services in one process', async () => {
    const a = fakeServices();
    const b = fakeServices();
    a.write(policyDoc('t1', 0, 90));
    b.write(policyDoc('t1', 7, 30));
    assert.equal((await policyShown(a.services, 't1')).revision, 0);
    assert.equal((await policyShown(b.services, 't1')).revision, 7);
  });
});
