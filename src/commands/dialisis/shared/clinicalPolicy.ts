// The company settings the derived clinical values are judged against (domain.md 2.10 and 2.12): data in, never read here.
import { DEFAULT_POLICY, type CompanyPolicy } from '../../empresas/shared/policySettings.js';
import { STD_KTV_TARGETS } from './weeklyAdequacy.js';

export interface ClinicalPolicy {
  /** UF rate above this (mL/kg/h) is flagged; KDOQI 2015 / NQF 2701 use 13. */
  ufRateMaxMlKgH: number;
  /** spKt/V below this is flagged (KDOQI 2006 minimum 1.2). */
  ktvMinimum: number;
  /** spKt/V the unit aims for (KDOQI 2006 target 1.4). */
  ktvTarget: number;
  /** URR (%) below this is flagged (KDOQI 2006 minimum 65 %). */
  urrMinimumPercent: number;
  /** Below this effective treatment time (min) the kinetics are withheld (issue 21 item 2; default 120). */
  kineticsMinimumMinutes: number;
  /** IDWG only when the previous session ended at most this many days before (issue 21 item 6; default 4). */
  idwgWindowDays: number;
  /** stdKt/V below this is flagged when the schedule is not thrice weekly (KDOQI 2015 minimum 2.1). */
  stdKtVMinimum: number;
  /** stdKt/V the unit aims for off a thrice-weekly schedule (KDOQI 2015 target 2.3). */
  stdKtVTarget: number;
}

/** The clinical thresholds of a company's policy (its `adequacy` settings). */
export function clinicalPolicyOf(settings: CompanyPolicy): ClinicalPolicy {
  const { ufRateThresholdMlKgH, ktvMinimum, ktvTarget, urrMinimumPercent, kineticsMinimumMinutes, idwgWindowDays } = settings.adequacy;
  // A policy stored before these settings existed reads them at their defaults.
  const plausibility = {
    kineticsMinimumMinutes: kineticsMinimumMinutes ?? DEFAULT_POLICY.adequacy.kineticsMinimumMinutes,
    idwgWindowDays: idwgWindowDays ?? DEFAULT_POLICY.adequacy.idwgWindowDays,
  };
  // The stdKt/V targets are KDOQI 2015's, not yet company settings.
  const std = { stdKtVMinimum: STD_KTV_TARGETS.minimum, stdKtVTarget: STD_KTV_TARGETS.target };
  return { ufRateMaxMlKgH: ufRateThresholdMlKgH, ktvMinimum, ktvTarget, urrMinimumPercent, ...plausibility, ...std };
}

export const DEFAULT_CLINICAL_POLICY: ClinicalPolicy = Object.freeze(clinicalPolicyOf(DEFAULT_POLICY));
