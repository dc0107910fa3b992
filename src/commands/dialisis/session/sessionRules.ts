// The session's own rules that more than one command reads: may it start (every reason), what signing requires, and
// the cross-field checks of its blocks. Pure.
import { FieldChecks, notFutureInstant } from '../../shared/fieldChecks.js';
import type { BloodPressure, PostDialysis, PreDialysis, SafetyChecks } from './sessionEvents.js';
import type { SessionCommand } from './sessionCommands.js';
import type { SessionState } from './sessionState.js';

/** Conductivity may differ from its target by at most 5 % (AAMI via the FDA QA guidelines, domain.md 2.12). */
export const CONDUCTIVITY_TOLERANCE = 0.05;
/** A bicarbonate dialysate outside this pH band must not be used (FDA QA guidelines). */
export const DIALYSATE_PH = { min: 6.5, max: 7.5 } as const;

export const SESSION_START_REASONS = [
  'session-not-checked-in',
  'patient-inactive',
  'no-prescription-in-force',
  'no-dry-weight-in-force',
  'pre-dialysis-missing',
  'safety-checks-missing',
  'safety-checks-failed',
] as const;
export type SessionStartReason = (typeof SESSION_START_REASONS)[number];

/** Which per-treatment safety checks failed (2.13): names of the failed checks, empty when all pass. */
export function failedSafetyChecks(c: SafetyChecks): string[] {
  const failed: string[] = [];
  if (Math.abs(c.conductivityMsCm - c.conductivityTargetMsCm) > CONDUCTIVITY_TOLERANCE * c.conductivityTargetMsCm)
    failed.push('conductivity');
  if (c.dialysatePh !== undefined && (c.dialysatePh < DIALYSATE_PH.min || c.dialysatePh > DIALYSATE_PH.max)) failed.push('dialysatePh');
  if (!c.residualDisinfectantAbsent) failed.push('residualDisinfectantAbsent');
  if (!c.airDetectorTested) failed.push('airDetectorTested');
  if (!c.bloodLeakDetectorArmed) failed.push('bloodLeakDetectorArmed');
  if (c.ufControlTested === false) failed.push('ufControlTested');
  if (!c.alarmsTested) failed.push('alarmsTested');
  return failed;
}

/** Every reason of the session itself why it may not start now (the equipment adds its own). */
export function sessionStartReasons(
  state: SessionState,
  facts: Pick<Extract<SessionCommand, { type: 'StartSession' }>['data'], 'patient' | 'prescription'> & {
    dryWeight?: Extract<SessionCommand, { type: 'StartSession' }>['data']['dryWeight'];
  },
): SessionStartReason[] {
  const reasons: SessionStartReason[] = [];
  if (state.status !== 'checked-in') reasons.push('session-not-checked-in');
  if (!facts.patient.exists || facts.patient.status !== 'active') reasons.push('patient-inactive');
  if (facts.prescription === null) reasons.push('no-prescription-in-force');
  // The UF goal and the weight flags need the patient's dry weight (Pacientes) in force on the session's date.
  if (facts.dryWeight === null) reasons.push('no-dry-weight-in-force');
  if (!state.pre) reasons.push('pre-dialysis-missing');
  if (!state.safetyChecks) reasons.push('safety-checks-missing');
  else if (failedSafetyChecks(state.safetyChecks).length > 0) reasons.push('safety-checks-failed');
  return reasons;
}

/** What must be recorded before the nurse signs: named so the 409 tells what to complete. */
export function missingForSigning(state: SessionState): string[] {
  const missing: string[] = [];
  if (!state.pre) missing.push('pre');
  if (!state.safetyChecks) missing.push('safetyChecks');
  // An interrupted session keeps its partial data: the post block and readings may be missing.
  if (!state.interrupted) {
    if (state.readingIds.length === 0) missing.push('readings');
    if (!state.post) missing.push('post');
  }
  return missing;
}

function checkPressure(checks: FieldChecks, field: string, bp: BloodPressure | undefined): void {
  if (bp) checks.check(bp.diastolic < bp.systolic, `${field}/diastolic`, 'must be below the systolic pressure');
}

/** Cross-field rules of the pre or post block (ranges are in the schema and clinicalRanges). */
export function checkWeighedBlock(checks: FieldChecks, block: PreDialysis | PostDialysis, prefix = ''): void {
  checkPressure(checks, `${prefix}bloodPressure`, block.bloodPressure);
  checkPressure(checks, `${prefix}standingBloodPressure`, block.standingBloodPressure);
  const tare = (block.wheelchairKg ?? 0) + (block.clothesKg ?? 0);
  checks.check(block.scaleWeightKg - tare >= 5, `${prefix}scaleWeightKg`, 'less the wheelchair and clothes, must leave at least 5 kg');
}

/** An instant of the treatment: not before the start, not after the end (or now, while it runs). */
export function checkInsideSession(checks: FieldChecks, field: string, instant: string, state: SessionState, at: string): void {
  const start = state.startedAt;
  checks.check(start !== null && Date.parse(instant) >= Date.parse(start), field, 'must not be before the session started');
  if (state.endedAt) checks.check(Date.parse(instant) <= Date.parse(state.endedAt), field, 'must not be after the session ended');
  else checks.check(notFutureInstant(instant, at), field, 'must not be in the future');
}

/** The post-dialysis sample is drawn at the end of the treatment: not before the start, not in the future. */
export function checkSampleTime(checks: FieldChecks, drawnAt: string, state: SessionState, at: string, prefix = ''): void {
  const field = `${prefix}postSample/drawnAt`;
  checks.check(
    state.startedAt !== null && Date.parse(drawnAt) >= Date.parse(state.startedAt),
    field,
    'must not be before the session started',
  );
  checks.check(notFutureInstant(drawnAt, at), field, 'must not be in the future');
}
