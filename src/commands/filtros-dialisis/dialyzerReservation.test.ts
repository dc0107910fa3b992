// Given dialyzer events / when a session claims, releases or uses it / then: the claim at session start re-checks every
// pre-use rule, holds the dialyzer for one running session, and gives it back untouched when the session never started.
import assert from 'node:assert/strict';
import { DEFAULT_POLICY } from '../empresas/shared/policySettings.js';
import { failedFields, scenario } from '../givenWhenThen.js';
import { dialyzerDecider } from './dialyzerDecider.js';
import type { DialyzerCommand, DialyzerEvent, PatientFacts } from './dialyzerEvents.js';
import type { ReusePolicy } from './shared/reusePolicy.js';

const given = scenario(dialyzerDecider);
const at = '2025-03-02T10:00:00.000Z';
const cmd = <T extends DialyzerCommand['type']>(type: T, data: Extract<DialyzerCommand, { type: T }>['data'], when = at): DialyzerCommand =>
  ({ type, data, at: when, actor: 'u1', aggregateId: 'd1', tenantId: 't1' }) as DialyzerCommand;

const policy: ReusePolicy = { ...DEFAULT_POLICY.dialyzerReuse, revision: 3 };
const patient: PatientFacts = { exists: true, active: true, hbsagPositive: false };
const received = (reusable = true): DialyzerEvent => ({
  type: 'DialyzerReceived',
  data: { dialyzerId: 'd1', model: 'FX80', surfaceM2: 1.8, flux: 'high', membrane: 'Helixone', lot: 'L1', serial: 'S-1', reusable },
});
const assigned: DialyzerEvent = { type: 'DialyzerAssignedToPatient', data: { patientId: 'p1', baselineTcvMl: 100 } };
const used1: DialyzerEvent = {
  type: 'DialyzerUsed',
  data: { sessionId: 's0', patientId: 'p1', useNumber: 1, maxUses: 15, policyRevision: 3 },
};
const reprocessed = (fillTime = '2025-03-01T08:00:00.000Z'): DialyzerEvent => ({
  type: 'DialyzerReprocessed',
  data: {
    operatorId: 'tech-1',
    reprocessor: { kind: 'machine' },
    tcvMl: 90,
    pressureLeak: 'pass',
    bloodLeak: 'pass',
    germicide: { name: 'Peracidin', lot: 'G7', concentrationPercent: 3.5 },
    fillTime,
    storageLocation: 'Rack A-3',
    expiresOn: '2025-03-30',
    cycle: 1,
    tcvPercent: 90,
    policyRevision: 3,
  },
});
const checks = (residualTest: 'negative' | 'positive' = 'negative'): DialyzerEvent => ({
  type: 'PreUseChecksRecorded',
  data: { patientId: 'p1', germicidePotency: 'pass', residualTest, identityConfirmedBy: ['n1', 'n2'], checkedAt: at },
});
const stored = [received(), assigned, used1, reprocessed(), checks()];
/** Two people confirmed the patient before the first use (issue 21 item 14). */
const identified: DialyzerEvent = {
  type: 'PreUseChecksRecorded',
  data: { patientId: 'p1', identityConfirmedBy: ['n1', 'n2'], checkedAt: at },
};

const reserve = (sessionId = 's1', patientId = 'p1', p: Partial<PatientFacts> = {}, pol: Partial<ReusePolicy> = {}) =>
  cmd('ReserveDialyzerForSession', { sessionId, patientId, patient: { ...patient, ...p }, policy: { ...policy, ...pol } });
const reserved = (statusBefore: 'assigned' | 'stored' = 'stored', sessionId = 's1'): DialyzerEvent => ({
  type: 'DialyzerReservedForSession',
  data: { sessionId, patientId: 'p1', reservedAt: at, statusBefore, policyRevision: 3 },
});
const release = (sessionId = 's1') => cmd('ReleaseDialyzerReservation', { sessionId, reason: 'orphaned-claim' });
const use = (sessionId = 's1', patientId = 'p1') => cmd('RecordDialyzerUse', { sessionId, patientId, patient, policy });
const stateAfter = (...events: DialyzerEvent[]) => events.reduce((s, e) => dialyzerDecider.evolve(s, e), dialyzerDecider.initialState);
const reasons = (e: { details?: Record<string, unknown> }) => e.details?.reasons;

describe('dialyzer reservation at session start', () => {
  it('reserves a ready dialyzer for the session: in-use, held by that session', () => {
    given(...stored)
      .when(reserve())
      .then(reserved());
    given(received(), assigned, identified).when(reserve()).then(reserved('assigned'));
    const after = stateAfter(...stored, reserved());
    assert.deepEqual([after.status, after.reservation?.sessionId], ['in-use', 's1']);
  });

  it('re-checks every pre-use rule at that moment', () => {
    given(...stored.slice(0, 4))
      .when(reserve())
      .thenError('pre-use-checks-missing');
    given(...stored.slice(0, 4), checks('positive'))
      .when(reserve())
      .thenError('residual-test-positive');
    given(received(), assigned, used1, reprocessed('2025-03-02T09:00:00.000Z'), checks()).when(reserve()).thenError('dwell-time-too-short');
    given(...stored)
      .when(reserve('s1', 'p2'))
      .thenError('patient-mismatch');
    given(...stored)
      .when(reserve('s1', 'p1', { hbsagPositive: true }, { hbsagPositiveReuse: false }))
      .thenError('hbsag-positive-no-reuse');
    given(...stored)
      .when(reserve('s1', 'p1', {}, { defaultMaxUses: 1 }))
      .thenError('max-uses-reached');
    given(received(), assigned, used1).when(reserve()).thenError('awaiting-reprocessing');
    given(...stored)
      .when(reserve('s1', 'p1', { exists: false }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['patientId']));
    given().when(reserve()).thenError('not-found');
  });

  it('is in at most one running session: another session is refused, the same one again decides nothing', () => {
    given(...stored, reserved())
      .when(reserve('s2'))
      .thenError('in-use-by-another-session', (e) => assert.deepEqual(reasons(e), ['in-use-by-another-session']));
    given(...stored, reserved())
      .when(reserve())
      .then();
  });

  it('a release gives the prior status back with no use counted; only the holder releases', () => {
    const released: DialyzerEvent = {
      type: 'DialyzerReservationReleased',
      data: { sessionId: 's1', reason: 'orphaned-claim', releasedAt: at, status: 'stored' },
    };
    given(...stored, reserved())
      .when(release())
      .then(released);
    const after = stateAfter(...stored, reserved(), released);
    assert.deepEqual([after.status, after.uses, after.reservation, after.checks?.residualTest], ['stored', 1, null, 'negative']);
    given(...stored, reserved())
      .when(release('s2'))
      .then();
    given(...stored, reserved(), released)
      .when(release())
      .then();
    given(...stored)
      .when(release())
      .then();
    given(...stored, reserved())
      .when(cmd('ReleaseDialyzerReservation', { sessionId: 's1', reason: ' ' }))
      .thenError('validation-failed');
    // Freed, it serves the next session.
    assert.equal(
      given(...stored, reserved(), released)
        .when(reserve('s2'))
        .events()[0]?.type,
      'DialyzerReservedForSession',
    );
  });

  it('the holder use counts the use and moves on to reprocessing, or discards a single-use one; counted once', () => {
    const counted = given(...stored, reserved())
      .when(use())
      .events();
    assert.deepEqual(
      counted.map((e) => [e.type, (e.data as { useNumber?: number }).useNumber]),
      [['DialyzerUsed', 2]],
    );
    assert.equal(stateAfter(...stored, reserved(), ...counted).status, 'used');
    const single = [received(false), assigned, reserved('assigned')];
    assert.deepEqual(
      given(...single)
        .when(use())
        .events()
        .map((e) => e.type),
      ['DialyzerUsed', 'DialyzerDiscarded'],
    );
    given(...stored, reserved(), ...counted)
      .when(use())
      .then();
    given(...stored, reserved())
      .when(use('s1', 'p2'))
      .thenError('patient-mismatch');
  });

  it('a use by another session while one holds it is refused; an unreserved dialyzer is used as before', () => {
    given(...stored, reserved())
      .when(use('s2'))
      .thenError('in-use-by-another-session');
    assert.equal(
      given(...stored)
        .when(use('s2'))
        .events()[0]?.type,
      'DialyzerUsed',
    );
  });
});
