// What the patient decider remembers of its history: only what its rules need. evolve never throws.
import type { PatientEvent } from './patientEvents.js';
import type {
  AccessStatus,
  AccessType,
  CorrectableField,
  DemographicsPatch,
  IsoDate,
  Isolation,
  PatientDemographics,
  PatientStatus,
  SerologyEntry,
} from './patientTypes.js';

export interface AccessState {
  type: AccessType;
  status: AccessStatus;
  creationDate: IsoDate;
  firstCannulationDate?: IsoDate;
}

export interface CoverageState {
  validFrom: IsoDate;
  validTo?: IsoDate;
  ended: boolean;
}

/** A dry weight and the day it takes effect. */
export type DryWeightInForce = { dryWeightKg: number; effectiveDate: IsoDate };

/** The dry weight in force on `date`: the latest effective on or before it (of one day, the last recorded); null when none. */
export function dryWeightInForce(state: Pick<PatientState, 'dryWeights'>, date: IsoDate): DryWeightInForce | null {
  let found: DryWeightInForce | null = null;
  for (const w of state.dryWeights) if (w.effectiveDate <= date && (found === null || w.effectiveDate >= found.effectiveDate)) found = w;
  return found;
}

export interface PatientState {
  exists: boolean;
  status: PatientStatus;
  demographics: PatientDemographics | null;
  dryWeightKg: number | null;
  /** Every dry weight prescribed, as recorded: the one in force on a day is the session's (issue 21 item 4). */
  dryWeights: DryWeightInForce[];
  serology: SerologyEntry[];
  isolation: Isolation[];
  /** Normalised substances already recorded (duplicates are refused). */
  allergySubstances: string[];
  allergyIds: string[];
  coverages: Record<string, CoverageState>;
  accesses: Record<string, AccessState>;
  primaryAccessId: string | null;
}

export const initialPatientState: PatientState = {
  exists: false,
  status: 'active',
  demographics: null,
  dryWeightKg: null,
  dryWeights: [],
  serology: [],
  isolation: [],
  allergySubstances: [],
  allergyIds: [],
  coverages: {},
  accesses: {},
  primaryAccessId: null,
};

/** Case-, accent- and spacing-insensitive key of a free-text term (allergy substances). */
export function termKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function applyPatch<T extends PatientDemographics>(current: T, patch: DemographicsPatch): T {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch) as [CorrectableField, unknown][]) {
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as T;
}

export function evolvePatient(state: PatientState, event: PatientEvent): PatientState {
  switch (event.type) {
    case 'PatientRegistered': {
      const { patientId: _id, status, dryWeightKg, allergies, serology, isolation, coverages, ...demographics } = event.data;
      return {
        ...initialPatientState,
        exists: true,
        status,
        demographics,
        dryWeightKg: dryWeightKg ?? null,
        dryWeights: dryWeightKg !== undefined ? [{ dryWeightKg, effectiveDate: demographics.admissionDate }] : [],
        serology,
        isolation,
        allergySubstances: allergies.map((a) => termKey(a.substance)),
        allergyIds: allergies.map((a) => a.allergyId),
        coverages: Object.fromEntries(coverages.map((c) => [c.coverageId, { validFrom: c.validFrom, validTo: c.validTo, ended: false }])),
      };
    }
    case 'PatientDataCorrected':
      return state.demographics ? { ...state, demographics: applyPatch(state.demographics, event.data.changes) } : state;
    case 'PatientStatusChanged':
      return { ...state, status: event.data.status };
    case 'DryWeightPrescribed':
      return {
        ...state,
        // The current one is the latest effective (a back-dated one does not replace a later one).
        dryWeightKg: state.dryWeights.some((w) => w.effectiveDate > event.data.effectiveDate) ? state.dryWeightKg : event.data.dryWeightKg,
        dryWeights: [...state.dryWeights, { dryWeightKg: event.data.dryWeightKg, effectiveDate: event.data.effectiveDate }],
      };
    case 'SerologyRecorded':
      return { ...state, serology: [...state.serology, event.data] };
    case 'PatientIsolationChanged':
      return { ...state, isolation: event.data.isolation };
    case 'AllergyRecorded':
      return {
        ...state,
        allergySubstances: [...state.allergySubstances, termKey(event.data.substance)],
        allergyIds: [...state.allergyIds, event.data.allergyId],
      };
    case 'CoverageAdded': {
      const c = event.data;
      return { ...state, coverages: { ...state.coverages, [c.coverageId]: { validFrom: c.validFrom, validTo: c.validTo, ended: false } } };
    }
    case 'CoverageEnded': {
      const c = state.coverages[event.data.coverageId];
      if (!c) return state;
      return { ...state, coverages: { ...state.coverages, [event.data.coverageId]: { ...c, validTo: event.data.endDate, ended: true } } };
    }
    case 'VascularAccessCreated': {
      const a = event.data;
      const access: AccessState = {
        type: a.type,
        status: a.status,
        creationDate: a.creationDate,
        firstCannulationDate: a.firstCannulationDate,
      };
      return { ...state, accesses: { ...state.accesses, [a.accessId]: access } };
    }
    case 'VascularAccessStatusChanged': {
      const a = state.accesses[event.data.accessId];
      if (!a) return state;
      const updated: AccessState = {
        ...a,
        status: event.data.status,
        firstCannulationDate: event.data.firstCannulationDate ?? a.firstCannulationDate,
      };
      // Only an active access can be primary: a failed or removed one gives the mark up.
      const losesPrimary = state.primaryAccessId === event.data.accessId && event.data.status !== 'active';
      return {
        ...state,
        accesses: { ...state.accesses, [event.data.accessId]: updated },
        primaryAccessId: losesPrimary ? null : state.primaryAccessId,
      };
    }
    case 'VascularAccessPrimaryDesignated':
      return { ...state, primaryAccessId: event.data.accessId };
  }
}
