// Given a session's status, treatment minutes and whether it was interrupted / when judged / then paid by its payer or not.
import assert from 'node:assert/strict';
import { paidByPayer } from './payerBilling.js';

describe('the one rule the payer bill and the units follow', () => {
  it('pays an ended session, and an interrupted one only after some treatment, signed or not', () => {
    assert.equal(paidByPayer('ended', 240), true);
    assert.equal(paidByPayer('validated', 240), true);
    assert.equal(paidByPayer('interrupted', 30), true);
    assert.equal(paidByPayer('interrupted', 0), false);
    assert.equal(paidByPayer('signed', 0, true), false);
    assert.equal(paidByPayer('validated', 0, true), false);
    assert.equal(paidByPayer('signed', 30, true), true);
    assert.equal(paidByPayer('cancelled', null), false);
  });
});
