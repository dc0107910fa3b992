// JSON Schemas of the company policy, built from the ranges the decider checks (POLICY_RANGES), so the contract and
// the rules cannot drift. The PUT body is the same shape with nothing required: a partial change.
import type { JsonSchema } from '../../routeTypes.js';
import { freeText } from '../../commonSchemas.js';
import {
  ISOLATION_CATEGORIES,
  MAX_MODEL_OVERRIDES,
  MODEL_NAME_MAX_LENGTH,
  OVERDUE_MODES,
  POLICY_RANGES,
} from '../../../commands/empresas/shared/policySettings.js';

function num(pointer: string, description: string, nullable = false): JsonSchema {
  const range = POLICY_RANGES[pointer]!;
  const type = range.integer ? 'integer' : 'number';
  return {
    type: nullable ? [type, 'null'] : type,
    minimum: range.min,
    maximum: range.max,
    description: `${description} (${range.min}-${range.max} ${range.unit}${nullable ? '; null = not used' : ''})`,
  };
}
const bool = (description: string): JsonSchema => ({ type: 'boolean', description });
const model: JsonSchema = { type: 'string', minLength: 1, maxLength: MODEL_NAME_MAX_LENGTH, description: 'Model name, once per list' };

/** An object of the policy; `partial` leaves every property optional (list entries stay complete). */
const group = (partial: boolean, description: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  description,
  ...(partial ? { minProperties: 1 } : { required: Object.keys(properties) }),
  properties,
});

/** A list of complete entries; `optional` names the entry properties that may be left out. */
const list = (item: Record<string, JsonSchema>, description: string, optional: string[] = []): JsonSchema => ({
  type: 'array',
  maxItems: MAX_MODEL_OVERRIDES,
  description: `${description}; a change replaces the whole list`,
  items: {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(item).filter((k) => !optional.includes(k)),
    properties: item,
  },
});

function policySchema(partial: boolean): JsonSchema {
  const g = (description: string, properties: Record<string, JsonSchema>) => group(partial, description, properties);
  return g(partial ? 'The settings to change; what is left out stays as it is' : 'The company policy', {
    dialyzerReuse: g('Dialyzer reprocessing (domain: AAMI RD47, KDOQI)', {
      defaultMaxUses: num('/dialyzerReuse/defaultMaxUses', 'Maximum uses of a dialyzer whose model is not listed (1 = single use)'),
      modelOverrides: list(
        { model, maxUses: num('/dialyzerReuse/modelOverrides/*/maxUses', 'Maximum uses of this model') },
        'Maximum uses per dialyzer model',
      ),
      tcvThresholdPercent: num('/dialyzerReuse/tcvThresholdPercent', 'Discard when TCV falls below this % of the baseline'),
      hbsagPositiveReuse: bool('Whether dialyzers of HBsAg-positive patients may be reprocessed'),
      storageMaxDays: num('/dialyzerReuse/storageMaxDays', 'Longest storage of a reprocessed dialyzer'),
      germicideMinDwellHours: num(
        '/dialyzerReuse/germicideMinDwellHours',
        'Minimum germicide dwell before use, for a germicide not listed',
      ),
      germicideOverrides: list(
        {
          germicide: { ...model, description: 'Germicide name; also matches recorded names it begins (formaldehyde ~ Formaldehyde 4 %)' },
          minDwellHours: num('/dialyzerReuse/germicideOverrides/*/minDwellHours', 'Minimum dwell of this germicide'),
        },
        'Minimum dwell per germicide (domain: formaldehyde 4 % 24 h; peracetic acid 11 h)',
      ),
    }),
    bloodlineReuse: g('Bloodline reuse (off unless the company enables it)', {
      enabled: bool('Whether bloodlines may be reused'),
      maxUses: num('/bloodlineReuse/maxUses', 'Maximum uses of a bloodline'),
    }),
    maintenance: g('Preventive maintenance of machines: due at the interval in hours or in days, whichever comes first', {
      preventiveEveryHours: num('/maintenance/preventiveEveryHours', 'Operating hours between preventive maintenances', true),
      preventiveEveryDays: num('/maintenance/preventiveEveryDays', 'Days between preventive maintenances', true),
      calibrationEveryDays: num(
        '/maintenance/calibrationEveryDays',
        'Days between calibrations (null: none due; overdueMode applies)',
        true,
      ),
      overdueMode: {
        enum: [...OVERDUE_MODES],
        description: 'An overdue machine: block refuses the session, warn allows it with a warning',
      },
      modelOverrides: list(
        {
          model,
          preventiveEveryHours: num('/maintenance/modelOverrides/*/preventiveEveryHours', 'Operating hours between maintenances', true),
          preventiveEveryDays: num('/maintenance/modelOverrides/*/preventiveEveryDays', 'Days between maintenances', true),
          calibrationEveryDays: num('/maintenance/modelOverrides/*/calibrationEveryDays', 'Days between calibrations of this model', true),
        },
        'Manufacturer plans per machine model, replacing the general plan for that model (at least one interval each; without calibrationEveryDays the general one applies)',
        ['calibrationEveryDays'],
      ),
    }),
    disinfection: g('Disinfection', {
      requiredBetweenPatients: bool('A station and its machine must be disinfected between two patients'),
    }),
    isolation: g('Isolation machines', {
      dedicatedMachineFor: {
        type: 'array',
        uniqueItems: true,
        items: { enum: [...ISOLATION_CATEGORIES] },
        description:
          'Infections whose patients are dialysed only on a machine serving them (default HBV: HBsAg+ -> isolation machine); ' +
          'e.g. add HCV when the unit dedicates machines to HCV too',
      },
    }),
    records: g('Signed records', {
      signedEditWindowHours: num('/records/signedEditWindowHours', 'Hours after signing a record may still be edited (then only addenda)'),
    }),
    sessionLimits: g('Clinical maximums of one dialysis session: one entry more answers 409 session-limit-reached naming the limit', {
      readings: num('/sessionLimits/readings', 'Intradialytic readings per session (default 300: one a minute for 5 h)'),
      complications: num('/sessionLimits/complications', 'Complications per session'),
      medications: num('/sessionLimits/medications', 'Medications recorded per session'),
      pauses: num('/sessionLimits/pauses', 'Pauses per session'),
      amendments: num('/sessionLimits/amendments', 'Amendments of a signed session'),
      addenda: num('/sessionLimits/addenda', 'Addenda of a signed session'),
    }),
    adequacy: g('Adequacy and safety flags (KDOQI)', {
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
    shifts: g('Shifts', {
      defaultCapacity: num('/shifts/defaultCapacity', 'Patients per shift unless the shift says otherwise'),
      patientsPerNurse: num('/shifts/patientsPerNurse', 'Patients one nurse may be assigned in a shift'),
    }),
    staff: g('Staff', {
      licenceWarningDays: num('/staff/licenceWarningDays', 'Days before a licence expires when it is flagged'),
    }),
  });
}

export const PolicySettingsSchema = policySchema(false);

export const ChangePolicyBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['settings', 'reason'],
  description:
    'A partial change: objects merge key by key, values and lists replace what they name (send a whole list to change it). ' +
    'Ranges are checked per field, and across fields (ktvTarget >= ktvMinimum, a maintenance plan needs hours or days, a model once per list).',
  properties: {
    settings: { ...policySchema(true), minProperties: 0 },
    reason: freeText(500, 'Why the policy changes: recorded with the event and shown in the history'),
  },
};

export const PolicyView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['revision', 'settings', 'updatedAt', 'updatedBy'],
  properties: {
    revision: { type: 'integer', minimum: -1, description: 'The ETag; -1 while the defaults apply and nothing is recorded' },
    settings: PolicySettingsSchema,
    updatedAt: { type: ['string', 'null'], format: 'date-time' },
    updatedBy: { type: ['string', 'null'], description: 'User id of the last change' },
  },
};

export const PolicyHistoryEntry: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['revision', 'type', 'occurredAt', 'actor', 'reason', 'correlationId', 'policyRevision', 'changes'],
  properties: {
    revision: { type: 'integer', minimum: 0, description: 'Revision this event produced' },
    type: { enum: ['PolicyAdopted', 'PolicyChanged'] },
    occurredAt: { type: 'string', format: 'date-time', description: 'When' },
    actor: { type: 'string', description: 'Who: user id (or system)' },
    reason: { type: ['string', 'null'], description: 'Why' },
    correlationId: { type: 'string' },
    policyRevision: { type: 'integer', minimum: -1, description: 'The revision it replaced (-1: the defaults)' },
    changes: {
      type: 'array',
      description: 'The fields changed (JSON pointers into settings) with their values before and after',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'from', 'to'],
        properties: { path: { type: 'string' }, from: {}, to: {} },
      },
    },
  },
};
