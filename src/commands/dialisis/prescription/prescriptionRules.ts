// Rules between the fields of one prescription (what a JSON Schema cannot say): one decimal, date order, and which
// anticoagulation details each kind needs. Every broken field is named in one 422.
import { FieldChecks, isRealDate } from '../../shared/fieldChecks.js';
import type { Anticoagulation, AnticoagulationKind, PrescriptionFields } from './prescriptionEvents.js';

const DETAILS_OF: Record<AnticoagulationKind, (keyof Anticoagulation)[]> = {
  none: ['reason'],
  ufh: ['bolusUnits', 'hourlyUnits', 'stopMinutesBeforeEnd'],
  lmwh: ['drug', 'dose', 'unit'],
};
const ALL_DETAILS = Object.values(DETAILS_OF).flat();

const oneDecimal = (n: number): boolean => Math.abs(n * 10 - Math.round(n * 10)) < 1e-6;

function checkAnticoagulation(a: Anticoagulation, durationMinutes: number, checks: FieldChecks): void {
  const needed = DETAILS_OF[a.kind];
  for (const field of ALL_DETAILS) {
    const present = a[field] !== undefined && !(typeof a[field] === 'string' && a[field].trim() === '');
    if (needed.includes(field)) checks.check(present, `anticoagulation/${field}`, `is required when kind is ${a.kind}`);
    else checks.check(a[field] === undefined, `anticoagulation/${field}`, `does not apply when kind is ${a.kind}`);
  }
  if (a.kind === 'ufh' && a.stopMinutesBeforeEnd !== undefined) {
    checks.check(a.stopMinutesBeforeEnd < durationMinutes, 'anticoagulation/stopMinutesBeforeEnd', 'must be less than durationMinutes');
  }
}

export function checkPrescriptionFields(f: PrescriptionFields): void {
  const checks = new FieldChecks();
  if (f.dryWeightKg !== undefined) checks.check(oneDecimal(f.dryWeightKg), 'dryWeightKg', 'must have at most one decimal');
  checks.check(f.ufGoalRule.trim().length > 0, 'ufGoalRule', 'must not be blank');
  checks.check(isRealDate(f.validFrom), 'validFrom', 'is not a real date');
  const kru = f.residualUreaClearance;
  if (kru)
    checks.check(
      isRealDate(kru.measuredOn) && kru.measuredOn <= f.validFrom,
      'residualUreaClearance/measuredOn',
      'must be a real date, not after validFrom',
    );
  if (f.validTo !== undefined) {
    checks.check(isRealDate(f.validTo), 'validTo', 'is not a real date');
    // validTo is the last day in force: a one-day prescription has validTo = validFrom.
    checks.check(f.validTo >= f.validFrom, 'validTo', 'must not be before validFrom');
  }
  checkAnticoagulation(f.anticoagulation, f.durationMinutes, checks);
  checks.throwIfAny();
}

/** The prescription as recorded: texts trimmed, absent optional parts left out. */
export function trimmedPrescription(f: PrescriptionFields): PrescriptionFields {
  const a = f.anticoagulation;
  const anticoagulation = {
    ...a,
    ...(a.reason !== undefined ? { reason: a.reason.trim() } : {}),
    ...(a.drug !== undefined ? { drug: a.drug.trim() } : {}),
  };
  return { ...f, ufGoalRule: f.ufGoalRule.trim(), anticoagulation };
}
