// Field rules of a staff record that need the command time, another field or the job position named.
import { FieldChecks, isRealDate, notFutureDate } from '../shared/fieldChecks.js';
import type { HbvDose, Licence, PositionFacts, StaffPersonal, StaffSerology } from './staffTypes.js';

/** A real calendar date, and (unless `future` is allowed) not in the future at the command time. */
export function checkDate(checks: FieldChecks, field: string, date: string | undefined, at: string, future = false): void {
  if (date === undefined) return;
  if (!isRealDate(date)) checks.check(false, field, 'must be a real calendar date');
  else if (!future) checks.check(notFutureDate(date, at), field, 'must not be in the future');
}

export function checkPersonal(checks: FieldChecks, p: StaffPersonal): void {
  checks.check(/[A-Za-z0-9]/.test(p.document.number), 'document/number', 'must contain letters or digits');
  checks.check(p.givenNames.trim().length > 0, 'givenNames', 'must not be blank');
  checks.check(p.familyNames.trim().length > 0, 'familyNames', 'must not be blank');
  // A hire may be recorded ahead of the first day of work.
  checkDate(checks, 'hireDate', p.hireDate, '', true);
}

/** The position a staff member is given: one of this company, active; its licence requirement must be met. */
export function checkPosition(checks: FieldChecks, position: PositionFacts, licence: Licence | null | undefined): void {
  if (position === null) {
    checks.check(false, 'positionId', 'must be a job position of this company');
    return;
  }
  checks.check(position.status === 'active', 'positionId', 'the job position is inactive: it cannot be given to new staff');
  checks.check(!position.licenceRequired || Boolean(licence), 'licence', 'is required by the job position');
}

export function checkLicence(checks: FieldChecks, field: string, l: Licence): void {
  checks.check(l.body.trim().length > 0, `${field}body`, 'must not be blank');
  checks.check(l.number.trim().length > 0, `${field}number`, 'must not be blank');
  checkDate(checks, `${field}expiresOn`, l.expiresOn, '', true);
}

export function checkSerology(checks: FieldChecks, field: string, s: StaffSerology, at: string): void {
  checkDate(checks, `${field}takenOn`, s.takenOn, at);
}

export function checkDose(checks: FieldChecks, field: string, d: HbvDose, at: string): void {
  checkDate(checks, `${field}givenOn`, d.givenOn, at);
}
