// Spec of the supply kits projection: one document per kit in force; a removed kit is deleted.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { SUPPLY_KITS, kitProjection, type SupplyKitDoc } from './kitProjection.js';

const given = projectionSpec(kitProjection);
const kit = streamOf('t1', 'supplyKit', 'k1');
const otherCompany = streamOf('t2', 'supplyKit', 'k1');
const set = (quantity: number) => ({
  type: 'SupplyKitSet',
  data: { kitId: 'k1', warehouseId: 'w1', items: [{ productId: 'pr1', quantity }] },
});
const removed = { type: 'SupplyKitRemoved', data: { kitId: 'k1' } };

describe('productos kits projection', () => {
  it('sets a kit, keeping who created it while later sets replace its items', async () => {
    await given(kit(set(2), { ...set(3), metadata: { actor: 'u2' } })).then<SupplyKitDoc>(SUPPLY_KITS, 'k1', (doc) => {
      assert.deepEqual(doc.items, [{ productId: 'pr1', quantity: 3 }]);
      assert.deepEqual([doc.createdBy, doc.updatedBy, doc.revision], ['user-1', 'u2', 1]);
    });
  });

  it('a removed kit is gone, and set again it starts over', async () => {
    await given(kit(set(2), removed)).thenAbsent(SUPPLY_KITS, 'k1');
    await given(kit(set(2), removed, set(4))).then<SupplyKitDoc>(SUPPLY_KITS, 'k1', (doc) => {
      assert.equal(doc.items[0]?.quantity, 4);
      assert.equal(doc.revision, 2);
    });
  });

  it('changes nothing when events are delivered again: a replay from an older checkpoint leaves a removed kit removed', async () => {
    const events = kit(set(2), removed);
    // The runner replays everything after its checkpoint, in order (a lone stale set would bring the deleted kit back).
    await given(events, events).thenAbsent(SUPPLY_KITS, 'k1');
    await given(kit(set(2), set(5))).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(kit(set(2)), otherCompany(set(9)));
    await outcome.then<SupplyKitDoc>(SUPPLY_KITS, 'k1', (doc) => assert.equal(doc.items[0]?.quantity, 2));
    await outcome.in('t2').then<SupplyKitDoc>(SUPPLY_KITS, 'k1', (doc) => assert.equal(doc.items[0]?.quantity, 9));
    await given(otherCompany(set(2)))
      .in('t1')
      .thenAbsent(SUPPLY_KITS, 'k1');
  });
});
