// The one way other groups read the company policy: pass it to a decider, and record `revision` in the event it
// decides (architecture.md, Company policy), so an auditor sees which rule applied.
import type { ReadServices } from '../../readServices.js';
import { foldPolicy, type PolicyDoc } from '../../projections/empresas/policyDoc.js';
import { DEFAULT_POLICY, withDefaultsForNewSettings, type CompanyPolicy } from '../../commands/empresas/shared/policySettings.js';
import { policies } from './readModel.js';
import { policyStream } from '../../commands/empresas/policyEvents.js';

export interface PolicyView {
  /** Revision of the policy stream; -1 while nothing is recorded and the defaults apply. */
  revision: number;
  settings: CompanyPolicy;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** The policy in force with who last changed it: the projected document, or the defaults at revision -1. */
export async function policyView(services: ReadServices, tenantId: string): Promise<PolicyView> {
  const doc = await policies(services).get(tenantId, tenantId);
  if (!doc) return { revision: -1, settings: DEFAULT_POLICY, updatedAt: null, updatedBy: null };
  // A document projected before a setting existed (retention, say) reads it at its default until the next rebuild.
  const settings = withDefaultsForNewSettings(doc.settings);
  return { revision: doc.revision, settings, updatedAt: doc.updatedAt, updatedBy: doc.updatedBy };
}

/** The policy as a decision takes it: its revision (recorded in the event) and its settings. */
export interface PolicyFacts {
  revision: number;
  settings: CompanyPolicy;
}

/**
 * The policy in force for a decision, folded from the company's policy stream itself (a few events): a read model
 * behind, rebuilding or stopped must never hand a decider the defaults instead of the company's stricter rules.
 */
export async function companyPolicy(services: ReadServices, tenantId: string): Promise<PolicyFacts> {
  const events = await services.events.readStream(policyStream(tenantId));
  const doc = events.reduce<PolicyDoc | null>((folded, event) => foldPolicy(folded, event), null);
  return doc ? { revision: doc.revision, settings: doc.settings } : { revision: -1, settings: DEFAULT_POLICY };
}
