// Every rule about a patient's dialysis prescription. Pure: the patient's facts, the prescriber's standing and the
// time come in with the command.
import type { Decider } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import { FieldChecks, isRealDate } from '../../shared/fieldChecks.js';
import type { PatientFacts, PrescriberFacts, PrescriptionCommand, PrescriptionEvent } from './prescriptionEvents.js';
import { PRESCRIPTION_CATEGORY } from './prescriptionEvents.js';
import { checkPrescriptionFields, trimmedPrescription } from './prescriptionRules.js';
import { evolvePrescription, initialPrescriptionState, latestVersion, type PrescriptionState } from '../shared/prescriptionState.js';

function mustBeActive(patient: PatientFacts): void {
  if (!patient.exists) throw notFound('patient');
  if (patient.status === 'deceased') throw rule('patient-deceased', 'the patient is deceased', { status: patient.status });
  if (patient.status === 'discharged') throw rule('patient-discharged', 'the patient is discharged', { status: patient.status });
  if (patient.status !== 'active') throw rule('patient-inactive', `the patient is ${patient.status}`, { status: patient.status });
}

/** Prescribing and discontinuing are a physician's: a staff record of a physician's position allowed to sign now. */
function mustBePrescriber(prescriber: PrescriberFacts): { userId: string; staffId: string } {
  if (!prescriber.allowed || !prescriber.staffId) {
    throw new DomainError('prescriber-may-not-sign', `you may not sign clinical records now: ${prescriber.reasons.join(', ')}`, 403, {
      reasons: prescriber.reasons,
    });
  }
  return { userId: prescriber.userId, staffId: prescriber.staffId };
}

function decideIssue(command: Extract<PrescriptionCommand, { type: 'IssuePrescription' }>, state: PrescriptionState): PrescriptionEvent[] {
  const { patient, prescriber, ...fields } = command.data;
  mustBeActive(patient);
  const prescribedBy = mustBePrescriber(prescriber);
  checkPrescriptionFields(fields);
  const previous = latestVersion(state);
  if (previous && fields.validFrom < previous.validFrom) {
    throw rule(
      'valid-from-before-previous-version',
      `validFrom must not be before ${previous.validFrom}, the validFrom of version ${previous.version}`,
      { previousVersion: previous.version, previousValidFrom: previous.validFrom },
    );
  }
  // One dry weight (issue 21 item 4): a dry weight sent with the prescription is the patient's record (the writes put
  // it there), never a second copy on the prescription.
  const { dryWeightKg: _recordedOnThePatient, ...prescribed } = trimmedPrescription(fields);
  const data = {
    ...prescribed,
    patientId: command.aggregateId,
    version: (previous?.version ?? 0) + 1,
    supersedes: previous?.version ?? null,
    prescribedBy,
    issuedAt: command.at,
  };
  return [{ type: 'PrescriptionIssued', data }];
}

function decideDiscontinue(
  command: Extract<PrescriptionCommand, { type: 'DiscontinuePrescription' }>,
  state: PrescriptionState,
): PrescriptionEvent[] {
  const { patient, from, prescriber } = command.data;
  if (!patient.exists) throw notFound('patient');
  const by = mustBePrescriber(prescriber);
  const current = latestVersion(state);
  if (!current) throw rule('no-prescription', 'the patient has no prescription to discontinue');
  if (current.discontinued) {
    throw rule('prescription-discontinued', `version ${current.version} is already discontinued from ${current.discontinued.from}`);
  }
  const checks = new FieldChecks();
  checks.check(isRealDate(from), 'from', 'is not a real date');
  checks.check(from >= current.validFrom, 'from', `must not be before validFrom of version ${current.version} (${current.validFrom})`);
  checks.check(command.data.reason.trim().length > 0, 'reason', 'must not be blank');
  checks.throwIfAny();
  if (current.effectiveTo !== null && from > current.effectiveTo) {
    throw rule('prescription-ended', `version ${current.version} is in force only through ${current.effectiveTo}`);
  }
  const data = { version: current.version, from, reason: command.data.reason.trim(), discontinuedAt: command.at, by };
  return [{ type: 'PrescriptionDiscontinued', data }];
}

export function decidePrescription(command: PrescriptionCommand, state: PrescriptionState): PrescriptionEvent[] {
  switch (command.type) {
    case 'IssuePrescription':
      return decideIssue(command, state);
    case 'DiscontinuePrescription':
      return decideDiscontinue(command, state);
  }
}

export const prescriptionDecider: Decider<PrescriptionCommand, PrescriptionEvent, PrescriptionState> = {
  category: PRESCRIPTION_CATEGORY,
  initialState: initialPrescriptionState,
  evolve: evolvePrescription,
  decide: decidePrescription,
};
