// Every rule about a patient's record in one place. Pure: time and ids come in with the command.
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks } from './fieldRules.js';
import type { PatientCommand, RegisterPatientData } from './patientCommands.js';
import type { PatientEvent } from './patientEvents.js';
import { PATIENT_CATEGORY } from './patientEvents.js';
import { checkAllergy, checkCoverage, checkDemographics, checkDryWeight, checkPastDate, checkSerology } from './patientRules.js';
import { applyPatch, evolvePatient, initialPatientState, termKey, type PatientState } from './patientState.js';
import { canChangeStatus, STATUS_TRANSITIONS } from './patientStatus.js';
import { isolationOf, sameIsolation } from './serologyIsolation.js';
import type { CorrectableField, DemographicsPatch, PatientDemographics } from './patientTypes.js';
import { CORRECTABLE_FIELDS } from './patientTypes.js';
import { decideAccessStatus, decideCreateAccess, decidePrimaryAccess } from './vascularAccessRules.js';

function existing(state: PatientState): PatientState & { demographics: PatientDemographics } {
  if (!state.exists || !state.demographics) throw notFound('patient');
  return state as PatientState & { demographics: PatientDemographics };
}

/** Forward-looking clinical orders make no sense for a deceased patient; corrections of the record still do. */
function notDeceased(state: PatientState): void {
  if (state.status === 'deceased') throw rule('patient-deceased', 'the patient is deceased; the record only accepts corrections');
}

function decideRegister(data: RegisterPatientData, state: PatientState, patientId: string, at: string): PatientEvent[] {
  if (state.exists) throw new DomainError('already-exists', 'this patient is already registered', 409);
  const { dryWeightKg, allergies = [], serology = [], coverages = [], ...demographics } = data;
  const checks = new FieldChecks();
  checkDemographics(checks, demographics, at);
  checkDryWeight(checks, 'dryWeightKg', dryWeightKg);
  serology.forEach((s, i) => checkSerology(checks, `serology/${i}/`, s, at, demographics.birthDate));
  allergies.forEach((a, i) => checkAllergy(checks, `allergies/${i}/`, a, at));
  coverages.forEach((c, i) => checkCoverage(checks, `coverages/${i}/`, c));
  const substances = allergies.map((a) => termKey(a.substance));
  substances.forEach((s, i) => checks.check(substances.indexOf(s) === i, `allergies/${i}/substance`, 'is listed twice'));
  checks.throwIfAny();
  return [
    {
      type: 'PatientRegistered',
      data: {
        patientId,
        ...demographics,
        status: 'active',
        ...(dryWeightKg !== undefined ? { dryWeightKg } : {}),
        allergies,
        serology,
        isolation: isolationOf(serology),
        coverages,
      },
    },
  ];
}

function decideCorrection(patch: DemographicsPatch, state: PatientState, at: string): PatientEvent[] {
  const current = existing(state).demographics;
  const changes: DemographicsPatch = {};
  const previous: DemographicsPatch = {};
  for (const field of CORRECTABLE_FIELDS) {
    if (!(field in patch) || patch[field] === undefined) continue;
    const before = current[field] ?? null;
    const after = patch[field] ?? null;
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    (changes as Record<CorrectableField, unknown>)[field] = after;
    (previous as Record<CorrectableField, unknown>)[field] = before;
  }
  if (Object.keys(changes).length === 0) return [];
  const checks = new FieldChecks();
  checkDemographics(checks, applyPatch(current, changes), at);
  checks.throwIfAny();
  return [{ type: 'PatientDataCorrected', data: { changes, previous } }];
}

export function decidePatient(command: PatientCommand, state: PatientState): PatientEvent[] {
  const at = command.at;
  switch (command.type) {
    case 'RegisterPatient':
      return decideRegister(command.data, state, command.aggregateId, at);
    case 'CorrectPatientData':
      return decideCorrection(command.data, state, at);
    case 'ChangePatientStatus': {
      const s = existing(state);
      const { status, reason } = command.data;
      if (!canChangeStatus(s.status, status)) {
        throw rule('invalid-status-transition', `a patient who is ${s.status} cannot become ${status}`, {
          from: s.status,
          to: status,
          allowed: STATUS_TRANSITIONS[s.status],
        });
      }
      const effectiveDate = command.data.effectiveDate ?? at.slice(0, 10);
      const checks = new FieldChecks().check(reason.trim().length > 0, 'reason', 'must not be blank');
      checkPastDate(checks, 'effectiveDate', effectiveDate, at, { date: s.demographics.admissionDate, name: 'the admission date' });
      checks.throwIfAny();
      return [{ type: 'PatientStatusChanged', data: { status, previousStatus: s.status, reason: reason.trim(), effectiveDate } }];
    }
    case 'PrescribeDryWeight': {
      const s = existing(state);
      notDeceased(s);
      const { dryWeightKg, prescribedBy } = command.data;
      const effectiveDate = command.data.effectiveDate ?? at.slice(0, 10);
      const checks = new FieldChecks();
      checkDryWeight(checks, 'dryWeightKg', dryWeightKg);
      checkPastDate(checks, 'effectiveDate', effectiveDate, at, { date: s.demographics.birthDate, name: 'the birth date' });
      checks.throwIfAny();
      return [
        {
          type: 'DryWeightPrescribed',
          data: { dryWeightKg, previousDryWeightKg: s.dryWeightKg, effectiveDate, ...(prescribedBy ? { prescribedBy } : {}) },
        },
      ];
    }
    case 'RecordSerology': {
      const s = existing(state);
      const checks = new FieldChecks();
      checkSerology(checks, '', command.data, at, s.demographics.birthDate);
      checks.throwIfAny();
      const isolation = isolationOf([...s.serology, command.data]);
      const recorded: PatientEvent = { type: 'SerologyRecorded', data: command.data };
      if (sameIsolation(isolation, s.isolation)) return [recorded];
      return [recorded, { type: 'PatientIsolationChanged', data: { isolation, previousIsolation: s.isolation } }];
    }
    case 'RecordAllergy': {
      const s = existing(state);
      const checks = new FieldChecks();
      checkAllergy(checks, '', command.data, at);
      checks.throwIfAny();
      if (s.allergyIds.includes(command.data.allergyId)) throw rule('allergy-already-recorded', 'this allergy entry already exists');
      if (s.allergySubstances.includes(termKey(command.data.substance))) {
        throw rule('allergy-already-recorded', `an allergy to '${command.data.substance}' is already recorded`);
      }
      return [{ type: 'AllergyRecorded', data: { ...command.data, substance: command.data.substance.trim() } }];
    }
    case 'AddCoverage': {
      const s = existing(state);
      notDeceased(s);
      if (s.coverages[command.data.coverageId]) throw rule('coverage-already-exists', 'a coverage with this id already exists');
      const checks = new FieldChecks();
      checkCoverage(checks, '', command.data);
      checks.throwIfAny();
      return [{ type: 'CoverageAdded', data: command.data }];
    }
    case 'EndCoverage': {
      const s = existing(state);
      const coverage = s.coverages[command.data.coverageId];
      if (!coverage) throw notFound('coverage');
      if (coverage.ended) throw rule('coverage-already-ended', 'this coverage has already ended');
      const checks = new FieldChecks().check(command.data.reason.trim().length > 0, 'reason', 'must not be blank');
      checks.check(command.data.endDate >= coverage.validFrom, 'endDate', 'must not be before the start of the coverage');
      checks.throwIfAny();
      return [{ type: 'CoverageEnded', data: { ...command.data, reason: command.data.reason.trim() } }];
    }
    case 'CreateVascularAccess':
      notDeceased(existing(state));
      return decideCreateAccess(command.data, state, at);
    case 'ChangeVascularAccessStatus':
      existing(state);
      return decideAccessStatus(command.data, state, at);
    case 'DesignatePrimaryAccess':
      notDeceased(existing(state));
      return decidePrimaryAccess(command.data.accessId, state);
  }
}

export const patientDecider: Decider<PatientCommand, PatientEvent, PatientState> = {
  category: PATIENT_CATEGORY,
  initialState: initialPatientState,
  evolve: evolvePatient,
  decide: decidePatient,
};
