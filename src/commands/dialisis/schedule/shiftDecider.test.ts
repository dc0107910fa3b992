// Given a shift's history / when it is defined, corrected or retired / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { shiftDecider } from './shiftDecider.js';
import type { ShiftCommand, ShiftEvent, ShiftFields } from './shiftEvents.js';

const given = scenario(shiftDecider);
const cmd = (type: ShiftCommand['type'], data: unknown): ShiftCommand =>
  ({ type, data, at: '2025-03-01T08:00:00.000Z', actor: 'u1', aggregateId: 'sh1', tenantId: 't1' }) as ShiftCommand;
const open = { exists: true, open: true };
const policy = { revision: 3, defaultCapacity: 20 };
const fields: ShiftFields = {
  name: 'Mañana',
  locationId: 'l1',
  dialysisStart: '06:00',
  dialysisEnd: '10:00',
  cleaningMinutes: 30,
  capacity: 20,
  reservedCapacity: 2,
};
const defined: ShiftEvent = { type: 'ShiftDefined', data: { shiftId: 'sh1', ...fields, policyRevision: 3 } };

describe('Shifts', () => {
  it("defines a shift, its capacity from the company policy when not given (the event records the policy's revision)", () => {
    const { capacity: _c, ...asked } = fields;
    given()
      .when(cmd('DefineShift', { ...asked, location: open, policy }))
      .then(defined);
  });

  it('refuses a window that ends before it starts, and a location not of the company or closed', () => {
    given()
      .when(cmd('DefineShift', { ...fields, dialysisEnd: '05:00', location: { exists: false, open: true }, policy }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['dialysisEnd', 'locationId']));
    given()
      .when(cmd('DefineShift', { ...fields, location: { exists: true, open: false }, policy }))
      .thenError('location-closed');
  });

  it('corrects only what changes, and nothing on a retired shift', () => {
    given(defined)
      .when(cmd('CorrectShift', { capacity: 24, name: 'Mañana' }))
      .then({ type: 'ShiftCorrected', data: { changes: { capacity: 24 }, previous: { capacity: 20 } } });
    const retired: ShiftEvent = { type: 'ShiftRetired', data: { reason: 'closed' } };
    given(defined, retired)
      .when(cmd('CorrectShift', { capacity: 24 }))
      .thenError('shift-retired');
    given(defined, retired)
      .when(cmd('RetireShift', { reason: 'again' }))
      .thenError('shift-retired');
    given()
      .when(cmd('RetireShift', { reason: 'x' }))
      .thenError('not-found');
  });
});
