// For the daily record: may this machine start a session for this patient now, and if not, every reason.
import type { TenantScope } from '../tenantScope.js';
import { companyPolicy, type PolicyFacts } from '../empresas/companyPolicy.js';
import { maintenancePolicyOf, startVerdict, type StartVerdict } from '../../commands/monitores/shared/startRules.js';
import { machineModel } from './machines.js';

/**
 * The machine's status (available, not awaiting disinfection), its preventive maintenance under the company policy
 * (overdue blocks or only warns, per policy) and isolation both ways. A machine of another company answers 404.
 */
export async function mayStartSession(
  scope: TenantScope,
  machineId: string,
  patient: { isolation: string[] },
  at: Date | string,
  given?: PolicyFacts,
): Promise<StartVerdict> {
  const doc = await machineModel.or404(scope, machineId);
  // A caller that already folded the policy (the session start's facts) hands it in.
  const policy = given ?? (await companyPolicy(scope.services, scope.auth.tenantId));
  const instant = typeof at === 'string' ? at : at.toISOString();
  return startVerdict(doc, patient, maintenancePolicyOf(policy, doc.model), instant);
}
