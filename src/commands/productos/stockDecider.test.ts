// Given stock events / when a movement / then the kardex lines or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { stockDecider } from './stockDecider.js';
import type { StockCommand, StockEvent, StockFacts } from './stockEvents.js';

const given = scenario(stockDecider);
const target = { movementId: 'mv', productId: 'p1', warehouseId: 'w1' };
const tracked: StockFacts = { product: { active: true, lotTracked: true, expiryTracked: true }, today: '2025-03-01' };
const plain: StockFacts = { product: { active: true, lotTracked: false, expiryTracked: false }, today: '2025-03-01' };
const cmd = <T extends StockCommand['type']>(type: T, data: Omit<Extract<StockCommand, { type: T }>['data'], keyof typeof target>) =>
  ({
    type,
    data: { ...target, ...data },
    at: '2025-03-01T10:00:00Z',
    actor: 'u1',
    aggregateId: 'p1_w1',
    tenantId: 't1',
  }) as unknown as StockCommand;
const receipt = { supplier: 'Acme', documentNumber: 'F-1' };
const received = (
  lot: string | null,
  expiry: string | null,
  quantity: number,
  lotBalanceAfter: number,
  balanceAfter: number,
): StockEvent => ({
  type: 'StockReceived',
  data: { ...target, lot, expiry, quantity, lotBalanceAfter, balanceAfter, costPerUnit: 0, valueAfter: 0, ...receipt },
});
const twoLots = [received('L-LATE', '2025-12-31', 5, 5, 5), received('L-SOON', '2025-06-30', 3, 3, 8)];

describe('stock decider', () => {
  it('receives a tracked lot with its expiry, and the balances after it', () => {
    given()
      .when(cmd('ReceiveStock', { ...tracked, ...receipt, quantity: 5, lot: 'L-1', expiry: '2025-12-31' }))
      .then(received('L-1', '2025-12-31', 5, 5, 5));
  });

  it('requires lot and expiry on receipt when tracked, refuses them when not, refuses an expired lot (422 naming them)', () => {
    given()
      .when(cmd('ReceiveStock', { ...tracked, ...receipt, quantity: 5 }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['lot']));
    given()
      .when(cmd('ReceiveStock', { ...tracked, ...receipt, quantity: 5, lot: 'L-1' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['expiry']));
    given()
      .when(cmd('ReceiveStock', { ...plain, ...receipt, quantity: 5, lot: 'L-1' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['lot']));
    given()
      .when(cmd('ReceiveStock', { ...tracked, ...receipt, quantity: 5, lot: 'L-1', expiry: '2025-02-28' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['expiry']));
  });

  it('one expiry per lot: a receipt stating another one is refused (409 naming expiry), here or in another warehouse', () => {
    given(received('L-1', '2025-12-31', 5, 5, 5))
      .when(cmd('ReceiveStock', { ...tracked, ...receipt, quantity: 5, lot: 'L-1', expiry: '2026-01-31' }))
      .thenError('lot-expiry-conflict', (e) => assert.deepEqual(failedFields(e), ['expiry']));
    // The lot is held elsewhere in the company (its recorded expiry comes with the facts): same rule.
    const heldElsewhere = { ...tracked, lotExpiry: '2025-04-30' };
    given()
      .when(cmd('ReceiveStock', { ...heldElsewhere, ...receipt, quantity: 5, lot: 'L-1', expiry: '2025-12-31' }))
      .thenError('lot-expiry-conflict', (e) => assert.equal(e.status, 409));
    // Without a stated expiry it takes the recorded one.
    given()
      .when(cmd('ReceiveStock', { ...heldElsewhere, ...receipt, quantity: 5, lot: 'L-1' }))
      .then(received('L-1', '2025-04-30', 5, 5, 5));
    given()
      .when(cmd('AdjustStock', { ...heldElsewhere, quantity: 2, lot: 'L-1', expiry: '2025-12-31', reason: 'found' }))
      .thenError('lot-expiry-conflict');
  });

  it('a transfer in carries the lot’s expiry: a warehouse holding the lot with another date refuses it, never rewrites it', () => {
    const shortDated = [{ lot: 'L-LATE', expiry: '2025-04-30', quantity: 5 }];
    given(...twoLots)
      .when(cmd('TransferStockIn', { fromWarehouseId: 'w0', portions: shortDated }))
      .thenError('lot-expiry-conflict', (e) => assert.deepEqual(failedFields(e), ['lot']));
    const [into] = given(...twoLots)
      .when(cmd('TransferStockIn', { fromWarehouseId: 'w0', portions: [{ ...shortDated[0]!, expiry: '2025-12-31' }] }))
      .events();
    assert.deepEqual([into?.data.expiry, into?.data.lotBalanceAfter], ['2025-12-31', 10]);
  });

  it('refuses a receipt for a deactivated product', () => {
    const inactive = { ...plain, product: { ...plain.product, active: false } };
    given()
      .when(cmd('ReceiveStock', { ...inactive, ...receipt, quantity: 1 }))
      .thenError('product-inactive');
  });

  it('refuses an issue beyond the balance of the lot, or of the product when not lot-tracked', () => {
    given(...twoLots)
      .when(cmd('IssueStock', { ...tracked, quantity: 4, lot: 'L-SOON', reference: { kind: 'consumption' } }))
      .thenError('insufficient-stock', (e) => assert.equal(e.details?.available, 3));
    given(received(null, null, 2, 2, 2))
      .when(cmd('IssueStock', { ...plain, quantity: 3, reference: { kind: 'consumption' } }))
      .thenError('insufficient-stock');
  });

  it('refuses to issue an expired lot (409 lot-expired), and FEFO skips it', () => {
    const later = { ...tracked, today: '2025-07-01' };
    given(...twoLots)
      .when(cmd('IssueStock', { ...later, quantity: 1, lot: 'L-SOON', reference: { kind: 'consumption' } }))
      .thenError('lot-expired');
    const [line] = given(...twoLots)
      .when(cmd('IssueStock', { ...later, quantity: 1, reference: { kind: 'consumption' } }))
      .events();
    assert.equal(line?.data.lot, 'L-LATE');
    given(...twoLots)
      .when(cmd('IssueStock', { ...later, quantity: 6, reference: { kind: 'consumption' } }))
      .thenError('insufficient-stock', (e) => assert.equal(e.details?.available, 5));
  });

  it('without a lot takes the earliest-expiring lots first (FEFO), across lots when one is not enough', () => {
    const events = given(...twoLots)
      .when(cmd('IssueStock', { ...tracked, quantity: 4, reference: { kind: 'session', sessionId: 's1' } }))
      .events();
    assert.deepEqual(
      events.map((e) => [
        e.type,
        e.data.lot,
        e.data.quantity,
        e.data.lotBalanceAfter,
        e.data.balanceAfter,
        (e.data as { fefo: boolean }).fefo,
      ]),
      [
        ['StockIssued', 'L-SOON', -3, 0, 5, true],
        ['StockIssued', 'L-LATE', -1, 4, 4, true],
      ],
    );
  });

  it('adjusts up (a new lot needs its expiry) and down (never below zero), with a reason', () => {
    given(...twoLots)
      .when(cmd('AdjustStock', { ...tracked, quantity: -6, lot: 'L-LATE', reason: 'count' }))
      .thenError('insufficient-stock');
    given(...twoLots)
      .when(cmd('AdjustStock', { ...tracked, quantity: 2, lot: 'L-NEW', reason: 'count' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['expiry']));
    given(...twoLots)
      .when(cmd('AdjustStock', { ...tracked, quantity: -2, lot: 'L-LATE', reason: ' count ' }))
      .then({
        type: 'StockAdjusted',
        data: {
          ...target,
          lot: 'L-LATE',
          expiry: '2025-12-31',
          quantity: -2,
          lotBalanceAfter: 3,
          balanceAfter: 6,
          costPerUnit: 0,
          valueAfter: 0,
          reason: 'count',
        },
      });
    given(...twoLots)
      .when(cmd('AdjustStock', { ...tracked, quantity: 0, lot: 'L-LATE', reason: '' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['quantity', 'reason']));
  });

  it('writes off an expired lot (loss or expiry) but needs the lot when tracked', () => {
    const later = { ...tracked, today: '2025-07-01' };
    given(...twoLots)
      .when(cmd('WriteOffStock', { ...later, kind: 'expiry', quantity: 3, lot: 'L-SOON', reason: 'expired' }))
      .then({
        type: 'StockWrittenOff',
        data: {
          ...target,
          lot: 'L-SOON',
          expiry: '2025-06-30',
          quantity: -3,
          lotBalanceAfter: 0,
          balanceAfter: 5,
          costPerUnit: 0,
          valueAfter: 0,
          kind: 'expiry',
          reason: 'expired',
        },
      });
    given(...twoLots)
      .when(cmd('WriteOffStock', { ...later, kind: 'loss', quantity: 1, reason: 'broken' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['lot']));
  });

  it('moves a transfer out and in with the same lots, and takes them back when the destination refuses', () => {
    const [out] = given(...twoLots)
      .when(cmd('TransferStockOut', { ...tracked, quantity: 2, lot: 'L-LATE', toWarehouseId: 'w2' }))
      .events();
    assert.deepEqual([out?.type, out?.data.quantity, out?.data.balanceAfter], ['StockTransferredOut', -2, 6]);
    given(...twoLots)
      .when(cmd('TransferStockOut', { ...tracked, quantity: 1, toWarehouseId: 'w1' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['toWarehouseId']));
    const portions = [{ lot: 'L-LATE', expiry: '2025-12-31', quantity: 2 }];
    const [into] = given()
      .when(cmd('TransferStockIn', { fromWarehouseId: 'w0', portions }))
      .events();
    assert.deepEqual([into?.type, into?.data.quantity, into?.data.balanceAfter], ['StockTransferredIn', 2, 2]);
    const [back] = given(...twoLots, out!)
      .when(cmd('RevertTransferOut', { toWarehouseId: 'w2', portions, reason: 'refused' }))
      .events();
    assert.deepEqual([back?.type, back?.data.lotBalanceAfter, back?.data.balanceAfter], ['StockTransferReverted', 5, 8]);
  });

  it('a write-off for expiry is only for an expired lot (409 lot-not-expired naming kind); a loss is for any lot', () => {
    given(...twoLots)
      .when(cmd('WriteOffStock', { ...tracked, kind: 'expiry', quantity: 1, lot: 'L-SOON', reason: 'expired' }))
      .thenError('lot-not-expired', (e) => assert.deepEqual(failedFields(e), ['kind']));
    given(received(null, null, 5, 5, 5))
      .when(cmd('WriteOffStock', { ...plain, kind: 'expiry', quantity: 1, reason: 'expired' }))
      .thenError('lot-not-expired');
    const [loss] = given(...twoLots)
      .when(cmd('WriteOffStock', { ...tracked, kind: 'loss', quantity: 1, lot: 'L-SOON', reason: 'broken vial' }))
      .events();
    assert.equal(loss?.type, 'StockWrittenOff');
  });

  it('a prescription drug is issued to a patient or a session, never as plain consumption (409 naming patientId)', () => {
    const prescription = { ...tracked, product: { ...tracked.product, prescriptionDrug: true } };
    given(...twoLots)
      .when(cmd('IssueStock', { ...prescription, quantity: 1, reference: { kind: 'consumption' } }))
      .thenError('prescription-needs-patient', (e) => assert.deepEqual(failedFields(e), ['patientId']));
    for (const reference of [
      { kind: 'patient', patientId: 'pa1' },
      { kind: 'session', sessionId: 's1' },
    ] as const) {
      const [issued] = given(...twoLots)
        .when(cmd('IssueStock', { ...prescription, quantity: 1, reference }))
        .events();
      assert.equal(issued?.type, 'StockIssued');
    }
  });

  it('a product counted in units moves whole units only (422 naming quantity); a measured one may be fractional', () => {
    const counted = { ...plain, product: { ...plain.product, countable: true } };
    const stocked = received(null, null, 10, 10, 10);
    for (const command of [
      cmd('ReceiveStock', { ...counted, ...receipt, quantity: 2.5 }),
      cmd('IssueStock', { ...counted, quantity: 0.5, reference: { kind: 'consumption' } }),
      cmd('TransferStockOut', { ...counted, quantity: 1.5, toWarehouseId: 'w2' }),
      cmd('AdjustStock', { ...counted, quantity: -0.25, reason: 'count' }),
      cmd('WriteOffStock', { ...counted, kind: 'loss', quantity: 0.5, reason: 'spilt' }),
    ]) {
      given(stocked)
        .when(command)
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['quantity']));
    }
    const [measured] = given(stocked)
      .when(cmd('IssueStock', { ...plain, quantity: 0.5, reference: { kind: 'consumption' } }))
      .events();
    assert.equal(measured?.data.balanceAfter, 9.5);
  });

  it('values every line at the weighted average cost: receipts at their unit cost, issues and transfers at the average', () => {
    const money = (amount: number) => ({ amount, currency: 'PEN' });
    const first = given()
      .when(cmd('ReceiveStock', { ...plain, ...receipt, quantity: 10, unitCost: money(2) }))
      .events();
    const second = given(...first)
      .when(cmd('ReceiveStock', { ...plain, ...receipt, quantity: 10, unitCost: money(4) }))
      .events();
    assert.deepEqual([second[0]?.data.costPerUnit, second[0]?.data.valueAfter], [4, 60]);
    const issued = given(...first, ...second)
      .when(cmd('IssueStock', { ...plain, quantity: 5, reference: { kind: 'consumption' } }))
      .events();
    assert.deepEqual([issued[0]?.data.costPerUnit, issued[0]?.data.valueAfter], [3, 45]);
    const out = given(...first, ...second, ...issued)
      .when(cmd('TransferStockOut', { ...plain, quantity: 15, toWarehouseId: 'w2' }))
      .events();
    assert.deepEqual([out[0]?.data.costPerUnit, out[0]?.data.valueAfter], [3, 0]);
    // The destination takes the units in at the cost they left with.
    const [into] = given()
      .when(cmd('TransferStockIn', { fromWarehouseId: 'w1', portions: [{ lot: null, expiry: null, quantity: 15, costPerUnit: 3 }] }))
      .events();
    assert.deepEqual([into?.data.costPerUnit, into?.data.valueAfter], [3, 45]);
    // Without a unit cost, an empty warehouse values the receipt at the catalogue cost.
    const [priced] = given()
      .when(cmd('ReceiveStock', { ...plain, product: { ...plain.product, cost: 12.5 }, ...receipt, quantity: 2 }))
      .events();
    assert.deepEqual([priced?.data.costPerUnit, priced?.data.valueAfter], [12.5, 25]);
  });
});
