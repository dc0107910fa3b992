// Given dialyzer events / when a command / then: the reuse safeguards of issue 21 item 14 (domain.md 3.2-3.6): the
// two-person identity check also before the first use of a reusable dialyzer, the reprocessing tests required before a
// reuse, and a dialyzer reaching its maximum uses leaving service by itself.
import assert from 'node:assert/strict';
import { DEFAULT_POLICY } from '../empresas/shared/policySettings.js';
import { failedFields, scenario } from '../givenWhenThen.js';
import { dialyzerDecider } from './dialyzerDecider.js';
import type { DialyzerCommand, DialyzerEvent, DialyzerFields, PatientFacts } from './dialyzerEvents.js';
import type { ReusePolicy } from './shared/reusePolicy.js';

const given = scenario(dialyzerDecider);
const at = '2025-03-02T10:00:00.000Z';
const cmd = <T extends DialyzerCommand['type']>(type: T, data: Extract<DialyzerCommand, { type: T }>['data']): DialyzerCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 'd1', tenantId: 't1' }) as DialyzerCommand;
const policy: ReusePolicy = { ...DEFAULT_POLICY.dialyzerReuse, revision: 3 };
const patient: PatientFacts = { exists: true, active: true, hbsagPositive: false };
const fields: DialyzerFields = {
  model: 'FX80',
  surfaceM2: 1.8,
  flux: 'high',
  membrane: 'Helixone',
  lot: 'L1',
  serial: 'S-1',
  reusable: true,
};
const received = (f: Partial<DialyzerFields> = {}): DialyzerEvent => ({
  type: 'DialyzerReceived',
  data: { dialyzerId: 'd1', ...fields, ...f },
});
const assigned: DialyzerEvent = { type: 'DialyzerAssignedToPatient', data: { patientId: 'p1', baselineTcvMl: 100 } };
const staff = { n1: true, n2: true };
const firstUseChecks: DialyzerEvent = {
  type: 'PreUseChecksRecorded',
  data: { patientId: 'p1', identityConfirmedBy: ['n1', 'n2'], checkedAt: at },
};
const useFor = (pol: Partial<ReusePolicy> = {}) =>
  cmd('RecordDialyzerUse', { sessionId: 's9', patientId: 'p1', patient, policy: { ...policy, ...pol } });
/** A first machine reprocessing that passed, a day before the next use. */
const reprocessed: DialyzerEvent = {
  type: 'DialyzerReprocessed',
  data: {
    operatorId: 't',
    reprocessor: { kind: 'machine' },
    tcvMl: 95,
    pressureLeak: 'pass',
    bloodLeak: 'pass',
    germicide: { name: 'Peracidin', lot: 'G', concentrationPercent: 3.5 },
    fillTime: '2025-03-01T08:00:00.000Z',
    storageLocation: 'A',
    expiresOn: '2025-03-30',
    cycle: 1,
    tcvPercent: 95,
    policyRevision: 3,
  },
};

const usedEvent = (useNumber: number, maxUses = 15): DialyzerEvent => ({
  type: 'DialyzerUsed',
  data: { sessionId: `s${useNumber}`, patientId: 'p1', useNumber, maxUses, policyRevision: 3, usedAt: at },
});

describe('dialyzer reuse safeguards', () => {
  it('a reusable dialyzer is not used a first time before two people confirm the patient', () => {
    given(received(), assigned).when(useFor()).thenError('pre-use-checks-missing');
    // The first use's checks are the identity check alone: there is no germicide in a new dialyzer.
    given(received(), assigned)
      .when(cmd('RecordPreUseChecks', { patientId: 'p1', identityConfirmedBy: ['n1', 'n2'], confirmers: staff }))
      .then(firstUseChecks);
    given(received(), assigned)
      .when(cmd('RecordPreUseChecks', { patientId: 'p1', identityConfirmedBy: ['n1', 'n1'], confirmers: staff }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['identityConfirmations']));
    given(received(), assigned, firstUseChecks)
      .when(useFor())
      .then({ ...usedEvent(1), data: { ...usedEvent(1).data, sessionId: 's9' } } as DialyzerEvent);
  });

  it('a single-use dialyzer is never reused, so it needs no identity check', () => {
    const events = given(received({ reusable: false }), assigned)
      .when(useFor())
      .events();
    assert.deepEqual(
      events.map((e) => e.type),
      ['DialyzerUsed', 'DialyzerDiscarded'],
    );
  });

  it('before a reuse the checks include the germicide potency and the residual test (422 naming them)', () => {
    given(received(), assigned, firstUseChecks, usedEvent(1), reprocessed)
      .when(cmd('RecordPreUseChecks', { patientId: 'p1', identityConfirmedBy: ['n1', 'n2'], confirmers: staff }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['germicidePotency', 'residualTest']));
  });

  it('the use that reaches the maximum uses takes the dialyzer out of service by itself', () => {
    const twice = { modelOverrides: [{ model: 'FX80', maxUses: 2 }] };
    const reuseChecks: DialyzerEvent = {
      type: 'PreUseChecksRecorded',
      data: { patientId: 'p1', germicidePotency: 'pass', residualTest: 'negative', identityConfirmedBy: ['n1', 'n2'], checkedAt: at },
    };
    given(received(), assigned, firstUseChecks, usedEvent(1, 2), reprocessed, reuseChecks)
      .when(useFor(twice))
      .then(
        { type: 'DialyzerUsed', data: { sessionId: 's9', patientId: 'p1', useNumber: 2, maxUses: 2, policyRevision: 3, usedAt: at } },
        { type: 'DialyzerDiscarded', data: { reason: 'max-uses-reached', policyRevision: 3 } },
      );
  });
});
