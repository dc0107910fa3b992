// Retention periods per record type are company policy: defaults at the legal minimum, lengthened never shortened.
import assert from 'node:assert/strict';
import { LIMITS } from '../../limits.js';
import { failedFields, scenario } from '../givenWhenThen.js';
import { policyDecider } from './policyDecider.js';
import type { PolicyCommand, PolicyEvent } from './policyEvents.js';
import { mergePolicy } from './policyRules.js';
import { DEFAULT_POLICY, RETENTION_RECORD_TYPES, type CompanyPolicy, type PolicyPatch } from './shared/policySettings.js';

const given = scenario(policyDecider);
const NOW = '2025-03-10T14:00:00.000Z';
const change = (settings: PolicyPatch): PolicyCommand => ({
  type: 'ChangePolicy',
  data: { settings, reason: 'Asesoría legal, informe 7' },
  at: NOW,
  actor: 'admin-1',
  aggregateId: 'clinic1',
  tenantId: 'clinic1',
});
const adopted: PolicyEvent = { type: 'PolicyAdopted', data: { settings: DEFAULT_POLICY, policyRevision: -1 } };

describe('policy decider: retention of records', () => {
  it('keeps every record type for its legal minimum by default: clinical records and their audit 15 years', () => {
    assert.equal(DEFAULT_POLICY.retention.clinicalRecordsYears, 15);
    assert.equal(DEFAULT_POLICY.retention.auditEntriesYears, 15);
    assert.equal(LIMITS.audit.retentionYears, 15, 'the API description states the same floor');
    for (const type of RETENTION_RECORD_TYPES) {
      assert.equal(DEFAULT_POLICY.retention[type.setting], type.legalMinimumYears, type.setting);
      assert.ok(type.covers.length > 0 && type.countedFrom.length > 0, type.setting);
    }
  });

  it('lengthens a period, recording the change', () => {
    const settings: CompanyPolicy = mergePolicy(DEFAULT_POLICY, { retention: { clinicalRecordsYears: 20, auditEntriesYears: 25 } });
    given(adopted)
      .when(change({ retention: { clinicalRecordsYears: 20, auditEntriesYears: 25 } }))
      .then({
        type: 'PolicyChanged',
        data: {
          settings,
          changed: ['/retention/clinicalRecordsYears', '/retention/auditEntriesYears'],
          reason: 'Asesoría legal, informe 7',
          policyRevision: 0,
        },
      });
  });

  it('refuses a period below its legal minimum, naming the field', () => {
    given(adopted)
      .when(change({ retention: { clinicalRecordsYears: 14, inventoryRecordsYears: 1 } }))
      .thenError('validation-failed', (e) => {
        assert.equal(e.status, 422);
        assert.deepEqual(failedFields(e).sort(), ['settings/retention/clinicalRecordsYears', 'settings/retention/inventoryRecordsYears']);
        assert.match(JSON.stringify(e), /legal minimum of 15 years/);
      });
  });

  it('refuses an audit kept less long than the clinical records it is the audit of', () => {
    given(adopted)
      .when(change({ retention: { clinicalRecordsYears: 30 } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['settings/retention/auditEntriesYears']));
    given(adopted)
      .when(change({ retention: { clinicalRecordsYears: 30, auditEntriesYears: 30 } }))
      .events();
  });

  it('reads a policy recorded before retention existed with the legal defaults (upcast, never rewritten)', () => {
    const { retention: _absent, ...older } = DEFAULT_POLICY;
    const recordedBefore: PolicyEvent = {
      type: 'PolicyAdopted',
      data: { settings: older as CompanyPolicy, policyRevision: -1 },
    };
    const events = given(recordedBefore)
      .when(change({ adequacy: { ktvTarget: 1.5 } }))
      .events();
    assert.deepEqual(events[0]!.data.settings.retention, DEFAULT_POLICY.retention);
    assert.deepEqual((events[0]!.data as { changed: string[] }).changed, ['/adequacy/ktvTarget']);
  });
});
