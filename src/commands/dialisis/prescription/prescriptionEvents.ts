// The dialysis prescription (domain.md 2.3): a standing order, versioned, one stream per patient `prescription-<patientId>`.
// A new version supersedes the one before from its validFrom on; every version stays in the history.
import type { CommandEnvelope, DecidedEvent } from '../../decider.js';
import type { MedicationRoute } from '../session/sessionEvents.js';
import { streamName } from '../../../stores/streamNames.js';

/** The category of the prescription streams: written once, here (the decider, the writes and the read side take it). */
export const PRESCRIPTION_CATEGORY = 'prescription';
/** One stream per patient: every prescription version of the patient. */
export const prescriptionStream = (tenantId: string, patientId: string): string => streamName(tenantId, PRESCRIPTION_CATEGORY, patientId);

export const MODALITIES = ['HD', 'HDF-pre', 'HDF-post', 'HF', 'SLED', 'IUF'] as const;
export type Modality = (typeof MODALITIES)[number];
export const FLUXES = ['low', 'high'] as const;
export const CANNULATION_TECHNIQUES = ['rope-ladder', 'buttonhole', 'area'] as const;
export const ANTICOAGULATION_KINDS = ['none', 'ufh', 'lmwh'] as const;
export type AnticoagulationKind = (typeof ANTICOAGULATION_KINDS)[number];
export const LMWH_UNITS = ['IU', 'mg'] as const;

export type Dialyzer = { model: string; surfaceM2: number; flux: (typeof FLUXES)[number]; membrane: string };

export type Dialysate = {
  acidConcentrateCode: string;
  sodiumMmolL: number;
  potassiumMmolL: number;
  calciumMmolL: number;
  magnesiumMmolL: number;
  bicarbonateMmolL: number;
  glucoseMgDl: number;
  temperatureC: number;
  /** Sodium / UF profile, as the machine names it. */
  profile?: string;
};

/**
 * One shape for the three kinds, the fields each kind needs checked by the decider: none needs a reason; UFH a bolus,
 * an hourly dose and when to stop before the end; LMWH a single dose of a drug.
 */
export type Anticoagulation = {
  kind: AnticoagulationKind;
  reason?: string;
  bolusUnits?: number;
  hourlyUnits?: number;
  stopMinutesBeforeEnd?: number;
  drug?: string;
  dose?: number;
  unit?: (typeof LMWH_UNITS)[number];
};

export type Needles = {
  arterialGauge: number;
  venousGauge: number;
  cannulationTechnique: (typeof CANNULATION_TECHNIQUES)[number];
};

export type CatheterLock = { arterialMl: number; venousMl: number; solution?: string };

export type PrescribedMedication = { drug: string; dose: number; unit: string; route: MedicationRoute; frequency: string };

/** What the physician prescribes (the body of the route); the prescriber is the caller. */
export type PrescriptionFields = {
  modality: Modality;
  durationMinutes: number;
  frequencyPerWeek: number;
  /**
   * Accepted for older clients: recorded as the patient's dry weight from validFrom (Pacientes' /peso-seco), not kept on
   * the prescription. Versions issued before issue 21 still carry theirs.
   */
  dryWeightKg?: number;
  ufGoalRule: string;
  qbMlMin: number;
  qdMlMin: number;
  dialyzer: Dialyzer;
  dialysate: Dialysate;
  anticoagulation: Anticoagulation;
  needles?: Needles;
  catheterLock?: CatheterLock;
  medications: PrescribedMedication[];
  validFrom: string;
  validTo?: string;
  /** Residual urea clearance the dose is judged with (issue 21 item 5): a measurement the physician prescribes by. */
  residualUreaClearance?: { mlMin: number; measuredOn: string };
};

export type Prescriber = { userId: string; staffId: string };

/** What the orchestration tells the decider about the patient (absent = not of this company). */
export type PatientFacts = { exists: boolean; status: string };

/** The caller's standing to sign clinical records at the command time (Colaboradores' verdict). */
/** A version stopped from `from`, why and by whom (`by`: absent on discontinuations recorded before a physician was required). */
export type Discontinuation = { from: string; reason: string; discontinuedAt: string; by?: Prescriber };

export type PrescriberFacts = { userId: string; staffId: string | null; allowed: boolean; reasons: string[] };

export type PrescriptionCommand =
  | CommandEnvelope<'IssuePrescription', PrescriptionFields & { patient: PatientFacts; prescriber: PrescriberFacts }>
  | CommandEnvelope<'DiscontinuePrescription', { from: string; reason: string; patient: PatientFacts; prescriber: PrescriberFacts }>;

export type PrescriptionEvent =
  | DecidedEvent<
      'PrescriptionIssued',
      PrescriptionFields & { patientId: string; version: number; supersedes: number | null; prescribedBy: Prescriber; issuedAt: string }
    >
  | DecidedEvent<'PrescriptionDiscontinued', Discontinuation & { version: number }>;

export const PRESCRIPTION_EVENT_TYPES: readonly PrescriptionEvent['type'][] = ['PrescriptionIssued', 'PrescriptionDiscontinued'];
