// The derived clinical values of a session, its flags and the monthly adequacy, as clients see them.
import type { JsonSchema } from '../../routeTypes.js';
import { CLINICAL_FLAG_CODES } from '../../../commands/dialisis/clinical/clinicalFlags.js';
import { obj } from './sessionSchemas.js';

const value = (description: string): JsonSchema => ({ type: ['number', 'null'], description });

const DERIVED: Record<string, string> = {
  netPreWeightKg: 'Scale weight less wheelchair and clothes, before',
  netPostWeightKg: 'Scale weight less wheelchair and clothes, after',
  idwgKg: "Interdialytic weight gain: net pre-weight less the previous session's net post-weight",
  idwgPercentOfDryWeight: 'IDWG as a percentage of the dry weight',
  ufGoalL: 'UF goal: net pre-weight less dry weight plus fluids to give (L)',
  achievedUfL: 'Net pre-weight less net post-weight plus intake (L)',
  machineUfL: 'UF the machine reports (L)',
  ufDifferenceL: 'Achieved less machine UF (L)',
  ufDifferencePercent: 'Achieved less machine UF, % of the machine UF',
  ufRateMlKgH: 'Achieved UF (mL) per kg of net post-weight per treatment hour',
  urrPercent: 'Urea reduction ratio: (pre - post BUN) / pre BUN x 100',
  spKtV: 'Single-pool Kt/V, Daugirdas second generation (1993)',
  eKtV: 'Equilibrated Kt/V, rate equation (AV access or catheter)',
};

export const DerivedView: JsonSchema = obj({
  ...Object.fromEntries(Object.entries(DERIVED).map(([k, d]) => [k, value(d)])),
  notComputed: { type: 'object', additionalProperties: { type: 'string' }, description: 'Why each null value is null' },
});

export const FlagView: JsonSchema = obj(
  {
    code: { enum: [...CLINICAL_FLAG_CODES] },
    field: { type: 'string', description: "The derived value's name, or where in the session (readings/2/pulse)" },
    value: { type: 'number' },
    threshold: { type: 'number' },
    minimumMinutes: {
      type: 'integer',
      description: 'expected-uf-rate-above-maximum only: treatment minutes that keep the UF goal under the threshold',
    },
  },
  ['code', 'field', 'value', 'threshold'],
);

export const ClinicalView: JsonSchema = {
  ...obj({ derived: DerivedView, flags: { type: 'array', items: FlagView } }),
  description: 'Computed from the record when read (the company thresholds in force); flags never block',
};
