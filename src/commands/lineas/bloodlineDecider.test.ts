// Given bloodline events / when a command / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { bloodlineDecider } from './bloodlineDecider.js';
import type { BloodlineCommand, BloodlineEvent, LineFields, LinePolicyFacts } from './bloodlineEvents.js';

const given = scenario(bloodlineDecider('arterial'));
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends BloodlineCommand['type']>(type: T, data: Extract<BloodlineCommand, { type: T }>['data']): BloodlineCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 'l1', tenantId: 't1' }) as BloodlineCommand;

const fields: LineFields = { model: 'AV-Set', lot: 'L1', serial: 'S-1', primingVolumeMl: 120, reusable: true, receivedOn: '2025-02-28' };
const disabled: LinePolicyFacts = { revision: -1, enabled: false, maxUses: 12 };
const enabled: LinePolicyFacts = { revision: 3, enabled: true, maxUses: 3 };
const received = (f: Partial<LineFields> = {}): BloodlineEvent => ({
  type: 'BloodlineReceived',
  data: { lineId: 'l1', lineType: 'arterial', ...fields, ...f },
});
const assigned = (maxUses: number, patientId = 'pA'): BloodlineEvent => ({
  type: 'BloodlineAssignedToPatient',
  data: { patientId, maxUses, policyRevision: maxUses === 1 ? -1 : 3 },
});
const used = (useNumber: number, maxUses = 3, sessionId = `s${useNumber}`): BloodlineEvent => ({
  type: 'BloodlineUsed',
  data: { sessionId, patientId: 'pA', useNumber, maxUses, policyRevision: maxUses === 1 ? -1 : 3 },
});
const reprocessed = (afterUse: number): BloodlineEvent => ({
  type: 'BloodlineReprocessed',
  data: { disinfectant: 'peracetic acid', integrity: 'passed', afterUse, policyRevision: 3, fillTime: at },
});
/** A negative residual germicide test after rinsing: a reprocessed line may be reused (issue 21 item 14). */
const rinsed: BloodlineEvent = { type: 'BloodlineResidualTested', data: { result: 'negative', testedAt: at } };
const use = (sessionId: string, policy = enabled, patientId = 'pA') => cmd('RecordBloodlineUse', { sessionId, patientId, policy });
const reprocess = (policy = enabled, integrity: 'passed' | 'leak' = 'passed') =>
  cmd('ReprocessBloodline', { disinfectant: ' peracetic acid ', integrity, policy });
const patient = { exists: true, active: true };

describe('bloodline decider', () => {
  it('receives a line, trimming its texts, and refuses blank fields and a future date', () => {
    given()
      .when(cmd('ReceiveBloodline', { ...fields, serial: ' S-1 ', lineType: 'arterial' }))
      .then(received());
    given()
      .when(cmd('ReceiveBloodline', { ...fields, model: ' ', receivedOn: '2030-01-01', lineType: 'arterial' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['model', 'receivedOn']));
  });

  it('assigns to a patient for life, with the maximum from the policy (single use when reuse is disabled)', () => {
    given(received())
      .when(cmd('AssignBloodline', { patientId: 'pA', patient, policy: disabled }))
      .then({ type: 'BloodlineAssignedToPatient', data: { patientId: 'pA', maxUses: 1, policyRevision: -1 } });
    given(received())
      .when(cmd('AssignBloodline', { patientId: 'pA', patient, policy: enabled }))
      .then(assigned(3));
    given(received({ reusable: false }))
      .when(cmd('AssignBloodline', { patientId: 'pA', patient, policy: enabled }))
      .then({ type: 'BloodlineAssignedToPatient', data: { patientId: 'pA', maxUses: 1, policyRevision: 3 } });
    given(received(), assigned(3))
      .when(cmd('AssignBloodline', { patientId: 'pB', patient, policy: enabled }))
      .thenError('bloodline-already-assigned');
    given(received(), assigned(3))
      .when(cmd('AssignBloodline', { patientId: 'pA', patient, policy: enabled }))
      .then();
    given(received())
      .when(cmd('AssignBloodline', { patientId: 'pX', patient: { exists: false, active: false }, policy: enabled }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['patientId']));
    given(received())
      .when(cmd('AssignBloodline', { patientId: 'pA', patient: { exists: true, active: false }, policy: enabled }))
      .thenError('patient-not-active');
  });

  it('discards a single-use line after its use', () => {
    given(received(), assigned(1))
      .when(use('s1', disabled))
      .then(used(1, 1), { type: 'BloodlineDiscarded', data: { reason: 'single-use', policyRevision: -1 } });
  });

  it('refuses reprocessing when the policy does not enable reuse, naming the policy', () => {
    given(received(), assigned(3), used(1))
      .when(reprocess(disabled))
      .thenError('bloodline-reuse-disabled', (e) => assert.equal(e.details?.policy, 'bloodlineReuse.enabled'));
    given(received({ reusable: false }), assigned(1), used(1, 1))
      .when(reprocess())
      .thenError('bloodline-not-reusable');
  });

  it('reprocesses a used reusable line, and a failed integrity check discards it', () => {
    given(received(), assigned(3), used(1)).when(reprocess()).then(reprocessed(1));
    given(received(), assigned(3), used(1))
      .when(reprocess(enabled, 'leak'))
      .then(
        {
          type: 'BloodlineReprocessed',
          data: { disinfectant: 'peracetic acid', integrity: 'leak', afterUse: 1, policyRevision: 3, fillTime: at },
        },
        { type: 'BloodlineDiscarded', data: { reason: 'leak', policyRevision: 3 } },
      );
    given(received(), assigned(3)).when(reprocess()).thenError('bloodline-not-used');
  });

  it('refuses a use for another patient, before reprocessing, and a replayed session changes nothing', () => {
    given(received(), assigned(3))
      .when(use('s1', enabled, 'pB'))
      .thenError('bloodline-of-another-patient');
    given(received(), assigned(3), used(1)).when(use('s2')).thenError('bloodline-awaiting-reprocessing');
    given(received(), assigned(3), used(1)).when(use('s1')).then();
    given(received()).when(use('s1')).thenError('bloodline-not-assigned');
  });

  it('never exceeds the maximum: the last use discards, and a lowered maximum refuses the next use', () => {
    given(received(), assigned(3), used(1), reprocessed(1), rinsed, used(2), reprocessed(2), rinsed)
      .when(use('s3'))
      .then(used(3), { type: 'BloodlineDiscarded', data: { reason: 'max-uses-reached', policyRevision: 3 } });
    given(received(), assigned(3), used(1), reprocessed(1), rinsed, used(2), reprocessed(2), rinsed)
      .when(use('s3', { revision: 4, enabled: true, maxUses: 2 }))
      .thenError('max-uses-reached');
    // Reuse disabled after a reprocessing: the stored line is spent.
    given(received(), assigned(3), used(1), reprocessed(1)).when(use('s2', disabled)).thenError('max-uses-reached');
  });

  it('keeps discarded terminal', () => {
    const discarded: BloodlineEvent = { type: 'BloodlineDiscarded', data: { reason: 'clotted' } };
    given(received(), assigned(3))
      .when(cmd('DiscardBloodline', { reason: 'clotted', note: '  ' }))
      .then(discarded);
    given(received(), assigned(3), discarded)
      .when(cmd('DiscardBloodline', { reason: 'other' }))
      .thenError('bloodline-discarded');
    given(received(), assigned(3), discarded).when(use('s1')).thenError('bloodline-discarded');
    given(received(), discarded)
      .when(cmd('AssignBloodline', { patientId: 'pA', patient, policy: enabled }))
      .thenError('bloodline-discarded');
    given(received(), assigned(3), discarded)
      .when(cmd('PairBloodline', { partnerId: 'v1', partner: { patientId: 'pA', usable: true } }))
      .thenError('bloodline-discarded');
  });

  it('pairs with a usable line of the same patient, once, and undoes a pairing on compensation', () => {
    const paired: BloodlineEvent = { type: 'BloodlinesPaired', data: { partnerId: 'v1' } };
    const pair = (partnerId: string, patientId: string | null, usable = true) =>
      cmd('PairBloodline', { partnerId, partner: { patientId, usable } });
    given(received(), assigned(3)).when(pair('v1', 'pA')).then(paired);
    given(received(), assigned(3)).when(pair('v1', 'pB')).thenError('bloodlines-of-different-patients');
    given(received(), assigned(3)).when(pair('v1', null)).thenError('bloodlines-of-different-patients');
    given(received(), assigned(3))
      .when(pair('v1', 'pA', false))
      .thenError('partner-not-usable');
    given(received()).when(pair('v1', 'pA')).thenError('bloodline-not-assigned');
    given(received(), assigned(3), paired).when(pair('v1', 'pA')).then();
    given(received(), assigned(3), paired).when(pair('v2', 'pA')).thenError('bloodline-already-paired');
    given(received(), assigned(3), paired)
      .when(cmd('UndoBloodlinePairing', { partnerId: 'v1' }))
      .then({ type: 'BloodlinePairingUndone', data: { partnerId: 'v1' } });
    given(received(), assigned(3))
      .when(cmd('UndoBloodlinePairing', { partnerId: 'v1' }))
      .then();
  });

  it('answers not-found for a line that does not exist', () => {
    given().when(use('s1')).thenError('not-found');
    given()
      .when(cmd('DiscardBloodline', { reason: 'other' }))
      .thenError('not-found');
  });
});
