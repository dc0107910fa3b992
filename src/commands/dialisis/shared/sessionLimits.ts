// The company's clinical maximums of one session and the rule that keeps each list within its own. Pure.
import { rule } from '../../decider.js';
import type { CompanyPolicy } from '../../empresas/shared/policySettings.js';

/**
 * The company's clinical maximums of one session (Empresas policy, sessionLimits), with the policy revision that set
 * them: the writes hand them in, the decider refuses the entry beyond one (the read model stays bounded).
 */
export type SessionLimits = CompanyPolicy['sessionLimits'] & { revision: number };
export type SessionLimit = Exclude<keyof SessionLimits, 'revision'>;

/** One more entry must stay within the company's clinical maximum of a session (a 409 naming the limit). */
export function withinLimit(count: number, limits: SessionLimits, limit: SessionLimit): void {
  const max = limits[limit];
  if (count >= max) {
    throw rule('session-limit-reached', `a session holds at most ${max} ${limit} (company policy)`, {
      limit,
      max,
      policyRevision: limits.revision,
    });
  }
}
