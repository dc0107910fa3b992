// The company policy's event contract: its events, its stream (one per company, `<tenant>.policy-<tenantId>`) and its
// commands; the decider and the read side both take them from here.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import { streamName } from '../../stores/streamNames.js';
import type { CompanyPolicy, PolicyPatch } from './shared/policySettings.js';

/** The category of the policy streams: written once, here. */
export const POLICY_CATEGORY = 'policy';
/** A company's policy stream: one per company, named by its tenant id. */
export const policyStream = (tenantId: string): string => streamName(tenantId, POLICY_CATEGORY, tenantId);

export type PolicyEvent =
  // Defaults recorded explicitly when the company is registered.
  | DecidedEvent<'PolicyAdopted', { settings: CompanyPolicy; policyRevision: number }>
  // settings: the whole new policy; changed: JSON pointers of what differs; policyRevision: the revision it replaced
  // (-1 = the defaults, never recorded), so an auditor sees which rules were in force before.
  | DecidedEvent<'PolicyChanged', { settings: CompanyPolicy; changed: string[]; reason: string; policyRevision: number }>;

export const POLICY_EVENT_TYPES: readonly PolicyEvent['type'][] = ['PolicyAdopted', 'PolicyChanged'];

export type PolicyCommand =
  CommandEnvelope<'AdoptDefaultPolicy', Record<string, never>> | CommandEnvelope<'ChangePolicy', ChangePolicyData>;

export interface ChangePolicyData {
  settings: PolicyPatch;
  reason: string;
}
