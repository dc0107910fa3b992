// Field rules of the patient's data that need the command time or another field (domain.md 2.12).
import { birthDateProblem, FieldChecks, isRealDate, notFutureDate, weightProblem } from './fieldRules.js';
import type { AllergyEntry, CoverageEntry, PatientDemographics, SerologyEntry } from './patientTypes.js';

/** A calendar date that is real, not in the future and (optionally) not before another date. */
export function checkPastDate(
  checks: FieldChecks,
  field: string,
  date: string | undefined,
  at: string,
  notBefore?: { date: string | undefined; name: string },
): void {
  if (date === undefined) return;
  if (!isRealDate(date)) {
    checks.check(false, field, 'must be a real calendar date');
    return;
  }
  checks.check(notFutureDate(date, at), field, 'must not be in the future');
  if (notBefore?.date !== undefined) checks.check(date >= notBefore.date, field, `must not be before ${notBefore.name}`);
}

export function checkDemographics(checks: FieldChecks, d: PatientDemographics, at: string): void {
  if (!isRealDate(d.birthDate)) checks.check(false, 'birthDate', 'must be a real calendar date');
  else {
    const problem = birthDateProblem(d.birthDate, at);
    checks.check(problem === null, 'birthDate', problem ?? '');
  }
  const born = { date: d.birthDate, name: 'the birth date' };
  checkPastDate(checks, 'admissionDate', d.admissionDate, at, born);
  checkPastDate(checks, 'dialysisStartDate', d.dialysisStartDate, at, born);
  checks.check(d.givenNames.trim().length > 0, 'givenNames', 'must not be blank');
  checks.check(d.familyNames.trim().length > 0, 'familyNames', 'must not be blank');
  checks.check(/[A-Za-z0-9]/.test(d.documentNumber), 'documentNumber', 'must contain letters or digits');
}

export function checkDryWeight(checks: FieldChecks, field: string, kg: number | undefined): void {
  if (kg === undefined) return;
  const problem = weightProblem(kg);
  checks.check(problem === null, field, problem ?? '');
}

export function checkSerology(checks: FieldChecks, field: string, s: SerologyEntry, at: string, birthDate?: string): void {
  checkPastDate(checks, `${field}sampleDate`, s.sampleDate, at, { date: birthDate, name: 'the birth date' });
  if (s.titer !== undefined) checks.check(s.test === 'antiHBs', `${field}titer`, 'applies to anti-HBs only');
}

export function checkAllergy(checks: FieldChecks, field: string, a: AllergyEntry, at: string): void {
  checks.check(a.substance.trim().length > 0, `${field}substance`, 'must not be blank');
  checkPastDate(checks, `${field}notedDate`, a.notedDate, at);
}

export function checkCoverage(checks: FieldChecks, field: string, c: CoverageEntry): void {
  checks.check(Boolean(c.clientId || c.payerName?.trim()), `${field}clientId`, 'a payer (clientId or payerName) is required');
  checks.check(isRealDate(c.validFrom), `${field}validFrom`, 'must be a real calendar date');
  if (c.validTo !== undefined) {
    checks.check(isRealDate(c.validTo), `${field}validTo`, 'must be a real calendar date');
    checks.check(c.validTo >= c.validFrom, `${field}validTo`, 'must not be before validFrom');
  }
}
