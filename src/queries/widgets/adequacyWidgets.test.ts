// The fluid outliers' worst items, both ways they are read: a small range sorted whole, a large one read worst first
// through the (kind, severity) index; either way the same rows as sorting every outlier of the range.
import assert from 'node:assert/strict';
import { createEmbeddedReadStore } from '../../stores/embedded/embeddedReadStore.js';
import type { Collection } from '../../stores/readStore.js';
import { ADEQUACY_DAYS, ADEQUACY_ITEMS, adequacyProjection, type ItemDoc } from '../../projections/widgets/adequacyProjection.js';
import type { ReadServices } from '../../readServices.js';
import type { WidgetReadContext } from './widgetDefinition.js';
import { adequacyWidgets } from './adequacyWidgets.js';

const TODAY = '2026-11-26';
const dayOf = (back: number): string => new Date(Date.parse(`${TODAY}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);

async function contextWith(perDay: number): Promise<{ ctx: WidgetReadContext; all: ItemDoc[] }> {
  const reads = createEmbeddedReadStore();
  const open = new Map<string, Collection>();
  for (const [name, indexes] of Object.entries(adequacyProjection.collections))
    open.set(name, await reads.collection(`${name}_v1`, indexes));
  const all: ItemDoc[] = [];
  // 20 days of outliers; the older days hold the worst of all, which a 7-day range must leave out.
  for (let back = 0; back < 20; back++) {
    const date = dayOf(back);
    for (let i = 0; i < perDay; i++) {
      const kind = i % 2 === 0 ? 'idwg-high' : 'uf-rate-above-maximum';
      const value = 4 + ((i * 37 + back * 11) % 100) / 10 + (back > 10 ? 20 : 0);
      const item = { tenantId: 't1', id: `s${back}-${i}|${kind}`, key: kind, kind, value, threshold: 4, detail: '' };
      all.push({
        ...item,
        date,
        patientId: `p${i}`,
        sessionId: `s${back}-${i}`,
        severity: Math.round((value / 4) * 1000) / 1000,
        _position: 1,
      });
    }
    const counts = { 'idwg-high': Math.ceil(perDay / 2), 'uf-rate-above-maximum': Math.floor(perDay / 2) };
    await open.get(ADEQUACY_DAYS)!.replace({ tenantId: 't1', id: date, date, counts, _position: 1 });
  }
  await open.get(ADEQUACY_ITEMS)!.bulkWrite(all.map((doc) => ({ kind: 'replace' as const, doc })));
  const services = {
    reads,
    projections: { collection: (_projection: string, name: string) => open.get(name) ?? open.get(ADEQUACY_DAYS) },
  } as unknown as ReadServices;
  return { ctx: { services, auth: { tenantId: 't1' }, today: TODAY, now: new Date(), permissions: new Set() }, all };
}

const fluid = adequacyWidgets.widgets.find((w) => w.id === 'fluid-outliers')!;

describe('fluid outliers: the worst of the range', () => {
  for (const perDay of [10, 120]) {
    it(`${perDay} outliers a day (${perDay * 7 > 400 ? 'read worst first' : 'sorted whole'}): the same as sorting the range`, async () => {
      const { ctx, all } = await contextWith(perDay);
      const data = (await fluid.read({ days: 7, limit: 15 }, ctx)) as { outliers: { id: string }[]; counts: { value: number }[] };
      const inRange = all.filter((i) => i.date >= dayOf(6) && i.date <= TODAY);
      const expected = [...inRange].sort((a, b) => b.severity - a.severity || (a.id < b.id ? -1 : 1)).slice(0, 15);
      assert.deepEqual(
        data.outliers.map((o) => o.id),
        expected.map((i) => i.id),
      );
      assert.equal(data.counts[0]!.value + data.counts[1]!.value, inRange.length);
    });
  }
});
