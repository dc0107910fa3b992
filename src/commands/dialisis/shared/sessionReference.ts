// What a record that names a dialysis session (a nursing note, a payer authorization's consumption) knows of it: the
// orchestration reads the session in the caller's company and hands the fact to the decider, which judges it.
import type { FieldChecks } from '../../shared/fieldChecks.js';

/** The session as the caller's company knows it: absent (another company's is absent too), or whose and which day. */
export type SessionFact = { exists: false } | { exists: true; patientId: string; date: string };

export const NO_SUCH_SESSION = 'no such dialysis session in this company';
export const ANOTHER_PATIENTS_SESSION = 'is a session of another patient';

/** The named session must be of this company and of this patient (one 422 naming `field` otherwise). */
export function checkSessionReference(checks: FieldChecks, field: string, fact: SessionFact | null, patientId: string): FieldChecks {
  checks.check(fact?.exists === true, field, NO_SUCH_SESSION);
  if (fact?.exists) checks.check(fact.patientId === patientId, field, ANOTHER_PATIENTS_SESSION);
  return checks;
}
