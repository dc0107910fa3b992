// The derived clinical values of a session, its flags and the monthly adequacy, as clients see them.
import Type, { type TNull, type TNumber, type TUnion } from 'typebox';
import { CLINICAL_FLAG_CODES } from '../../../commands/dialisis/shared/clinicalFlags.js';
import { obj } from './schemaParts.js';

const value = (description: string): TUnion<[TNumber, TNull]> => Type.Union([Type.Number(), Type.Null()], { description });

const DERIVED: Record<string, string> = {
  netPreWeightKg: 'Scale weight less wheelchair and clothes, before',
  netPostWeightKg: 'Scale weight less wheelchair and clothes, after',
  idwgKg: "Interdialytic weight gain: net pre-weight less the previous session's net post-weight",
  idwgPercentOfDryWeight: 'IDWG as a percentage of the dry weight',
  interdialyticHours: "Hours from the previous session's end to this session's start (the IDWG's interval)",
  ufGoalL: 'UF goal: net pre-weight less dry weight plus fluids to give (L)',
  achievedUfL: 'Net pre-weight less net post-weight plus intake (L)',
  machineUfL: 'UF the machine reports (L)',
  ufDifferenceL: 'Achieved less machine UF (L)',
  ufDifferencePercent: 'Achieved less machine UF, % of the machine UF',
  ufRateMlKgH: 'Achieved UF (mL) per kg of net post-weight per treatment hour',
  urrPercent: 'Urea reduction ratio: (pre - post BUN) / pre BUN x 100',
  spKtV: 'Single-pool Kt/V, Daugirdas second generation (1993)',
  eKtV: 'Equilibrated Kt/V, rate equation (AV access or catheter)',
  stdKtV:
    'Weekly standard Kt/V (FHN/Leypoldt, KDOQI 2015) at the prescribed sessions a week, plus residual urea clearance when the prescription records it',
  nPcrGKgDay: 'nPCR (g/kg/day) from the same BUN pair (Depner & Daugirdas 1996)',
};

export const DerivedView = obj({
  ...(Object.fromEntries(Object.entries(DERIVED).map(([k, d]) => [k, value(d)])) as Record<string, ReturnType<typeof value>>),
  longInterval: Type.Union([Type.Boolean(), Type.Null()], { description: 'The interval is the long one of the week (56 h or more)' }),
  notComputed: Type.Object(
    {},
    {
      additionalProperties: Type.String(),
      description:
        'Why each null value is null, e.g. short-session (effective time below the policy kineticsMinimumMinutes: URR, Kt/V ' +
        'and UF rate withheld), interrupted (URR and Kt/V withheld), previous-session-too-long-ago (IDWG beyond idwgWindowDays)',
    },
  ),
});

export const FlagView = obj(
  {
    code: Type.Enum(CLINICAL_FLAG_CODES),
    field: Type.String({ description: "The derived value's name, or where in the session (readings/2/pulse)" }),
    value: Type.Number(),
    threshold: Type.Number(),
    minimumMinutes: Type.Integer({
      description: 'expected-uf-rate-above-maximum only: treatment minutes that keep the UF goal under the threshold',
    }),
  },
  ['code', 'field', 'value', 'threshold'],
);

export const ClinicalView = obj(
  {
    derived: DerivedView,
    flags: Type.Array(FlagView),
    judgedAt: Type.String({ format: 'date-time', description: 'Present on a signed record: when these were judged' }),
    policyRevision: Type.Integer({ description: 'Present on a signed record: the company policy revision that judged them' }),
  },
  ['derived', 'flags'],
  {
    description:
      'A signed record answers the values and flags judged at signing (or at its last amendment), whatever changed since; ' +
      'before signing, computed from the record when read (the access used, the company thresholds in force); flags never block',
  },
);
