// Given the lot's record / when a movement states its expiry / then it is recorded once, or refused when different.
import assert from 'node:assert/strict';
import { scenario } from '../givenWhenThen.js';
import { lotDecider, type LotCommand, type LotEvent } from './lotDecider.js';

const given = scenario(lotDecider);
const record = (expiry: string | null, field = 'expiry'): LotCommand => ({
  type: 'RecordLotExpiry',
  data: { productId: 'p1', lot: 'L-1', expiry, movementId: 'mv', field },
  at: '2025-03-01T10:00:00Z',
  actor: 'u1',
  aggregateId: 'lot',
  tenantId: 't1',
});
const recorded = (expiry: string | null): LotEvent => ({
  type: 'LotExpiryRecorded',
  data: { productId: 'p1', lot: 'L-1', expiry, movementId: 'mv' },
});

describe('lot decider: one expiry per lot, company-wide', () => {
  it('records the expiry of a lot the company never held', () => {
    given().when(record('2025-06-30')).then(recorded('2025-06-30'));
  });

  it('records nothing again for the same expiry', () => {
    given(recorded('2025-06-30')).when(record('2025-06-30')).then();
  });

  it('refuses another expiry (409 naming the field that stated it)', () => {
    given(recorded('2025-06-30'))
      .when(record('2025-12-31'))
      .thenError('lot-expiry-conflict', (e) => {
        assert.equal(e.status, 409);
        assert.deepEqual(e.details?.errors, [{ field: 'expiry', message: 'lot L-1 expires on 2025-06-30' }]);
      });
    given(recorded('2025-06-30'))
      .when(record(null, 'lot'))
      .thenError('lot-expiry-conflict', (e) => assert.equal((e.details?.errors as { field: string }[])[0]!.field, 'lot'));
  });
});
