// The signing rule on its own: every condition, and every reason it gives.
import assert from 'node:assert/strict';
import { signingVerdict, type SigningPosition, type SigningStaff } from './signingRule.js';

const nurse: SigningPosition = { status: 'active', clinical: true, licenceRequired: true };
const staff: SigningStaff = { hireDate: '2024-01-15', licence: { expiresOn: '2025-06-30' } };

describe('signing rule', () => {
  it('allows active, licensed clinical staff, the licence valid through its expiry date', () => {
    assert.deepEqual(signingVerdict(staff, nurse, '2025-06-30'), { allowed: true, reasons: [] });
    assert.deepEqual(signingVerdict(staff, nurse, '2024-01-15'), { allowed: true, reasons: [] });
  });

  it('needs a staff record', () => {
    assert.deepEqual(signingVerdict(null, nurse, '2025-01-01'), { allowed: false, reasons: ['no-staff-record'] });
  });

  it('needs the day within the employment', () => {
    assert.deepEqual(signingVerdict(staff, nurse, '2024-01-14').reasons, ['staff-not-yet-hired']);
    const leaving = { ...staff, terminationDate: '2025-03-01' };
    assert.deepEqual(signingVerdict(leaving, nurse, '2025-02-28').reasons, []);
    assert.deepEqual(signingVerdict(leaving, nurse, '2025-03-01').reasons, ['staff-terminated']);
  });

  it('needs an active clinical position', () => {
    assert.deepEqual(signingVerdict(staff, { ...nurse, clinical: false }, '2025-01-01').reasons, ['position-not-clinical']);
    assert.deepEqual(signingVerdict(staff, { ...nurse, status: 'inactive' }, '2025-01-01').reasons, ['position-inactive']);
    assert.deepEqual(signingVerdict(staff, null, '2025-01-01').reasons, ['position-missing']);
  });

  it('needs a licence valid on the day when the position requires one', () => {
    assert.deepEqual(signingVerdict({ hireDate: '2024-01-15' }, nurse, '2025-01-01').reasons, ['licence-missing']);
    assert.deepEqual(signingVerdict(staff, nurse, '2025-07-01').reasons, ['licence-expired']);
    assert.deepEqual(signingVerdict({ hireDate: '2024-01-15' }, { ...nurse, licenceRequired: false }, '2025-01-01').reasons, []);
  });

  it("a physician's act (validating a session, prescribing) needs a physician's position, not any licensed clinical one", () => {
    const nephrologist: SigningPosition = { ...nurse, physician: true };
    assert.deepEqual(signingVerdict(staff, nurse, '2025-01-01', 'physician'), { allowed: false, reasons: ['position-not-physician'] });
    assert.deepEqual(signingVerdict(staff, nephrologist, '2025-01-01', 'physician'), { allowed: true, reasons: [] });
    assert.deepEqual(signingVerdict(staff, nurse, '2025-01-01', 'clinical'), { allowed: true, reasons: [] });
    assert.deepEqual(signingVerdict(staff, nephrologist, '2025-07-01', 'physician').reasons, ['licence-expired']);
  });

  it('gives every failed condition at once', () => {
    const verdict = signingVerdict({ ...staff, terminationDate: '2025-03-01' }, { ...nurse, clinical: false }, '2025-07-01');
    assert.deepEqual(verdict, { allowed: false, reasons: ['staff-terminated', 'position-not-clinical', 'licence-expired'] });
  });
});
