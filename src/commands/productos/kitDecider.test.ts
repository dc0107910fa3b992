// Given kit events / when a command / then events or a refusal naming the fields.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { supplyKitDecider } from './kitDecider.js';
import type { KitFacts, SupplyKitCommand, SupplyKitEvent } from './kitEvents.js';

const given = scenario(supplyKitDecider);
const facts: KitFacts = { warehouseExists: true, products: { needle: { active: true }, saline: { active: true }, old: { active: false } } };
const envelope = { at: '2025-03-01T10:00:00Z', actor: 'u1', aggregateId: 'patient-1', tenantId: 't1' };
const setKit = (data: Partial<Extract<SupplyKitCommand, { type: 'SetSupplyKit' }>['data']> = {}): SupplyKitCommand => ({
  ...envelope,
  type: 'SetSupplyKit',
  data: {
    warehouseId: 'w1',
    items: [
      { productId: 'needle', quantity: 2 },
      { productId: 'saline', quantity: 1 },
    ],
    facts,
    ...data,
  },
});
const removeKit: SupplyKitCommand = { ...envelope, type: 'RemoveSupplyKit', data: {} };
const kitSet: SupplyKitEvent = {
  type: 'SupplyKitSet',
  data: {
    kitId: 'patient-1',
    warehouseId: 'w1',
    items: [
      { productId: 'needle', quantity: 2 },
      { productId: 'saline', quantity: 1 },
    ],
  },
};

describe('supply kit decider', () => {
  it('sets a kit (the facts stay out of the event), and records nothing when it is set again unchanged', () => {
    given().when(setKit()).then(kitSet);
    given(kitSet).when(setKit()).then();
  });

  it('replaces a kit as a whole', () => {
    given(kitSet)
      .when(setKit({ items: [{ productId: 'saline', quantity: 2 }] }))
      .then({ type: 'SupplyKitSet', data: { kitId: 'patient-1', warehouseId: 'w1', items: [{ productId: 'saline', quantity: 2 }] } });
  });

  it('an empty kit is a kit: the patient consumes nothing by default (not the company default)', () => {
    given(kitSet)
      .when(setKit({ items: [] }))
      .then({ type: 'SupplyKitSet', data: { kitId: 'patient-1', warehouseId: 'w1', items: [] } });
  });

  it('refuses an absent warehouse, unknown, deactivated or repeated products and quantities not above 0, naming each', () => {
    const items = [
      { productId: 'ghost', quantity: 1 },
      { productId: 'old', quantity: 1 },
      { productId: 'needle', quantity: 0 },
      { productId: 'needle', quantity: 1 },
      { productId: 'saline', quantity: -2 },
    ];
    given()
      .when(setKit({ items, facts: { ...facts, warehouseExists: false } }))
      .thenError('validation-failed', (e) =>
        assert.deepEqual(failedFields(e), [
          'warehouseId',
          'items/0/productId',
          'items/1/productId',
          'items/2/quantity',
          'items/3/productId',
          'items/4/quantity',
        ]),
      );
  });

  it('removes a kit once; removing what is not there is not-found', () => {
    given(kitSet)
      .when(removeKit)
      .then({ type: 'SupplyKitRemoved', data: { kitId: 'patient-1' } });
    given(kitSet, { type: 'SupplyKitRemoved', data: { kitId: 'patient-1' } })
      .when(removeKit)
      .thenError('not-found');
    given().when(removeKit).thenError('not-found');
  });

  it('a removed kit can be set again', () => {
    given(kitSet, { type: 'SupplyKitRemoved', data: { kitId: 'patient-1' } })
      .when(setKit())
      .then(kitSet);
  });
});
