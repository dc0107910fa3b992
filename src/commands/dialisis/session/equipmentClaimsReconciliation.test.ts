// When is a session's claim orphaned: the session never recorded its start, and the grace a start needs has passed.
import assert from 'node:assert/strict';
import { isOrphanedClaim, sessionClaimsReconciliationTask } from './equipmentClaimsReconciliation.js';
import { LIMITS } from '../../../limits.js';

describe('orphaned session claims', () => {
  const claimedAt = '2025-03-01T10:00:00.000Z';
  it('is orphaned only past the grace and only when the session never started', () => {
    assert.equal(isOrphanedClaim(claimedAt, false, '2025-03-01T10:02:01.000Z', 120), true);
    assert.equal(isOrphanedClaim(claimedAt, false, '2025-03-01T10:02:00.000Z', 120), false);
    assert.equal(isOrphanedClaim(claimedAt, true, '2025-03-02T10:00:00.000Z', 120), false);
  });

  it('runs periodically at the documented interval', () => {
    const task = sessionClaimsReconciliationTask(() => ({ companyIds: async () => [], sessionClaims: async () => [] }));
    assert.equal(task.everyMs, LIMITS.sessionClaims.reconcileEverySeconds * 1000);
  });
});
