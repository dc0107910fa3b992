// A use of equipment recorded by hand is judged against the session it names: of the patient, ended, on that record.
import assert from 'node:assert/strict';
import type { DomainError } from '../../decider.js';
import { checkUseByHand, type EndedSessionFacts } from './useByHand.js';

const equipment = { machineId: 'm1', dialyzerId: 'd1', arterialLineId: null, venousLineId: 'v1' };
const ended: EndedSessionFacts = {
  reference: { exists: true, patientId: 'p1', date: '2025-03-01' },
  equipment,
  effectiveMinutes: 225,
};
const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as DomainError).code;
  }
  return 'none';
};

describe('a use by hand', () => {
  it('of an ended session of the patient on that record answers its effective minutes', () => {
    assert.equal(checkUseByHand(ended, 'p1', 'machine', 'm1'), 225);
    assert.equal(checkUseByHand(ended, 'p1', 'venous', 'v1'), 225);
  });

  it('is refused for another patient (422), a running or never started session, and another record (409)', () => {
    assert.equal(
      codeOf(() => checkUseByHand(ended, 'p2', 'machine', 'm1')),
      'validation-failed',
    );
    assert.equal(
      codeOf(() => checkUseByHand({ ...ended, effectiveMinutes: null }, 'p1', 'machine', 'm1')),
      'session-not-ended',
    );
    assert.equal(
      codeOf(() => checkUseByHand({ ...ended, equipment: null, effectiveMinutes: null }, 'p1', 'dialyzer', 'd1')),
      'session-not-ended',
    );
    assert.equal(
      codeOf(() => checkUseByHand(ended, 'p1', 'machine', 'm2')),
      'not-equipment-of-session',
    );
    assert.equal(
      codeOf(() => checkUseByHand(ended, 'p1', 'arterial', 'a1')),
      'not-equipment-of-session',
    );
  });
});
