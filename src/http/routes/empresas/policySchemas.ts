// JSON Schemas of the company policy, built from the ranges the decider checks (POLICY_RANGES), so the contract and
// the rules cannot drift; declared once with TypeBox. The PUT body is the same shape with nothing required: a partial change.
import Type, { type TProperties, type TUnsafe } from 'typebox';
import { freeText } from '../../commonSchemas.js';
import { stringOrNull } from '../shared/fieldSchemas.js';
import {
  ISOLATION_CATEGORIES,
  MAX_MODEL_OVERRIDES,
  MODEL_NAME_MAX_LENGTH,
  OVERDUE_MODES,
  POLICY_RANGES,
  RETENTION_RECORD_TYPES,
  type RetentionSetting,
} from '../../../commands/empresas/shared/policySettings.js';

const rangeOf = (pointer: string, description: string, nullable: boolean) => {
  const range = POLICY_RANGES[pointer]!;
  const type = range.integer ? 'integer' : 'number';
  return {
    type: nullable ? [type, 'null'] : type,
    minimum: range.min,
    maximum: range.max,
    description: `${description} (${range.min}-${range.max} ${range.unit}${nullable ? '; null = not used' : ''})`,
  };
};
const num = (pointer: string, description: string): TUnsafe<number> => Type.Unsafe<number>(rangeOf(pointer, description, false));
const nullableNum = (pointer: string, description: string): TUnsafe<number | null> =>
  Type.Unsafe<number | null>(rangeOf(pointer, description, true));
const bool = (description: string) => Type.Boolean({ description });
const modelOptions = { minLength: 1, maxLength: MODEL_NAME_MAX_LENGTH, description: 'Model name, once per list' };
const model = Type.String(modelOptions);

/** An object of the policy: complete in the policy, every property optional (at least one) in a change. */
const section = <P extends TProperties>(description: string, properties: P) => ({
  full: Type.Object(properties, { additionalProperties: false, description }),
  partial: Type.Partial(Type.Object(properties), { additionalProperties: false, description, minProperties: 1 }),
});

/** A list of complete entries (Type.Optional marks what an entry may leave out). */
const list = <P extends TProperties>(item: P, description: string) =>
  Type.Array(Type.Object(item, { additionalProperties: false }), {
    maxItems: MAX_MODEL_OVERRIDES,
    description: `${description}; a change replaces the whole list`,
  });

/** One period per record type: its default (the legal minimum, the floor), what it keeps and from when it counts. */
const retentionFields = Object.fromEntries(
  RETENTION_RECORD_TYPES.map((t) => [
    t.setting,
    Type.Unsafe<number>({
      type: 'integer',
      minimum: t.legalMinimumYears,
      maximum: POLICY_RANGES[`/retention/${t.setting}`]!.max,
      description: `${t.covers}, from ${t.countedFrom}: default ${t.legalMinimumYears} years (legal minimum)`,
    }),
  ]),
) as Record<RetentionSetting, TUnsafe<number>>;

const sections = {
  dialyzerReuse: section('Dialyzer reprocessing (domain: AAMI RD47, KDOQI)', {
    defaultMaxUses: num('/dialyzerReuse/defaultMaxUses', 'Maximum uses of a dialyzer whose model is not listed (1 = single use)'),
    modelOverrides: list(
      { model, maxUses: num('/dialyzerReuse/modelOverrides/*/maxUses', 'Maximum uses of this model') },
      'Maximum uses per dialyzer model',
    ),
    tcvThresholdPercent: num('/dialyzerReuse/tcvThresholdPercent', 'Discard when TCV falls below this % of the baseline'),
    hbsagPositiveReuse: bool('Whether dialyzers of HBsAg-positive patients may be reprocessed'),
    storageMaxDays: num('/dialyzerReuse/storageMaxDays', 'Longest storage of a reprocessed dialyzer'),
    germicideMinDwellHours: num('/dialyzerReuse/germicideMinDwellHours', 'Minimum germicide dwell before use, for a germicide not listed'),
    germicideOverrides: list(
      {
        germicide: Type.String({
          ...modelOptions,
          description: 'Germicide name; also matches recorded names it begins (formaldehyde ~ Formaldehyde 4 %)',
        }),
        minDwellHours: num('/dialyzerReuse/germicideOverrides/*/minDwellHours', 'Minimum dwell of this germicide'),
      },
      'Minimum dwell per germicide (domain: formaldehyde 4 % 24 h; peracetic acid 11 h)',
    ),
  }),
  bloodlineReuse: section('Bloodline reuse (off unless the company enables it)', {
    enabled: bool('Whether bloodlines may be reused'),
    maxUses: num('/bloodlineReuse/maxUses', 'Maximum uses of a bloodline'),
  }),
  maintenance: section('Preventive maintenance of machines: due at the interval in hours or in days, whichever comes first', {
    preventiveEveryHours: nullableNum('/maintenance/preventiveEveryHours', 'Operating hours between preventive maintenances'),
    preventiveEveryDays: nullableNum('/maintenance/preventiveEveryDays', 'Days between preventive maintenances'),
    calibrationEveryDays: nullableNum(
      '/maintenance/calibrationEveryDays',
      'Days between calibrations (null: none due; overdueMode applies)',
    ),
    overdueMode: Type.Enum(OVERDUE_MODES, {
      description: 'An overdue machine: block refuses the session, warn allows it with a warning',
    }),
    modelOverrides: list(
      {
        model,
        preventiveEveryHours: nullableNum('/maintenance/modelOverrides/*/preventiveEveryHours', 'Operating hours between maintenances'),
        preventiveEveryDays: nullableNum('/maintenance/modelOverrides/*/preventiveEveryDays', 'Days between maintenances'),
        calibrationEveryDays: Type.Optional(
          nullableNum('/maintenance/modelOverrides/*/calibrationEveryDays', 'Days between calibrations of this model'),
        ),
      },
      'Manufacturer plans per machine model, replacing the general plan for that model (at least one interval each; without calibrationEveryDays the general one applies)',
    ),
  }),
  disinfection: section('Disinfection', {
    requiredBetweenPatients: bool('A station and its machine must be disinfected between two patients'),
  }),
  isolation: section('Isolation machines', {
    dedicatedMachineFor: Type.Array(Type.Enum(ISOLATION_CATEGORIES), {
      uniqueItems: true,
      description:
        'Infections whose patients are dialysed only on a machine serving them (default HBV: HBsAg+ -> isolation machine); ' +
        'e.g. add HCV when the unit dedicates machines to HCV too',
    }),
  }),
  records: section('Signed records', {
    signedEditWindowHours: num('/records/signedEditWindowHours', 'Hours after signing a record may still be edited (then only addenda)'),
  }),
  sessionLimits: section('Clinical maximums of one dialysis session: one entry more answers 409 session-limit-reached naming the limit', {
    readings: num('/sessionLimits/readings', 'Intradialytic readings per session (default 300: one a minute for 5 h)'),
    complications: num('/sessionLimits/complications', 'Complications per session'),
    medications: num('/sessionLimits/medications', 'Medications recorded per session'),
    pauses: num('/sessionLimits/pauses', 'Pauses per session'),
    amendments: num('/sessionLimits/amendments', 'Amendments of a signed session'),
    addenda: num('/sessionLimits/addenda', 'Addenda of a signed session'),
  }),
  adequacy: section('Adequacy and safety flags (KDOQI)', {
    ufRateThresholdMlKgH: num('/adequacy/ufRateThresholdMlKgH', 'UF rate above this is flagged'),
    ktvMinimum: num('/adequacy/ktvMinimum', 'spKt/V below this is flagged'),
    ktvTarget: num('/adequacy/ktvTarget', 'spKt/V target; not below ktvMinimum'),
    urrMinimumPercent: num('/adequacy/urrMinimumPercent', 'URR below this is flagged'),
    kineticsMinimumMinutes: num(
      '/adequacy/kineticsMinimumMinutes',
      'Below this effective treatment time the kinetics (URR, spKt/V, eKt/V, UF rate) are withheld (notComputed short-session)',
    ),
    idwgWindowDays: num('/adequacy/idwgWindowDays', 'IDWG only when the previous session ended at most this many days before'),
  }),
  shifts: section('Shifts', {
    defaultCapacity: num('/shifts/defaultCapacity', 'Patients per shift unless the shift says otherwise'),
    patientsPerNurse: num('/shifts/patientsPerNurse', 'Patients one nurse may be assigned in a shift'),
  }),
  staff: section('Staff', {
    licenceWarningDays: num('/staff/licenceWarningDays', 'Days before a licence expires when it is flagged'),
  }),
  retention: section(
    'Years records are kept (never erased by a route; a purge must also respect legal holds); audit >= clinical',
    retentionFields,
  ),
};

type Sections = typeof sections;
const mapSections = <K extends 'full' | 'partial'>(kind: K) =>
  Object.fromEntries(Object.entries(sections).map(([name, s]) => [name, s[kind]])) as { [N in keyof Sections]: Sections[N][K] };

export const PolicySettingsSchema = Type.Object(mapSections('full'), { additionalProperties: false, description: 'The company policy' });

export const ChangePolicyBody = Type.Object(
  {
    settings: Type.Partial(Type.Object(mapSections('partial')), {
      additionalProperties: false,
      description: 'The settings to change; what is left out stays as it is',
      minProperties: 0,
    }),
    reason: freeText(500, 'Why the policy changes: recorded with the event and shown in the history'),
  },
  {
    additionalProperties: false,
    description:
      'A partial change: objects merge key by key, values and lists replace what they name (send a whole list to change it). ' +
      'Ranges are checked per field, and across fields (ktvTarget >= ktvMinimum, a maintenance plan needs hours or days, a model once per list).',
  },
);

export const PolicyView = Type.Object(
  {
    revision: Type.Integer({ minimum: -1, description: 'The ETag; -1 while the defaults apply and nothing is recorded' }),
    settings: PolicySettingsSchema,
    updatedAt: stringOrNull({ format: 'date-time' }),
    updatedBy: stringOrNull({ description: 'User id of the last change' }),
  },
  { additionalProperties: false },
);

export const PolicyHistoryEntry = Type.Object(
  {
    revision: Type.Integer({ minimum: 0, description: 'Revision this event produced' }),
    type: Type.Enum(['PolicyAdopted', 'PolicyChanged']),
    occurredAt: Type.String({ format: 'date-time', description: 'When' }),
    actor: Type.String({ description: 'Who: user id (or system)' }),
    reason: stringOrNull({ description: 'Why' }),
    correlationId: Type.String(),
    policyRevision: Type.Integer({ minimum: -1, description: 'The revision it replaced (-1: the defaults)' }),
    changes: Type.Array(Type.Object({ path: Type.String(), from: Type.Unknown(), to: Type.Unknown() }, { additionalProperties: false }), {
      description: 'The fields changed (JSON pointers into settings) with their values before and after',
    }),
  },
  { additionalProperties: false },
);
