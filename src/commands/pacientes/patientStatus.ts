// Allowed status changes of a patient on the unit's census.
import type { PatientStatus } from './patientTypes.js';

/**
 * From each status, where the patient may go next:
 * - active: any other status (the unit dialyses the patient).
 * - hospitalized: back to active, or on to transferred/transplanted/discharged/deceased.
 * - transferred, discharged: may return (active, i.e. readmission) or be recorded deceased.
 * - transplanted: graft failure brings the patient back (active); may also be discharged or deceased.
 * - recovered (renal function recovered): relapse (active), discharged or deceased.
 * - deceased: terminal, nothing follows.
 * A change to the same status is refused: it would record nothing.
 */
export const STATUS_TRANSITIONS: Readonly<Record<PatientStatus, readonly PatientStatus[]>> = {
  active: ['transferred', 'hospitalized', 'transplanted', 'recovered', 'discharged', 'deceased'],
  hospitalized: ['active', 'transferred', 'transplanted', 'discharged', 'deceased'],
  transferred: ['active', 'deceased'],
  transplanted: ['active', 'discharged', 'deceased'],
  recovered: ['active', 'discharged', 'deceased'],
  discharged: ['active', 'deceased'],
  deceased: [],
};

export function canChangeStatus(from: PatientStatus, to: PatientStatus): boolean {
  return STATUS_TRANSITIONS[from].includes(to);
}
