// The company settings the derived clinical values are judged against (domain.md 2.10 and 2.12): data in, never read here.
import { DEFAULT_POLICY, type CompanyPolicy } from '../../empresas/policySettings.js';

export interface ClinicalPolicy {
  /** UF rate above this (mL/kg/h) is flagged; KDOQI 2015 / NQF 2701 use 13. */
  ufRateMaxMlKgH: number;
  /** spKt/V below this is flagged (KDOQI 2006 minimum 1.2). */
  ktvMinimum: number;
  /** spKt/V the unit aims for (KDOQI 2006 target 1.4). */
  ktvTarget: number;
  /** URR (%) below this is flagged (KDOQI 2006 minimum 65 %). */
  urrMinimumPercent: number;
}

/** The clinical thresholds of a company's policy (its `adequacy` settings). */
export function clinicalPolicyOf(settings: CompanyPolicy): ClinicalPolicy {
  const { ufRateThresholdMlKgH, ktvMinimum, ktvTarget, urrMinimumPercent } = settings.adequacy;
  return { ufRateMaxMlKgH: ufRateThresholdMlKgH, ktvMinimum, ktvTarget, urrMinimumPercent };
}

export const DEFAULT_CLINICAL_POLICY: ClinicalPolicy = Object.freeze(clinicalPolicyOf(DEFAULT_POLICY));
