// Given bloodline events / when a session claims, releases or uses the line / then: the claim at session start judges
// every rule of a use, holds the line for one running session, and gives it back untouched when the session never started.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { bloodlineDecider } from './bloodlineDecider.js';
import type { BloodlineCommand, BloodlineEvent, LinePolicyFacts } from './bloodlineEvents.js';

const decider = bloodlineDecider('venous');
const given = scenario(decider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends BloodlineCommand['type']>(type: T, data: Extract<BloodlineCommand, { type: T }>['data']): BloodlineCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 'l1', tenantId: 't1' }) as BloodlineCommand;

const enabled: LinePolicyFacts = { revision: 3, enabled: true, maxUses: 3 };
const received = (reusable = true): BloodlineEvent => ({
  type: 'BloodlineReceived',
  data: {
    lineId: 'l1',
    lineType: 'venous',
    model: 'AV-Set',
    lot: 'L1',
    serial: 'S-1',
    primingVolumeMl: 120,
    reusable,
    receivedOn: '2025-02-28',
  },
});
const assigned = (maxUses = 3): BloodlineEvent => ({
  type: 'BloodlineAssignedToPatient',
  data: { patientId: 'pA', maxUses, policyRevision: 3 },
});
const used = (useNumber: number, sessionId = `s${useNumber}`): BloodlineEvent => ({
  type: 'BloodlineUsed',
  data: { sessionId, patientId: 'pA', useNumber, maxUses: 3, policyRevision: 3 },
});
const reprocessed: BloodlineEvent = {
  type: 'BloodlineReprocessed',
  data: { disinfectant: 'peracetic acid', integrity: 'passed', afterUse: 1, policyRevision: 3 },
};
const reserve = (sessionId = 's9', patientId = 'pA', policy = enabled) =>
  cmd('ReserveBloodlineForSession', { sessionId, patientId, policy });
const reserved = (statusBefore: 'assigned' | 'stored' = 'stored', sessionId = 's9'): BloodlineEvent => ({
  type: 'BloodlineReservedForSession',
  data: { sessionId, patientId: 'pA', reservedAt: at, statusBefore, policyRevision: 3 },
});
const release = (sessionId = 's9', reason = 'dialyzer claim refused') => cmd('ReleaseBloodlineReservation', { sessionId, reason });
const use = (sessionId = 's9', policy = enabled) => cmd('RecordBloodlineUse', { sessionId, patientId: 'pA', policy });
// Reprocessed, rinsed and its residual test negative (issue 21 item 14).
const stored = [
  received(),
  assigned(),
  used(1),
  reprocessed,
  { type: 'BloodlineResidualTested', data: { result: 'negative', testedAt: at } } as BloodlineEvent,
];
const stateAfter = (...events: BloodlineEvent[]) => events.reduce((s, e) => decider.evolve(s, e), decider.initialState);

describe('bloodline reservation at session start', () => {
  it('reserves a line ready for a use: in-use, held by that session', () => {
    given(...stored)
      .when(reserve())
      .then(reserved());
    given(received(), assigned()).when(reserve()).then(reserved('assigned'));
    const after = stateAfter(...stored, reserved());
    assert.deepEqual([after.status, after.reservation?.sessionId, after.uses], ['in-use', 's9', 1]);
  });

  it('judges every rule of a use at that moment', () => {
    given(received(), assigned(), used(1)).when(reserve()).thenError('bloodline-awaiting-reprocessing');
    given(...stored)
      .when(reserve('s9', 'pB'))
      .thenError('bloodline-of-another-patient');
    given(...stored)
      .when(reserve('s9', 'pA', { ...enabled, maxUses: 1 }))
      .thenError('max-uses-reached');
    given(received()).when(reserve()).thenError('bloodline-not-assigned');
    given(...stored, { type: 'BloodlineDiscarded', data: { reason: 'leak' } })
      .when(reserve())
      .thenError('bloodline-discarded');
    given().when(reserve()).thenError('not-found');
  });

  it('is in at most one running session: another session is refused, the same one again decides nothing', () => {
    given(...stored, reserved())
      .when(reserve('s10'))
      .thenError('bloodline-in-use-by-another-session');
    given(...stored, reserved())
      .when(reserve())
      .then();
    given(...stored, reserved())
      .when(use('s10'))
      .thenError('bloodline-in-use-by-another-session');
  });

  it('a release gives the prior status back with no use counted; only the holder releases', () => {
    const released: BloodlineEvent = {
      type: 'BloodlineReservationReleased',
      data: { sessionId: 's9', reason: 'dialyzer claim refused', releasedAt: at, status: 'stored' },
    };
    given(...stored, reserved())
      .when(release())
      .then(released);
    const after = stateAfter(...stored, reserved(), released);
    assert.deepEqual([after.status, after.uses, after.reservation], ['stored', 1, null]);
    given(...stored, reserved())
      .when(release('s10'))
      .then();
    given(...stored, reserved(), released)
      .when(release())
      .then();
    given(...stored, reserved())
      .when(release('s9', ''))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason']));
  });

  it('the holder use counts once and moves on to reprocessing, or discards a single-use line', () => {
    given(...stored, reserved())
      .when(use())
      .then(used(2, 's9'));
    assert.equal(stateAfter(...stored, reserved(), used(2, 's9')).reservation, null);
    given(...stored, reserved(), used(2, 's9'))
      .when(use())
      .then();
    const single = { revision: -1, enabled: false, maxUses: 12 };
    const singleUse = [received(false), assigned(1), reserved('assigned')];
    const events = given(...singleUse)
      .when(use('s9', single))
      .events();
    assert.deepEqual(
      events.map((e) => e.type),
      ['BloodlineUsed', 'BloodlineDiscarded'],
    );
    // Recorded again after the discard: still nothing.
    given(...singleUse, ...events)
      .when(use('s9', single))
      .then();
  });

  it('a line held by a running session is not reprocessed', () => {
    given(...stored, reserved())
      .when(cmd('ReprocessBloodline', { disinfectant: 'peracetic acid', integrity: 'passed', policy: enabled }))
      .thenError('bloodline-in-use-by-session');
  });
});
