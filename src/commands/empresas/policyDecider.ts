// The company policy aggregate (stream `<tenant>.policy-<tenantId>`): one per company, versioned by its events.
import type { Decider } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import { POLICY_CATEGORY, type PolicyCommand, type PolicyEvent } from './policyEvents.js';
import { changedPaths, checkPolicy, mergePolicy } from './policyRules.js';
import { DEFAULT_POLICY, withDefaultsForNewSettings, type CompanyPolicy, type PolicyPatch } from './shared/policySettings.js';

export interface PolicyState {
  /** Revision of the policy stream (-1: nothing recorded, the defaults apply). */
  revision: number;
  settings: CompanyPolicy;
}

export const initialPolicyState: PolicyState = { revision: -1, settings: DEFAULT_POLICY };

export function evolvePolicy(state: PolicyState, event: PolicyEvent): PolicyState {
  return { revision: state.revision + 1, settings: withDefaultsForNewSettings(event.data.settings) };
}

/** Model and germicide names are kept trimmed: ' FX80 ' and 'FX80' are one model. */
function trimmedModels(patch: PolicyPatch): PolicyPatch {
  const trim = <T extends { model: string }>(list: T[] | undefined) => list?.map((e) => ({ ...e, model: e.model.trim() }));
  const out: PolicyPatch = { ...patch };
  if (patch.dialyzerReuse?.modelOverrides)
    out.dialyzerReuse = { ...patch.dialyzerReuse, modelOverrides: trim(patch.dialyzerReuse.modelOverrides) };
  const germicides = out.dialyzerReuse?.germicideOverrides;
  if (germicides)
    out.dialyzerReuse = { ...out.dialyzerReuse, germicideOverrides: germicides.map((g) => ({ ...g, germicide: g.germicide.trim() })) };
  if (patch.maintenance?.modelOverrides) out.maintenance = { ...patch.maintenance, modelOverrides: trim(patch.maintenance.modelOverrides) };
  return out;
}

export function decidePolicy(command: PolicyCommand, state: PolicyState): PolicyEvent[] {
  switch (command.type) {
    case 'AdoptDefaultPolicy':
      // Idempotent: a company whose policy has any event already has one.
      if (state.revision >= 0) return [];
      return [{ type: 'PolicyAdopted', data: { settings: DEFAULT_POLICY, policyRevision: -1 } }];
    case 'ChangePolicy': {
      const reason = command.data.reason.trim();
      new FieldChecks().check(reason.length > 0, 'reason', 'must not be blank').throwIfAny();
      const settings = mergePolicy(state.settings, trimmedModels(command.data.settings));
      checkPolicy(settings);
      const changed = changedPaths(state.settings, settings);
      if (changed.length === 0) return [];
      return [{ type: 'PolicyChanged', data: { settings, changed, reason, policyRevision: state.revision } }];
    }
  }
}

export const policyDecider: Decider<PolicyCommand, PolicyEvent, PolicyState> = {
  category: POLICY_CATEGORY,
  initialState: initialPolicyState,
  evolve: evolvePolicy,
  decide: decidePolicy,
};
