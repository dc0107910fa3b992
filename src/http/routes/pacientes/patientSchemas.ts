// JSON Schemas of what clients send to /pacientes, declared once with TypeBox. Plain ranges live here (domain.md 2.12);
// rules that need the clock or another field (dates not in the future, one decimal, date order) live in the decider.
import Type, { type TSchema } from 'typebox';
import { DateSchema, DateTimeSchema, IdSchema, nullable, ReasonSchema, text } from '../shared/fieldSchemas.js';

export { DateSchema, DateTimeSchema, IdSchema, ReasonSchema, text };
import {
  ACCESS_SIDES,
  ACCESS_TYPES,
  ALLERGY_SEVERITIES,
  BLOOD_GROUPS,
  DOCUMENT_TYPES,
  PATIENT_STATUSES,
  RH_FACTORS,
  SEROLOGY_RESULTS,
  SEROLOGY_TESTS,
  SEXES,
} from '../../../commands/pacientes/patientTypes.js';
import { MAX_WEIGHT_KG, MIN_WEIGHT_KG } from '../../../commands/pacientes/fieldRules.js';

const strict = { additionalProperties: false } as const;
const date = (description: string) => Type.String({ format: 'date', description });
const defaultToday = date('Default: today');

const PhoneSchema = Type.String({
  pattern: '^\\+?[0-9][0-9 ()\\-]{5,24}$',
  description: 'Digits, spaces, dashes, parentheses; optional leading +',
});
export const WeightSchema = Type.Number({
  minimum: MIN_WEIGHT_KG,
  maximum: MAX_WEIGHT_KG,
  description: `kg, ${MIN_WEIGHT_KG}-${MAX_WEIGHT_KG}, at most one decimal`,
});

export const ContactSchema = Type.Object(
  {
    phone: Type.Optional(PhoneSchema),
    mobilePhone: Type.Optional(PhoneSchema),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  },
  strict,
);
export const AddressSchema = Type.Object(
  {
    line: text(200),
    district: Type.Optional(text(100)),
    city: Type.Optional(text(100)),
    region: Type.Optional(text(100)),
    country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })),
    postalCode: Type.Optional(text(20)),
  },
  strict,
);
export const EmergencyContactSchema = Type.Object({ name: text(150), relationship: Type.Optional(text(50)), phone: PhoneSchema }, strict);

export const AllergyInputSchema = Type.Object(
  {
    substance: text(100),
    reaction: Type.Optional(text(200)),
    severity: Type.Optional(Type.Enum(ALLERGY_SEVERITIES)),
    notedDate: Type.Optional(DateSchema),
  },
  strict,
);
export const SerologyInputSchema = Type.Object(
  {
    test: Type.Enum(SEROLOGY_TESTS),
    result: Type.Enum(SEROLOGY_RESULTS),
    sampleDate: DateSchema,
    titer: Type.Optional(Type.Number({ minimum: 0, maximum: 100000, description: 'anti-HBs titre, mIU/mL' })),
    laboratory: Type.Optional(text(150)),
  },
  strict,
);
export const CoverageInputSchema = Type.Object(
  {
    clientId: Type.Optional(text(64, 'Id of the payer in Clientes')),
    payerName: Type.Optional(text(150)),
    memberNumber: text(50),
    plan: Type.Optional(text(100)),
    validFrom: DateSchema,
    validTo: Type.Optional(DateSchema),
    authorizationCode: Type.Optional(text(50)),
  },
  { ...strict, description: 'Coverage by a payer: clientId (a registered client) or payerName is required' },
);

/** The demographics a registration requires (and a correction may change, never clear). */
const requiredDemographics = {
  documentType: Type.Enum(DOCUMENT_TYPES),
  documentNumber: Type.String({
    minLength: 1,
    maxLength: 32,
    pattern: '^[A-Za-z0-9][A-Za-z0-9 .\\-/]*$',
    description: 'Unique per company and type, compared ignoring case, spaces, dots and dashes',
  }),
  givenNames: text(100),
  familyNames: text(100),
  sex: Type.Enum(SEXES),
  birthDate: date('Not in the future, at most 130 years ago'),
  admissionDate: date('Not in the future, not before birth'),
};
/** The demographics a registration may leave out (and a correction may clear with null). */
const optionalDemographics = {
  contact: ContactSchema,
  address: AddressSchema,
  emergencyContact: EmergencyContactSchema,
  bloodGroup: Type.Enum(BLOOD_GROUPS),
  rhFactor: Type.Enum(RH_FACTORS),
  dialysisStartDate: DateSchema,
  etiology: text(200, 'Cause of kidney failure'),
  comorbidities: Type.Array(text(200), { maxItems: 50 }),
};
type Optionals<P extends Record<string, TSchema>> = { [K in keyof P]: ReturnType<typeof Type.Optional<P[K]>> };
type Clearable<P extends Record<string, TSchema>> = { [K in keyof P]: ReturnType<typeof Type.Optional<ReturnType<typeof nullable<P[K]>>>> };
const optional = <P extends Record<string, TSchema>>(props: P) =>
  Object.fromEntries(Object.entries(props).map(([k, s]) => [k, Type.Optional(s)])) as Optionals<P>;
const clearable = <P extends Record<string, TSchema>>(props: P) =>
  Object.fromEntries(Object.entries(props).map(([k, s]) => [k, Type.Optional(nullable(s))])) as Clearable<P>;

export const RegisterPatientBody = Type.Object(
  {
    ...requiredDemographics,
    ...optional(optionalDemographics),
    dryWeightKg: Type.Optional(WeightSchema),
    allergies: Type.Optional(Type.Array(AllergyInputSchema, { maxItems: 50 })),
    serology: Type.Optional(Type.Array(SerologyInputSchema, { maxItems: 50 })),
    coverages: Type.Optional(Type.Array(CoverageInputSchema, { maxItems: 10 })),
  },
  strict,
);

export const CorrectPatientBody = Type.Object(
  { ...optional(requiredDemographics), ...clearable(optionalDemographics), reason: Type.Optional(ReasonSchema) },
  {
    ...strict,
    minProperties: 1,
    description:
      'Only the fields sent change; null clears an optional field. Status, dry weight, serology, allergies, coverage and accesses have their own routes.',
  },
);

export const ChangeStatusBody = Type.Object(
  { status: Type.Enum(PATIENT_STATUSES), reason: ReasonSchema, effectiveDate: Type.Optional(defaultToday) },
  strict,
);

export const DryWeightBody = Type.Object(
  {
    dryWeightKg: WeightSchema,
    effectiveDate: Type.Optional(defaultToday),
    prescribedBy: Type.Optional(text(150)),
    reason: Type.Optional(ReasonSchema),
  },
  strict,
);

export const EndCoverageBody = Type.Object({ endDate: DateSchema, reason: ReasonSchema }, strict);

export const CreateAccessBody = Type.Object(
  {
    type: Type.Enum(ACCESS_TYPES),
    side: Type.Enum(ACCESS_SIDES),
    site: text(100, 'Anatomic site, e.g. radiocephalic, brachiobasilic, internal jugular'),
    creationDate: DateSchema,
    surgeon: Type.Optional(text(150)),
    institution: Type.Optional(text(150)),
    firstCannulationDate: Type.Optional(DateSchema),
    status: Type.Optional(Type.Enum(['maturing', 'active'], { description: 'Default: maturing for AVF/AVG, active for catheters' })),
    primary: Type.Optional(Type.Boolean({ description: 'Make this (active) access the primary one; default: only when none is' })),
  },
  strict,
);

export const AccessStatusBody = Type.Object(
  {
    status: Type.Enum(['active', 'failed', 'removed']),
    date: DateSchema,
    reason: Type.Optional(ReasonSchema),
    firstCannulationDate: Type.Optional(date('On activation of a fistula or graft; default: date')),
    primary: Type.Optional(Type.Boolean()),
  },
  {
    ...strict,
    description:
      'maturing -> active | failed | removed; active -> failed | removed; failed -> removed. A reason is required for failed and removed.',
  },
);
