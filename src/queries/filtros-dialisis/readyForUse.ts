// The floor's questions about dialyzers: may this one be used for this patient now (every reason if not), which of a
// patient's dialyzers are ready for the next session, and which are near their maximum or losing volume.
import { LIMITS } from '../../limits.js';
import type { TenantScope } from '../tenantScope.js';
import { companyPolicy, type PolicyFacts } from '../empresas/companyPolicy.js';
import { patients } from '../pacientes/readModel.js';
import { dialyzerView, type DialyzerDoc } from '../../projections/filtros-dialisis/dialyzerDoc.js';
import { maxUsesFor, type ReusePolicy } from '../../commands/filtros-dialisis/shared/reusePolicy.js';
import { readinessReasons, type ReadinessReason } from '../../commands/filtros-dialisis/shared/readiness.js';
import { dialyzerModel, dialyzersInService } from './dialyzers.js';

export interface Readiness {
  ready: boolean;
  reasons: ReadinessReason[];
}

async function reusePolicy(scope: TenantScope, given?: PolicyFacts): Promise<ReusePolicy> {
  const { revision, settings } = given ?? (await companyPolicy(scope.services, scope.auth.tenantId));
  return { ...settings.dialyzerReuse, revision };
}

/** HBsAg positive = the patient's isolation includes HBV (a patient of another company is simply absent). */
async function hbsagPositive(scope: TenantScope, patientId: string): Promise<boolean> {
  const patient = await patients(scope).get(scope.auth.tenantId, patientId);
  return patient?.isolation.includes('HBV') ?? false;
}

/** May the dialyzer be used for this patient at `at`? Every failed rule is a reason (404 for another company's dialyzer). */
export async function readyForUse(
  scope: TenantScope,
  dialyzerId: string,
  patientId: string,
  at: string,
  policyFacts?: PolicyFacts,
): Promise<Readiness> {
  const [doc, policy, hbsag] = await Promise.all([
    dialyzerModel.or404(scope, dialyzerId),
    reusePolicy(scope, policyFacts),
    hbsagPositive(scope, patientId),
  ]);
  const reasons = readinessReasons(doc, patientId, at, policy, hbsag);
  return { ready: reasons.length === 0, reasons };
}

/** The patient's dialyzers in service, each with whether it is ready for the next session and why not. */
export async function readyForPatient(
  scope: TenantScope,
  patientId: string,
  at: string,
): Promise<{ items: (Readiness & { dialyzer: Record<string, unknown> })[] }> {
  const [docs, policy, hbsag] = await Promise.all([
    dialyzersInService(scope, patientId),
    reusePolicy(scope),
    hbsagPositive(scope, patientId),
  ]);
  const items = docs.map((doc) => {
    const reasons = readinessReasons(doc, patientId, at, policy, hbsag);
    return { dialyzer: dialyzerView(doc), ready: reasons.length === 0, reasons };
  });
  // Ready ones first: the floor takes the first.
  return { items: [...items.filter((i) => i.ready), ...items.filter((i) => !i.ready)] };
}

export type DialyzerAlert = 'near-max-uses' | 'falling-tcv';

function alertsOf(doc: DialyzerDoc, policy: ReusePolicy): { alerts: DialyzerAlert[]; maxUses: number } {
  const maxUses = maxUsesFor(doc.model, doc.reusable, policy);
  const alerts: DialyzerAlert[] = [];
  if (doc.reusable && doc.uses >= maxUses - LIMITS.filtrosDialisis.nearMaxUsesMargin) alerts.push('near-max-uses');
  const falling = policy.tcvThresholdPercent + LIMITS.filtrosDialisis.fallingTcvMarginPercent;
  if (doc.lastTcvPercent !== null && doc.lastTcvPercent < falling) alerts.push('falling-tcv');
  return { alerts, maxUses };
}

/** Reusable dialyzers in service near their maximum uses (uses >= max - 2) or whose last TCV is below threshold + 5. */
export async function dialyzerAlerts(
  scope: TenantScope,
): Promise<{ items: { dialyzer: Record<string, unknown>; alerts: DialyzerAlert[]; maxUses: number }[] }> {
  const [docs, policy] = await Promise.all([dialyzersInService(scope), reusePolicy(scope)]);
  const items = docs
    .filter((doc) => doc.patientId !== null)
    .map((doc) => ({ dialyzer: dialyzerView(doc), ...alertsOf(doc, policy) }))
    .filter((item) => item.alerts.length > 0);
  return { items };
}
