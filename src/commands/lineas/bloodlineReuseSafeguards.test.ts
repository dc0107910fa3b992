// Given bloodline events / when a command / then: the dialyzer's reuse safeguards on bloodline reprocessing (issue 21
// item 14; domain.md 3.2-3.3, 3.6): no reuse for an HBsAg-positive patient unless the policy allows it, the germicide's
// minimum dwell, and a negative residual germicide test before the reused line goes into a session.
import assert from 'node:assert/strict';
import { scenario } from '../givenWhenThen.js';
import { bloodlineDecider } from './bloodlineDecider.js';
import type { BloodlineCommand, BloodlineEvent, LinePolicyFacts } from './bloodlineEvents.js';

const given = scenario(bloodlineDecider('venous'));
const at = '2025-03-01T10:00:00.000Z';
const later = (hours: number): string => new Date(Date.parse(at) + hours * 3_600_000).toISOString();
const cmd = <T extends BloodlineCommand['type']>(
  type: T,
  data: Extract<BloodlineCommand, { type: T }>['data'],
  when = at,
): BloodlineCommand => ({ type, data, at: when, actor: 'u1', aggregateId: 'l1', tenantId: 't1' }) as BloodlineCommand;
const policy: LinePolicyFacts = { revision: 3, enabled: true, maxUses: 3, hbsagPositiveReuse: false, minDwellHours: 11 };
const received: BloodlineEvent = {
  type: 'BloodlineReceived',
  data: {
    lineId: 'l1',
    lineType: 'venous',
    model: 'AV',
    lot: 'L',
    serial: 'S',
    primingVolumeMl: 120,
    reusable: true,
    receivedOn: '2025-02-01',
  },
};
const assigned: BloodlineEvent = { type: 'BloodlineAssignedToPatient', data: { patientId: 'pA', maxUses: 3, policyRevision: 3 } };
const used: BloodlineEvent = {
  type: 'BloodlineUsed',
  data: { sessionId: 's1', patientId: 'pA', useNumber: 1, maxUses: 3, policyRevision: 3 },
};
const reprocessed: BloodlineEvent = {
  type: 'BloodlineReprocessed',
  data: { disinfectant: 'peracetic acid', integrity: 'passed', afterUse: 1, policyRevision: 3, fillTime: at, minDwellHours: 11 },
};
const residual = (result: 'negative' | 'positive', when = later(12)): BloodlineEvent => ({
  type: 'BloodlineResidualTested',
  data: { result, testedAt: when },
});
const reprocess = (hbsagPositive = false, pol: Partial<LinePolicyFacts> = {}) =>
  cmd('ReprocessBloodline', {
    disinfectant: 'peracetic acid',
    integrity: 'passed',
    policy: { ...policy, ...pol },
    patient: { hbsagPositive },
  });
const useAt = (when: string) => cmd('RecordBloodlineUse', { sessionId: 's2', patientId: 'pA', policy }, when);
const reserveAt = (when: string) => cmd('ReserveBloodlineForSession', { sessionId: 's2', patientId: 'pA', policy }, when);

describe('bloodline reuse safeguards', () => {
  it("records the germicide fill and its minimum dwell; never reprocesses an HBsAg-positive patient's line unless the policy allows", () => {
    given(received, assigned, used).when(reprocess()).then(reprocessed);
    given(received, assigned, used).when(reprocess(true)).thenError('hbsag-positive-no-reuse');
    const allowed = given(received, assigned, used)
      .when(reprocess(true, { hbsagPositiveReuse: true }))
      .events();
    assert.equal(allowed[0]!.type, 'BloodlineReprocessed');
  });

  it('a reused line needs a negative residual test and its dwell passed before it goes into a session', () => {
    given(received, assigned, used, reprocessed)
      .when(reserveAt(later(12)))
      .thenError('residual-test-missing');
    given(received, assigned, used, reprocessed, residual('positive'))
      .when(useAt(later(12)))
      .thenError('residual-test-positive');
    given(received, assigned, used, reprocessed, residual('negative', later(1)))
      .when(reserveAt(later(2)))
      .thenError('dwell-time-too-short');
    assert.equal(
      given(received, assigned, used, reprocessed, residual('negative'))
        .when(reserveAt(later(12)))
        .events()[0]!.type,
      'BloodlineReservedForSession',
    );
  });

  it('records the residual test only on a reprocessed line not used since', () => {
    given(received, assigned, used, reprocessed)
      .when(cmd('RecordBloodlineResidualTest', { result: 'negative' }, later(12)))
      .then(residual('negative'));
    given(received, assigned, used)
      .when(cmd('RecordBloodlineResidualTest', { result: 'negative' }))
      .thenError('bloodline-not-reprocessed');
  });
});
