// How other groups read the company policy. A decision folds it from the stream (companyPolicy), passes it to the decider
// and records `revision` in the event it decides (architecture.md, Company policy), so an auditor sees which rule
// applied. A view that only shows what the policy implies (a machine's next maintenance) reads the projected document
// (policyShown), kept per company while the document is unchanged, under the read-your-writes contract.
import type { ReadServices } from '../../readServices.js';
import type { ProjectionRunner } from '../../projections/runner/runnerTypes.js';
import { COMPANY_POLICIES, EMPRESAS_PROJECTION } from '../../projections/empresas/empresasProjection.js';
import { LIMITS } from '../../limits.js';
import { PreparedCache } from '../preparedPages.js';
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

// One per service instance (its runner), like the prepared pages: two services in one process never share a policy.
const shown = new WeakMap<ProjectionRunner, PreparedCache<PolicyFacts>>();

/**
 * The policy in force as a view shows it: the projected document (the defaults at revision -1), read once per change of
 * the company's document (its change stamp, read before the document, so a write during the read is read again) and
 * kept while it is unchanged: a list or a record answered with it reads no store at all. A read after a policy change
 * must wait for EMPRESAS_PROJECTION too (minPosition); a runner that cannot stamp (standby, stopping) reads every time.
 * Never for a decision: companyPolicy.
 */
export function policyShown(services: ReadServices, tenantId: string): Promise<PolicyFacts> {
  const read = async (): Promise<PolicyFacts> => {
    const { revision, settings } = await policyView(services, tenantId);
    return { revision, settings };
  };
  const runner = services.projections;
  const stamp = runner.changeStamp(EMPRESAS_PROJECTION, COMPANY_POLICIES, tenantId);
  if (stamp === null) return read();
  let cache = shown.get(runner);
  if (!cache) shown.set(runner, (cache = new PreparedCache<PolicyFacts>(LIMITS.keptPolicies.maxCompanies)));
  return cache.answer(tenantId, stamp, read);
}
