// Builders for decider tests: a registered patient and commands against it, with sensible defaults.
import type { CommandEnvelope } from '../decider.js';
import type { PatientCommand, RegisterPatientData } from './patientCommands.js';
import type { PatientEvent, PatientRegisteredData } from './patientEvents.js';

export const PATIENT_ID = 'p-1';
export const NOW = '2025-03-10T14:00:00.000Z';

export const registration: RegisterPatientData = {
  documentType: 'DNI',
  documentNumber: '45678912',
  givenNames: 'María José',
  familyNames: 'Quispe Huamán',
  sex: 'female',
  birthDate: '1961-05-02',
  admissionDate: '2024-11-04',
  etiology: 'diabetic nephropathy',
  dryWeightKg: 62.5,
};

export function command<T extends PatientCommand['type']>(
  type: T,
  data: Extract<PatientCommand, { type: T }>['data'],
  at = NOW,
): Extract<PatientCommand, CommandEnvelope<T>> {
  return { type, data, at, actor: 'nurse-1', aggregateId: PATIENT_ID, tenantId: 'clinic1' } as Extract<PatientCommand, CommandEnvelope<T>>;
}

export function registered(overrides: Partial<PatientRegisteredData> = {}): PatientEvent {
  const { dryWeightKg = 62.5, ...rest } = registration;
  return {
    type: 'PatientRegistered',
    data: {
      patientId: PATIENT_ID,
      ...rest,
      dryWeightKg,
      status: 'active',
      allergies: [],
      serology: [],
      isolation: [],
      coverages: [],
      ...overrides,
    },
  };
}

export function accessCreated(accessId: string, status: 'maturing' | 'active' = 'maturing'): PatientEvent {
  return {
    type: 'VascularAccessCreated',
    data: { accessId, type: 'AVF', side: 'left', site: 'radiocephalic', creationDate: '2024-10-01', status },
  };
}
