// Events of the patient aggregate (stream `<tenant>.patient-<patientId>`), past tense, data only:
// who/when/why travel in the event metadata (actor, occurredAt, reason).
import type { DecidedEvent } from '../decider.js';
import type {
  AccessSide,
  AccessStatus,
  AccessType,
  AllergyEntry,
  CoverageEntry,
  DemographicsPatch,
  IsoDate,
  Isolation,
  PatientDemographics,
  PatientStatus,
  SerologyEntry,
} from './patientTypes.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the patient streams: written once, here (the decider, the writes and the read side take it). */
export const PATIENT_CATEGORY = 'patient';
export const patientStream = (tenantId: string, patientId: string): string => streamName(tenantId, PATIENT_CATEGORY, patientId);

export type PatientRegisteredData = PatientDemographics & {
  patientId: string;
  status: 'active';
  dryWeightKg?: number;
  allergies: AllergyEntry[];
  serology: SerologyEntry[];
  isolation: Isolation[];
  coverages: CoverageEntry[];
};

export type PatientDataCorrectedData = {
  /** The new values of the fields that changed (null = cleared). */
  changes: DemographicsPatch;
  /** Their values before the correction (null = was empty). */
  previous: DemographicsPatch;
};

export type PatientStatusChangedData = {
  status: PatientStatus;
  previousStatus: PatientStatus;
  reason: string;
  effectiveDate: IsoDate;
};

export type DryWeightPrescribedData = {
  dryWeightKg: number;
  previousDryWeightKg: number | null;
  effectiveDate: IsoDate;
  prescribedBy?: string;
};

export type PatientIsolationChangedData = {
  isolation: Isolation[];
  previousIsolation: Isolation[];
};

export type CoverageEndedData = {
  coverageId: string;
  endDate: IsoDate;
  reason: string;
};

export type VascularAccessCreatedData = {
  accessId: string;
  type: AccessType;
  side: AccessSide;
  site: string;
  creationDate: IsoDate;
  surgeon?: string;
  institution?: string;
  firstCannulationDate?: IsoDate;
  status: 'maturing' | 'active';
};

export type VascularAccessStatusChangedData = {
  accessId: string;
  status: AccessStatus;
  previousStatus: AccessStatus;
  date: IsoDate;
  reason?: string;
  firstCannulationDate?: IsoDate;
};

export type VascularAccessPrimaryDesignatedData = {
  accessId: string;
  previousAccessId: string | null;
};

export type PatientEvent =
  | DecidedEvent<'PatientRegistered', PatientRegisteredData>
  | DecidedEvent<'PatientDataCorrected', PatientDataCorrectedData>
  | DecidedEvent<'PatientStatusChanged', PatientStatusChangedData>
  | DecidedEvent<'DryWeightPrescribed', DryWeightPrescribedData>
  | DecidedEvent<'SerologyRecorded', SerologyEntry>
  | DecidedEvent<'PatientIsolationChanged', PatientIsolationChangedData>
  | DecidedEvent<'AllergyRecorded', AllergyEntry>
  | DecidedEvent<'CoverageAdded', CoverageEntry>
  | DecidedEvent<'CoverageEnded', CoverageEndedData>
  | DecidedEvent<'VascularAccessCreated', VascularAccessCreatedData>
  | DecidedEvent<'VascularAccessStatusChanged', VascularAccessStatusChangedData>
  | DecidedEvent<'VascularAccessPrimaryDesignated', VascularAccessPrimaryDesignatedData>;

export type PatientEventType = PatientEvent['type'];

export const PATIENT_EVENT_TYPES: readonly PatientEventType[] = [
  'PatientRegistered',
  'PatientDataCorrected',
  'PatientStatusChanged',
  'DryWeightPrescribed',
  'SerologyRecorded',
  'PatientIsolationChanged',
  'AllergyRecorded',
  'CoverageAdded',
  'CoverageEnded',
  'VascularAccessCreated',
  'VascularAccessStatusChanged',
  'VascularAccessPrimaryDesignated',
];
