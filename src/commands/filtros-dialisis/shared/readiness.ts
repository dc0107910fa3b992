// May this dialyzer be used for this patient now? Every failed rule is a reason. Pure: the use command refuses with
// these reasons, and the floor query (readyForUse) answers them from the read model.
import type { DialyzerStatus, PreUseChecksData } from '../dialyzerEvents.js';
import { maxUsesFor, minDwellHoursFor, type ReusePolicy } from './reusePolicy.js';

export const READINESS_REASONS = [
  'dialyzer-discarded',
  'in-use-by-another-session',
  'not-assigned',
  'patient-mismatch',
  'max-uses-reached',
  'quarantined',
  'awaiting-reprocessing',
  'hbsag-positive-no-reuse',
  'pre-use-checks-missing',
  'germicide-potency-failed',
  'residual-test-positive',
  'identity-not-confirmed',
  'dwell-time-too-short',
  'storage-time-exceeded',
  'reprocessing-expired',
] as const;
export type ReadinessReason = (typeof READINESS_REASONS)[number];

/** What readiness reads of a dialyzer: the decider's state and the read model both carry it. */
export interface ReadinessFacts {
  status: DialyzerStatus;
  model: string;
  reusable: boolean;
  patientId: string | null;
  uses: number;
  /** Reprocessings so far: 0 means a new dialyzer, whose first use needs no reprocessing checks. */
  cycle: number;
  lastFillTime: string | null;
  /** Germicide of the last reprocessing: its minimum dwell applies. */
  lastGermicide: string | null;
  expiresOn: string | null;
  /** The pre-use checks recorded since the last reprocessing. */
  checks: PreUseChecksData | null;
}

const HOUR_MS = 3600 * 1000;

function reuseReasons(f: ReadinessFacts, at: string, policy: ReusePolicy, hbsagPositive: boolean): ReadinessReason[] {
  const reasons: ReadinessReason[] = [];
  if (hbsagPositive && !policy.hbsagPositiveReuse) reasons.push('hbsag-positive-no-reuse');
  if (!f.checks) reasons.push('pre-use-checks-missing');
  else {
    if (f.checks.germicidePotency !== 'pass') reasons.push('germicide-potency-failed');
    if (f.checks.residualTest !== 'negative') reasons.push('residual-test-positive');
    if (new Set(f.checks.identityConfirmedBy).size < 2) reasons.push('identity-not-confirmed');
  }
  // Storage starts at the germicide fill: dwell and storage age are both measured from it.
  if (f.lastFillTime !== null) {
    const since = Date.parse(at) - Date.parse(f.lastFillTime);
    if (since < minDwellHoursFor(f.lastGermicide, policy) * HOUR_MS) reasons.push('dwell-time-too-short');
    if (since > policy.storageMaxDays * 24 * HOUR_MS) reasons.push('storage-time-exceeded');
  }
  if (f.expiresOn !== null && at.slice(0, 10) > f.expiresOn) reasons.push('reprocessing-expired');
  return reasons;
}

export function readinessReasons(
  f: ReadinessFacts,
  patientId: string,
  at: string,
  policy: ReusePolicy,
  hbsagPositive: boolean,
): ReadinessReason[] {
  if (f.status === 'discarded') return ['dialyzer-discarded'];
  const reasons: ReadinessReason[] = [];
  // A dialyzer is in at most one running session: the holder's own retry never gets here (the decider answers it).
  if (f.status === 'in-use') reasons.push('in-use-by-another-session');
  if (f.patientId === null) reasons.push('not-assigned');
  else if (f.patientId !== patientId) reasons.push('patient-mismatch');
  if (f.uses >= maxUsesFor(f.model, f.reusable, policy)) reasons.push('max-uses-reached');
  if (f.status === 'quarantined') reasons.push('quarantined');
  if (f.status === 'used') reasons.push('awaiting-reprocessing');
  if (f.cycle > 0 && f.status === 'stored') reasons.push(...reuseReasons(f, at, policy, hbsagPositive));
  // A reusable dialyzer gets its patient's label at its first use: two people confirm the patient then too.
  if (f.reusable && f.status === 'assigned' && f.patientId === patientId) {
    if (!f.checks) reasons.push('pre-use-checks-missing');
    else if (new Set(f.checks.identityConfirmedBy).size < 2) reasons.push('identity-not-confirmed');
  }
  return reasons;
}
