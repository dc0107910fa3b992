import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import type { CommandEnvelope } from '../decider.js';
import { policyDecider } from './policyDecider.js';
import type { ChangePolicyData, PolicyCommand, PolicyEvent } from './policyEvents.js';
import { mergePolicy } from './policyRules.js';
import { DEFAULT_POLICY, type CompanyPolicy, type PolicyPatch } from './shared/policySettings.js';

const given = scenario(policyDecider);
const withDefaults = (patch: PolicyPatch): CompanyPolicy => mergePolicy(DEFAULT_POLICY, patch);
const NOW = '2025-03-10T14:00:00.000Z';

function command<T extends PolicyCommand['type']>(type: T, data: Extract<PolicyCommand, CommandEnvelope<T>>['data']): PolicyCommand {
  return { type, data, at: NOW, actor: 'admin-1', aggregateId: 'clinic1', tenantId: 'clinic1' } as PolicyCommand;
}
const change = (settings: ChangePolicyData['settings'], reason = 'Comité de calidad, acta 12') =>
  command('ChangePolicy', { settings, reason });
const adopted: PolicyEvent = { type: 'PolicyAdopted', data: { settings: DEFAULT_POLICY, policyRevision: -1 } };
const changed = (settings: CompanyPolicy, paths: string[], policyRevision: number, reason = 'Comité de calidad, acta 12'): PolicyEvent => ({
  type: 'PolicyChanged',
  data: { settings, changed: paths, reason, policyRevision },
});

describe('policy decider', () => {
  it('adopts the defaults once, and never over an existing policy', () => {
    given().when(command('AdoptDefaultPolicy', {})).then(adopted);
    given(adopted).when(command('AdoptDefaultPolicy', {})).then();
    given(changed(DEFAULT_POLICY, [], -1))
      .when(command('AdoptDefaultPolicy', {}))
      .then();
  });

  it('starts the first change from the defaults and records that they applied (policyRevision -1)', () => {
    const settings = withDefaults({ adequacy: { ktvTarget: 1.5 } });
    given()
      .when(change({ adequacy: { ktvTarget: 1.5 } }))
      .then(changed(settings, ['/adequacy/ktvTarget'], -1));
  });

  it('merges a partial change into the current policy and lists every changed field', () => {
    const first = withDefaults({ bloodlineReuse: { enabled: true } });
    const second = {
      ...first,
      bloodlineReuse: { enabled: true, maxUses: 8 },
      maintenance: { ...first.maintenance, overdueMode: 'warn' as const },
    };
    given(adopted, changed(first, ['/bloodlineReuse/enabled'], 0))
      .when(change({ bloodlineReuse: { maxUses: 8 }, maintenance: { overdueMode: 'warn' } }))
      .then(changed(second, ['/bloodlineReuse/maxUses', '/maintenance/overdueMode'], 1));
  });

  it('replaces a list of per-model overrides as a whole, with model names trimmed', () => {
    const events = given(adopted)
      .when(change({ dialyzerReuse: { modelOverrides: [{ model: ' FX80 ', maxUses: 20 }] } }))
      .events();
    assert.deepEqual(events[0]!.data.settings.dialyzerReuse.modelOverrides, [{ model: 'FX80', maxUses: 20 }]);
    assert.deepEqual((events[0]!.data as { changed: string[] }).changed, ['/dialyzerReuse/modelOverrides']);
  });

  it('reads a policy recorded before a setting existed with that setting at its default (upcast, never rewritten)', () => {
    const { germicideOverrides: _absent, ...oldReuse } = DEFAULT_POLICY.dialyzerReuse;
    const recordedBefore: PolicyEvent = {
      type: 'PolicyAdopted',
      data: { settings: { ...DEFAULT_POLICY, dialyzerReuse: oldReuse } as CompanyPolicy, policyRevision: -1 },
    };
    const events = given(recordedBefore)
      .when(change({ adequacy: { ktvTarget: 1.5 } }))
      .events();
    assert.deepEqual(events[0]!.data.settings.dialyzerReuse.germicideOverrides, [{ germicide: 'formaldehyde', minDwellHours: 24 }]);
    assert.deepEqual((events[0]!.data as { changed: string[] }).changed, ['/adequacy/ktvTarget']);
  });

  it('keeps each germicide once in its dwell list, names trimmed', () => {
    const events = given(adopted)
      .when(change({ dialyzerReuse: { germicideOverrides: [{ germicide: ' Glutaraldehyde ', minDwellHours: 12 }] } }))
      .events();
    assert.deepEqual(events[0]!.data.settings.dialyzerReuse.germicideOverrides, [{ germicide: 'Glutaraldehyde', minDwellHours: 12 }]);
    const twice = [
      { germicide: 'formaldehyde', minDwellHours: 24 },
      { germicide: 'Formaldehyde', minDwellHours: 20 },
    ];
    given(adopted)
      .when(change({ dialyzerReuse: { germicideOverrides: twice } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['settings/dialyzerReuse/germicideOverrides/1/germicide']));
  });

  it('decides nothing for a change that changes nothing', () => {
    given(adopted)
      .when(change({ adequacy: { ktvMinimum: 1.2 }, disinfection: { requiredBetweenPatients: true } }))
      .then();
    given().when(change({})).then();
  });

  it('requires a reason that is not blank', () => {
    given(adopted)
      .when(change({ adequacy: { ktvTarget: 1.5 } }, '   '))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason']));
  });

  it('refuses values out of range, naming each field', () => {
    given(adopted)
      .when(
        change({
          dialyzerReuse: { tcvThresholdPercent: 40, defaultMaxUses: 2.5 },
          adequacy: { ufRateThresholdMlKgH: 25 },
          maintenance: { preventiveEveryDays: 1 },
        }),
      )
      .thenError('validation-failed', (e) => {
        assert.equal(e.status, 422);
        assert.deepEqual(failedFields(e).sort(), [
          'settings/adequacy/ufRateThresholdMlKgH',
          'settings/dialyzerReuse/defaultMaxUses',
          'settings/dialyzerReuse/tcvThresholdPercent',
          'settings/maintenance/preventiveEveryDays',
        ]);
      });
  });

  it('refuses a Kt/V target below the minimum, whichever of the two moved', () => {
    given(adopted)
      .when(change({ adequacy: { ktvTarget: 1.1 } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['settings/adequacy/ktvTarget']));
    given(adopted)
      .when(change({ adequacy: { ktvMinimum: 1.6 } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['settings/adequacy/ktvTarget']));
  });

  it('refuses a maintenance plan with no interval, and a model listed twice', () => {
    given(adopted)
      .when(
        change({
          maintenance: {
            preventiveEveryHours: null,
            preventiveEveryDays: null,
            modelOverrides: [
              { model: '4008S', preventiveEveryHours: 2000, preventiveEveryDays: null },
              { model: '4008s', preventiveEveryHours: null, preventiveEveryDays: null },
            ],
          },
        }),
      )
      .thenError('validation-failed', (e) =>
        assert.deepEqual(failedFields(e).sort(), [
          'settings/maintenance/modelOverrides/1/model',
          'settings/maintenance/modelOverrides/1/preventiveEveryHours',
          'settings/maintenance/preventiveEveryHours',
        ]),
      );
  });

  it('accepts maintenance by hours only', () => {
    const events = given(adopted)
      .when(change({ maintenance: { preventiveEveryDays: null } }))
      .events();
    assert.equal(events[0]!.data.settings.maintenance.preventiveEveryDays, null);
    assert.equal(events[0]!.data.settings.maintenance.preventiveEveryHours, 1500);
  });

  it('never changes the defaults themselves', () => {
    given(adopted)
      .when(change({ adequacy: { ktvTarget: 1.6 } }))
      .events();
    assert.equal(DEFAULT_POLICY.adequacy.ktvTarget, 1.4);
    assert.ok(Object.isFrozen(DEFAULT_POLICY.adequacy));
  });
});
