// The company policy: clinical and administrative settings that other groups' deciders receive as an argument
// (architecture.md, Company policy). Defaults and ranges follow domain.md 2.10-2.13 and 3.3-3.8.

export type OverdueMode = 'block' | 'warn';
/** An infection a machine may be dedicated to (as a patient's serology implies it). */
export type IsolationCategory = 'HBV' | 'HCV' | 'HIV';
export const ISOLATION_CATEGORIES: readonly IsolationCategory[] = ['HBV', 'HCV', 'HIV'];

export interface DialyzerModelLimit {
  model: string;
  maxUses: number;
}

export interface GermicideDwell {
  /** Germicide name as reprocessing records it; matches that name or a name it begins ('formaldehyde' ~ 'Formaldehyde 4 %'). */
  germicide: string;
  minDwellHours: number;
}

export interface MaintenancePlan {
  /** Operating hours between preventive maintenances; null = not by hours. */
  preventiveEveryHours: number | null;
  /** Calendar days between preventive maintenances; null = not by days. Whichever comes first is due. */
  preventiveEveryDays: number | null;
  /** Days between calibrations (domain.md 3.8: conductivity at least monthly); null = none due; on a model plan, absent = the general one. */
  calibrationEveryDays?: number | null;
}

export interface MachineModelPlan extends MaintenancePlan {
  model: string;
}

/** The policy as a decision takes it: its revision (recorded in the event it decides) and its settings. */
export interface PolicyFacts {
  revision: number;
  settings: CompanyPolicy;
}

export interface CompanyPolicy {
  dialyzerReuse: {
    /** Maximum uses of a dialyzer whose model has no override (1 = single use). */
    defaultMaxUses: number;
    /** Per-model maximum uses (manufacturer labelling), one entry per model. */
    modelOverrides: DialyzerModelLimit[];
    /** Discard when TCV falls below this % of the baseline. */
    tcvThresholdPercent: number;
    /** Whether dialyzers of HBsAg-positive patients may be reprocessed. */
    hbsagPositiveReuse: boolean;
    /** Longest a reprocessed dialyzer may be stored before use. */
    storageMaxDays: number;
    /** Minimum germicide dwell before a reprocessed dialyzer may be used, for a germicide not listed below. */
    germicideMinDwellHours: number;
    /** Per-germicide minimum dwell (e.g. formaldehyde 4 %: 24 h), one entry per germicide. */
    germicideOverrides: GermicideDwell[];
  };
  bloodlineReuse: {
    enabled: boolean;
    maxUses: number;
  };
  maintenance: MaintenancePlan & {
    /** What an overdue machine does at session start: refuse it, or allow it with a warning. */
    overdueMode: OverdueMode;
    /** Per-model plans (manufacturer intervals), replacing the general one for that model. */
    modelOverrides: MachineModelPlan[];
  };
  disinfection: {
    /** A station and its machine must be disinfected between two patients. */
    requiredBetweenPatients: boolean;
  };
  isolation: {
    /** Infections whose patients are dialysed only on a machine serving them (domain.md: HBsAg+ -> isolation machine). */
    dedicatedMachineFor: IsolationCategory[];
  };
  records: {
    /** Hours after signing during which a signed record may still be edited (0 = never; afterwards only addenda). */
    signedEditWindowHours: number;
  };
  /** Clinical maximums of one dialysis session record (its read-model document stays far below 16 MiB). */
  sessionLimits: {
    /** Intradialytic readings (default 300: one a minute for 5 h). */
    readings: number;
    complications: number;
    medications: number;
    pauses: number;
    /** Amendments after signing. */
    amendments: number;
    addenda: number;
  };
  adequacy: {
    /** UF rate above this (mL/kg/h) is flagged. */
    ufRateThresholdMlKgH: number;
    /** spKt/V below this is flagged. */
    ktvMinimum: number;
    /** spKt/V the unit aims for; never below the minimum. */
    ktvTarget: number;
    /** URR (%) below this is flagged. */
    urrMinimumPercent: number;
    /** Below this effective treatment time (min) the session's kinetics are withheld as not plausible. */
    kineticsMinimumMinutes: number;
    /** IDWG is computed only when the previous session ended at most this many days before. */
    idwgWindowDays: number;
  };
  shifts: {
    /** Patients per shift when a shift does not say otherwise. */
    defaultCapacity: number;
    /** Patients one nurse may be assigned in a shift (1 nurse : N patients). */
    patientsPerNurse: number;
  };
  staff: {
    /** Days before a professional licence expires when it starts being flagged. */
    licenceWarningDays: number;
  };
  /** How long each type of record is kept (RETENTION_RECORD_TYPES says what each covers and from when it counts). */
  retention: Record<RetentionSetting, number>;
}

export type RetentionSetting =
  | 'clinicalRecordsYears'
  | 'auditEntriesYears'
  | 'equipmentRecordsYears'
  | 'billingRecordsYears'
  | 'staffRecordsYears'
  | 'inventoryRecordsYears';

export interface RetentionRecordType {
  setting: RetentionSetting;
  /** The default, and the floor a company may not go below. */
  legalMinimumYears: number;
  /** What the type keeps (stream categories and record kinds). */
  covers: string;
  /** When the period starts. */
  countedFrom: string;
}

/**
 * What is kept and for how long. domain.md names no periods: these are common clinical-record law defaults [G]
 * (clinical records 15 years after the last encounter; their audit at least as long; billing, staff 10; stock 5).
 * Nothing is ever erased by a route; a future purge job must respect these periods and any legal hold on the patient.
 */
export const RETENTION_RECORD_TYPES: readonly RetentionRecordType[] = [
  {
    setting: 'clinicalRecordsYears',
    legalMinimumYears: 15,
    covers: 'patients, notes, sessions, prescriptions',
    countedFrom: 'last encounter',
  },
  { setting: 'auditEntriesYears', legalMinimumYears: 15, covers: 'who read or changed what', countedFrom: 'the entry' },
  { setting: 'equipmentRecordsYears', legalMinimumYears: 15, covers: 'reprocessing, machines', countedFrom: 'last use' },
  { setting: 'billingRecordsYears', legalMinimumYears: 10, covers: 'contracts, authorizations', countedFrom: 'their end' },
  { setting: 'staffRecordsYears', legalMinimumYears: 10, covers: 'staff, licences', countedFrom: 'end of employment' },
  { setting: 'inventoryRecordsYears', legalMinimumYears: 5, covers: 'stock movements', countedFrom: 'the movement' },
];

/** Longest period a company may set. */
export const RETENTION_MAX_YEARS = 100;

/** Frozen all the way down: every company starts from these, none may change them in place. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export const DEFAULT_POLICY: CompanyPolicy = deepFreeze<CompanyPolicy>({
  dialyzerReuse: {
    defaultMaxUses: 15,
    modelOverrides: [],
    tcvThresholdPercent: 80,
    hbsagPositiveReuse: false,
    storageMaxDays: 30,
    germicideMinDwellHours: 11,
    germicideOverrides: [{ germicide: 'formaldehyde', minDwellHours: 24 }],
  },
  bloodlineReuse: { enabled: false, maxUses: 12 },
  maintenance: { preventiveEveryHours: 1500, preventiveEveryDays: 180, calibrationEveryDays: 30, overdueMode: 'block', modelOverrides: [] },
  disinfection: { requiredBetweenPatients: true },
  isolation: { dedicatedMachineFor: ['HBV'] },
  records: { signedEditWindowHours: 24 },
  sessionLimits: { readings: 300, complications: 50, medications: 50, pauses: 20, amendments: 100, addenda: 50 },
  adequacy: {
    ufRateThresholdMlKgH: 13,
    ktvMinimum: 1.2,
    ktvTarget: 1.4,
    urrMinimumPercent: 65,
    kineticsMinimumMinutes: 120,
    idwgWindowDays: 4,
  },
  shifts: { defaultCapacity: 20, patientsPerNurse: 4 },
  staff: { licenceWarningDays: 30 },
  retention: Object.fromEntries(RETENTION_RECORD_TYPES.map((t) => [t.setting, t.legalMinimumYears])) as Record<RetentionSetting, number>,
});

export interface NumberRange {
  min: number;
  max: number;
  integer: boolean;
  unit: string;
}

const int = (min: number, max: number, unit: string): NumberRange => ({ min, max, integer: true, unit });
const dec = (min: number, max: number, unit: string): NumberRange => ({ min, max, integer: false, unit });

/**
 * Accepted range of every number, by JSON pointer into the settings ('*' = any entry of a list). The request schema
 * is built from this table and the decider checks it again, so a command is refused the same way from anywhere.
 */
export const POLICY_RANGES: Readonly<Record<string, NumberRange>> = {
  '/dialyzerReuse/defaultMaxUses': int(1, 50, 'uses'),
  '/dialyzerReuse/modelOverrides/*/maxUses': int(1, 50, 'uses'),
  '/dialyzerReuse/tcvThresholdPercent': dec(50, 100, '%'),
  '/dialyzerReuse/storageMaxDays': int(1, 90, 'days'),
  '/dialyzerReuse/germicideMinDwellHours': dec(1, 48, 'h'),
  '/dialyzerReuse/germicideOverrides/*/minDwellHours': dec(1, 48, 'h'),
  '/bloodlineReuse/maxUses': int(1, 50, 'uses'),
  '/maintenance/preventiveEveryHours': int(50, 10_000, 'h'),
  '/maintenance/preventiveEveryDays': int(7, 730, 'days'),
  '/maintenance/modelOverrides/*/preventiveEveryHours': int(50, 10_000, 'h'),
  '/maintenance/modelOverrides/*/preventiveEveryDays': int(7, 730, 'days'),
  '/maintenance/calibrationEveryDays': int(1, 365, 'days'),
  '/maintenance/modelOverrides/*/calibrationEveryDays': int(1, 365, 'days'),
  '/records/signedEditWindowHours': int(0, 168, 'h'),
  // The upper bounds keep the largest possible session document far below MongoDB's 16 MiB (sessionDocBound.test.ts).
  '/sessionLimits/readings': int(1, 480, 'readings'),
  '/sessionLimits/complications': int(1, 60, 'complications'),
  '/sessionLimits/medications': int(1, 100, 'medications'),
  '/sessionLimits/pauses': int(1, 50, 'pauses'),
  '/sessionLimits/amendments': int(1, 100, 'amendments'),
  '/sessionLimits/addenda': int(1, 60, 'addenda'),
  '/adequacy/ufRateThresholdMlKgH': dec(5, 20, 'mL/kg/h'),
  '/adequacy/ktvMinimum': dec(0.8, 2, 'spKt/V'),
  '/adequacy/ktvTarget': dec(0.8, 3, 'spKt/V'),
  '/adequacy/urrMinimumPercent': dec(50, 90, '%'),
  '/adequacy/kineticsMinimumMinutes': int(30, 480, 'min'),
  '/adequacy/idwgWindowDays': int(1, 14, 'days'),
  '/shifts/defaultCapacity': int(1, 200, 'patients'),
  '/shifts/patientsPerNurse': int(1, 20, 'patients'),
  '/staff/licenceWarningDays': int(0, 365, 'days'),
  ...Object.fromEntries(
    RETENTION_RECORD_TYPES.map((t) => [`/retention/${t.setting}`, int(t.legalMinimumYears, RETENTION_MAX_YEARS, 'years')]),
  ),
};

/** Longest list of per-model overrides (the policy document stays small). */
export const MAX_MODEL_OVERRIDES = 100;
export const MODEL_NAME_MAX_LENGTH = 100;
export const OVERDUE_MODES: readonly OverdueMode[] = ['block', 'warn'];

/**
 * A policy as an event recorded it, with every setting added since then at its default: events are never rewritten,
 * so old policies are read forward (upcast) when folded.
 */
export function withDefaultsForNewSettings(recorded: CompanyPolicy): CompanyPolicy {
  const out: Record<string, unknown> = {};
  for (const [group, defaults] of Object.entries(DEFAULT_POLICY)) {
    out[group] = { ...(defaults as object), ...((recorded as unknown as Record<string, object | undefined>)[group] ?? {}) };
  }
  return out as unknown as CompanyPolicy;
}

/** A partial policy as PUT sends it: objects are merged key by key, lists and values replace what they name. */
export type PolicyPatch = {
  [K in keyof CompanyPolicy]?: Partial<CompanyPolicy[K]>;
};
