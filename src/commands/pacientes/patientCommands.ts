// Commands of the patient aggregate. Ids of new entries (allergy, coverage, access) come in with the command.
import type { CommandEnvelope } from '../decider.js';
import type {
  AccessSide,
  AccessType,
  AllergyEntry,
  CoverageEntry,
  DemographicsPatch,
  IsoDate,
  PatientDemographics,
  PatientStatus,
  SerologyEntry,
} from './patientTypes.js';

export interface RegisterPatientData extends PatientDemographics {
  dryWeightKg?: number;
  allergies?: AllergyEntry[];
  serology?: SerologyEntry[];
  coverages?: CoverageEntry[];
}

export interface ChangePatientStatusData {
  status: PatientStatus;
  reason: string;
  /** Defaults to the command's date. */
  effectiveDate?: IsoDate;
}

export interface PrescribeDryWeightData {
  dryWeightKg: number;
  effectiveDate?: IsoDate;
  prescribedBy?: string;
}

export interface EndCoverageData {
  coverageId: string;
  endDate: IsoDate;
  reason: string;
}

export interface CreateVascularAccessData {
  accessId: string;
  type: AccessType;
  side: AccessSide;
  site: string;
  creationDate: IsoDate;
  surgeon?: string;
  institution?: string;
  firstCannulationDate?: IsoDate;
  /** Default: 'maturing' for fistulas and grafts, 'active' for catheters (usable at once). */
  status?: 'maturing' | 'active';
  /** When the access is active: make it the primary one (default: only when no primary exists). */
  primary?: boolean;
}

export interface ChangeVascularAccessStatusData {
  accessId: string;
  status: 'active' | 'failed' | 'removed';
  date: IsoDate;
  reason?: string;
  /** For activation; defaults to `date` for fistulas and grafts. */
  firstCannulationDate?: IsoDate;
  primary?: boolean;
}

export type PatientCommand =
  | CommandEnvelope<'RegisterPatient', RegisterPatientData>
  | CommandEnvelope<'CorrectPatientData', DemographicsPatch>
  | CommandEnvelope<'ChangePatientStatus', ChangePatientStatusData>
  | CommandEnvelope<'PrescribeDryWeight', PrescribeDryWeightData>
  | CommandEnvelope<'RecordSerology', SerologyEntry>
  | CommandEnvelope<'RecordAllergy', AllergyEntry>
  | CommandEnvelope<'AddCoverage', CoverageEntry>
  | CommandEnvelope<'EndCoverage', EndCoverageData>
  | CommandEnvelope<'CreateVascularAccess', CreateVascularAccessData>
  | CommandEnvelope<'ChangeVascularAccessStatus', ChangeVascularAccessStatusData>
  | CommandEnvelope<'DesignatePrimaryAccess', { accessId: string }>;
