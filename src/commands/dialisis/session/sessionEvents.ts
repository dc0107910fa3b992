// The dialysis session record (domain.md 2 and 8, Dialisis): one stream per session, `dialysisSession-<id>`.
import type { DecidedEvent } from '../../decider.js';
import type { AccessUsed, JudgedClinical } from '../shared/sessionSnapshots.js';
import type { POST_SAMPLE_METHODS, UreaLab } from '../shared/ureaLab.js';

export type { SessionLimit, SessionLimits } from '../shared/sessionLimits.js';
export type { AccessUsed, JudgedClinical } from '../shared/sessionSnapshots.js';
import { streamName } from '../../../stores/streamNames.js';

/** The category of the dialysis session streams: written once, here (the decider, the writes and the read side take it). */
export const SESSION_CATEGORY = 'dialysisSession';
export const sessionStream = (tenantId: string, sessionId: string): string => streamName(tenantId, SESSION_CATEGORY, sessionId);

export const SESSION_STATUSES = [
  'scheduled',
  'checked-in',
  'in-progress',
  'paused',
  'ended',
  'signed',
  'validated',
  'cancelled',
  'no-show',
  'interrupted',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const SESSION_KINDS = ['planned', 'extra', 'emergency'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

export const INTERRUPTION_REASONS = [
  'hemodynamic-instability',
  'access-problem',
  'circuit-clotting',
  'machine-failure',
  'patient-request',
  'transfer-to-hospital',
  'cardiac-arrest',
  'other',
] as const;
export type InterruptionReason = (typeof INTERRUPTION_REASONS)[number];

export const COMPLICATION_CODES = [
  'hypotension',
  'hypertension',
  'cramps',
  'nausea-vomiting',
  'headache',
  'chest-pain',
  'arrhythmia',
  'fever-chills',
  'pruritus',
  'bleeding',
  'circuit-clotting',
  'access-problem',
  'air-embolism',
  'hemolysis',
  'dialyzer-reaction',
  'disequilibrium',
  'seizure',
  'cardiac-arrest',
  'machine-incident',
  'transfer-to-hospital',
  'other',
] as const;
export type ComplicationCode = (typeof COMPLICATION_CODES)[number];
export const SEVERITIES = ['mild', 'moderate', 'severe', 'life-threatening'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const MEDICATION_ROUTES = ['iv-venous-line', 'iv', 'sc', 'im', 'oral', 'dialysate'] as const;
export type MedicationRoute = (typeof MEDICATION_ROUTES)[number];

export type BloodPressure = {
  systolic: number;
  diastolic: number;
};

/** The pre-dialysis block (2.4): weights as weighed, with the tare that nets them. */
export type PreDialysis = {
  scaleWeightKg: number;
  wheelchairKg?: number;
  clothesKg?: number;
  bloodPressure: BloodPressure;
  standingBloodPressure?: BloodPressure;
  pulse: number;
  temperatureC: number;
  respiratoryRate?: number;
  spo2?: number;
  glucoseMgDl?: number;
  symptoms?: string[];
  accessAssessment?: string;
  /** Fluids to be returned or given during the session (rinse-back, saline, intake), litres: part of the UF goal. */
  fluidsToGiveL?: number;
  preBunMgDl?: number;
  /** The pre-dialysis urea as the lab reported it (BUN or urea, mg/dL or mmol/L); preBunMgDl is then its conversion. */
  preUrea?: UreaLab;
};

/** The post-dialysis block (2.6). */
export type PostDialysis = {
  scaleWeightKg: number;
  wheelchairKg?: number;
  clothesKg?: number;
  bloodPressure: BloodPressure;
  standingBloodPressure?: BloodPressure;
  pulse: number;
  temperatureC: number;
  machineUfMl: number;
  bloodProcessedL?: number;
  machineKtV?: number;
  machineUrrPercent?: number;
  rinseBackMl?: number;
  hemostasisMinutes?: number;
  accessState?: string;
  conditionAtDischarge?: string;
  postBunMgDl?: number;
  /** The post-dialysis urea as the lab reported it; postBunMgDl is then its conversion. */
  postUrea?: UreaLab;
  /** How and when the post-dialysis sample was drawn (KDOQI: slow-flow or stop-dialysate-flow, promptly at the end). */
  postSample?: { method: (typeof POST_SAMPLE_METHODS)[number]; drawnAt: string };
  /** Fluid taken during the session (oral intake, saline), litres: part of the achieved UF. */
  intakeL?: number;
  /** Treatment minutes the machine counted: when stated, the kinetics' treatment time. */
  machineEffectiveMinutes?: number;
};

/** An intradialytic reading (2.5); `at` lies inside the session. */
export type Reading = {
  at: string;
  bloodPressure?: BloodPressure;
  pulse?: number;
  temperatureC?: number;
  spo2?: number;
  qbMlMin?: number;
  qdMlMin?: number;
  arterialPressureMmHg?: number;
  venousPressureMmHg?: number;
  tmpMmHg?: number;
  ufRateMlH?: number;
  cumulativeUfMl?: number;
  conductivityMsCm?: number;
  dialysateTemperatureC?: number;
  heparinUnitsH?: number;
  salineMl?: number;
  note?: string;
  source: 'manual' | 'machine';
};

/** The per-treatment machine safety checks (2.13), each with its value and who checked it. */
export type SafetyChecks = {
  conductivityMsCm: number;
  conductivityTargetMsCm: number;
  dialysatePh?: number;
  dialysateTemperatureC: number;
  residualDisinfectantAbsent: boolean;
  airDetectorTested: boolean;
  bloodLeakDetectorArmed: boolean;
  ufControlTested?: boolean;
  alarmsTested: boolean;
  checkedBy: string;
};

export type Complication = {
  at: string;
  code: ComplicationCode;
  severity: Severity;
  intervention?: string;
  outcome?: string;
  note?: string;
};

export type Medication = {
  drug: string;
  dose: number;
  unit: string;
  route: MedicationRoute;
  at: string;
  lot?: string;
  expiresOn?: string;
  given: boolean;
  reasonNotGiven?: string;
  /** The product of the company given (Productos): the session's supplies then issue it from stock. */
  productId?: string;
  /** Units of that product used (default 1). */
  stockQuantity?: number;
};

export type Equipment = {
  machineId: string;
  stationId?: string;
  dialyzerId: string | null;
  arterialLineId: string | null;
  venousLineId: string | null;
};

/** The prescription the session runs under, as the prescription group hands it (a snapshot, never a reference). */
export type PrescriptionInForce = Record<string, unknown> & {
  version: number;
  durationMinutes: number;
  frequencyPerWeek?: number;
  /** Residual urea clearance the physician recorded with the prescription (issue 21 item 5); absent or null when none. */
  residualUreaClearance?: ResidualUreaClearance | null;
};

/** The snapshot a session keeps: the prescription in force with the patient's dry weight in force (issue 21 item 4). */
export type PrescriptionSnapshot = PrescriptionInForce & { dryWeightKg: number };

/** Kru from an interdialytic urine collection: mL/min, and the day it was measured. */
export type ResidualUreaClearance = { mlMin: number; measuredOn: string };

/** A dry weight of the patient and the day it took effect. */
export type SessionDryWeight = { dryWeightKg: number; effectiveDate: string };

export type Signer = {
  userId: string;
  staffId: string;
};

export type ScheduledData = {
  sessionId: string;
  patientId: string;
  date: string;
  shiftId: string;
  locationId: string;
  kind: SessionKind;
  planId?: string;
  reason?: string;
  requestedBy?: string;
  /** Why a session of a past date is charted after the fact (back-entry, e.g. after a downtime). */
  lateEntryReason?: string;
};

export const AMENDABLE_BLOCKS = ['pre', 'post', 'safetyChecks', 'times'] as const;

export type AmendableBlock = (typeof AMENDABLE_BLOCKS)[number];

export type PatientFacts = {
  exists: boolean;
  status: string;
};

/** A machine changed mid-session (machineChange.ts): the new one with its safety checks; the minutes the old one ran. */
export type ChangeMachineData = { machineId: string; stationId?: string; reason: string; safetyChecks: SafetyChecks };
export type MachineChangedData = ChangeMachineData & { fromMachineId: string; changedAt: string; minutesOnPrevious: number };

/** What an interruption cost: the complication that caused it (one of the session's) and the prescribed minutes not given. */
type Lost = { complicationId?: string; lostMinutes?: number };

type E<T extends string, D> = DecidedEvent<T, D>;
export type SessionEvent =
  | E<'SessionScheduled', ScheduledData>
  | E<'PatientCheckedIn', { checkedInAt: string }>
  | E<'PreDialysisRecorded', PreDialysis>
  | E<'SafetyChecksRecorded', SafetyChecks>
  | E<
      'SessionStarted',
      Equipment & {
        startedAt: string;
        /** The prescription in force; its dryWeightKg is the patient's dry weight below (absent before issue 21). */
        prescription: PrescriptionSnapshot;
        /** The patient's dry weight in force on the session's date (Pacientes' /peso-seco): the one source. */
        dryWeight?: SessionDryWeight;
        warnings: string[];
        vascularAccess?: AccessUsed | null;
        /** Charted after the fact (backEntry.ts): its equipment took no live claim; its end records the use as history. */
        backEntry?: true;
      }
    >
  | E<'SessionPaused', { pausedAt: string; reason: string }>
  | E<'SessionResumed', { resumedAt: string }>
  | E<'ReadingRecorded', Reading & { readingId: string }>
  | E<'ComplicationRecorded', Complication & { complicationId: string }>
  | E<'MedicationAdministered', Medication & { medicationId: string }>
  | E<'SessionEnded', { endedAt: string; effectiveMinutes: number }>
  | E<'PostDialysisRecorded', PostDialysis>
  | E<'SessionInterrupted', { interruptedAt: string; reasonCode: InterruptionReason; note?: string; effectiveMinutes: number } & Lost>
  | E<'SessionCancelled', { reason: string }>
  | E<'SessionMarkedNoShow', { note?: string }>
  | E<'SessionSignedByNurse', Signer & { signedAt: string; judged?: JudgedClinical }>
  | E<'SessionValidatedByPhysician', Signer & { validatedAt: string }>
  | E<
      'SessionAmended',
      {
        block: AmendableBlock;
        changes: Record<string, unknown>;
        previous: Record<string, unknown>;
        reason: string;
        policyRevision: number;
        /** Who amended (a person with a clinical staff record, after a fresh code); absent on amendments of before. */
        amendedBy?: Signer;
        /** The record was validated: the amendment sends it back to awaiting validation (status signed). */
        returnsToValidation?: true;
        /** A 'times' amendment: the treatment minutes the new instants give (pauses left out). */
        effectiveMinutes?: number;
        /** A 'times' amendment of an interrupted session: the prescribed minutes the new instants leave ungiven. */
        lostMinutes?: number;
        /** The values judged again on the amended record. */
        judged?: JudgedClinical;
      }
    >
  | E<'SessionAddendumRecorded', { text: string; reason: string; addedBy?: Signer }>
  | E<'MachineChanged', MachineChangedData>;

export const SESSION_EVENT_TYPES: readonly SessionEvent['type'][] = [
  'SessionScheduled',
  'PatientCheckedIn',
  'PreDialysisRecorded',
  'SafetyChecksRecorded',
  'SessionStarted',
  'SessionPaused',
  'SessionResumed',
  'ReadingRecorded',
  'ComplicationRecorded',
  'MedicationAdministered',
  'SessionEnded',
  'PostDialysisRecorded',
  'SessionInterrupted',
  'SessionCancelled',
  'SessionMarkedNoShow',
  'SessionSignedByNurse',
  'SessionValidatedByPhysician',
  'SessionAmended',
  'SessionAddendumRecorded',
  'MachineChanged',
];
