// JSON Schemas of what clients send to /pacientes. Plain ranges live here (domain.md 2.12); rules that
// need the clock or another field (dates not in the future, one decimal, date order) live in the decider.
import type { JsonSchema } from '../../routeTypes.js';
import { DateSchema, DateTimeSchema, IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';

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

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

const PhoneSchema: JsonSchema = {
  type: 'string',
  pattern: '^\\+?[0-9][0-9 ()\\-]{5,24}$',
  description: 'Digits, spaces, dashes, parentheses; optional leading +',
};
export const WeightSchema: JsonSchema = {
  type: 'number',
  minimum: MIN_WEIGHT_KG,
  maximum: MAX_WEIGHT_KG,
  description: `kg, ${MIN_WEIGHT_KG}-${MAX_WEIGHT_KG}, at most one decimal`,
};

export const ContactSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { phone: PhoneSchema, mobilePhone: PhoneSchema, email: { type: 'string', format: 'email', maxLength: 254 } },
};
export const AddressSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['line'],
  properties: {
    line: text(200),
    district: text(100),
    city: text(100),
    region: text(100),
    country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' },
    postalCode: text(20),
  },
};
export const EmergencyContactSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'phone'],
  properties: { name: text(150), relationship: text(50), phone: PhoneSchema },
};

export const AllergyInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['substance'],
  properties: { substance: text(100), reaction: text(200), severity: { enum: [...ALLERGY_SEVERITIES] }, notedDate: DateSchema },
};
export const SerologyInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['test', 'result', 'sampleDate'],
  properties: {
    test: { enum: [...SEROLOGY_TESTS] },
    result: { enum: [...SEROLOGY_RESULTS] },
    sampleDate: DateSchema,
    titer: { type: 'number', minimum: 0, maximum: 100000, description: 'anti-HBs titre, mIU/mL' },
    laboratory: text(150),
  },
};
export const CoverageInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['memberNumber', 'validFrom'],
  description: 'Coverage by a payer: clientId (a registered client) or payerName is required',
  properties: {
    clientId: text(64, 'Id of the payer in Clientes'),
    payerName: text(150),
    memberNumber: text(50),
    plan: text(100),
    validFrom: DateSchema,
    validTo: DateSchema,
    authorizationCode: text(50),
  },
};

const demographics: Record<string, JsonSchema> = {
  documentType: { enum: [...DOCUMENT_TYPES] },
  documentNumber: {
    type: 'string',
    minLength: 1,
    maxLength: 32,
    pattern: '^[A-Za-z0-9][A-Za-z0-9 .\\-/]*$',
    description: 'Unique per company and type, compared ignoring case, spaces, dots and dashes',
  },
  givenNames: text(100),
  familyNames: text(100),
  sex: { enum: [...SEXES] },
  birthDate: { ...DateSchema, description: 'Not in the future, at most 130 years ago' },
  contact: ContactSchema,
  address: AddressSchema,
  emergencyContact: EmergencyContactSchema,
  bloodGroup: { enum: [...BLOOD_GROUPS] },
  rhFactor: { enum: [...RH_FACTORS] },
  admissionDate: { ...DateSchema, description: 'Not in the future, not before birth' },
  dialysisStartDate: DateSchema,
  etiology: text(200, 'Cause of kidney failure'),
  comorbidities: { type: 'array', maxItems: 50, items: text(200) },
};
const REQUIRED_DEMOGRAPHICS = ['documentType', 'documentNumber', 'givenNames', 'familyNames', 'sex', 'birthDate', 'admissionDate'];
const OPTIONAL_DEMOGRAPHICS = [
  'contact',
  'address',
  'emergencyContact',
  'bloodGroup',
  'rhFactor',
  'dialysisStartDate',
  'etiology',
  'comorbidities',
];

export const RegisterPatientBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: REQUIRED_DEMOGRAPHICS,
  properties: {
    ...demographics,
    dryWeightKg: WeightSchema,
    allergies: { type: 'array', maxItems: 50, items: AllergyInputSchema },
    serology: { type: 'array', maxItems: 50, items: SerologyInputSchema },
    coverages: { type: 'array', maxItems: 10, items: CoverageInputSchema },
  },
};

export const CorrectPatientBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description:
    'Only the fields sent change; null clears an optional field. Status, dry weight, serology, allergies, coverage and accesses have their own routes.',
  properties: {
    ...Object.fromEntries(Object.entries(demographics).map(([k, s]) => [k, OPTIONAL_DEMOGRAPHICS.includes(k) ? nullable(s) : s])),
    reason: ReasonSchema,
  },
};

export const ChangeStatusBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'reason'],
  properties: {
    status: { enum: [...PATIENT_STATUSES] },
    reason: ReasonSchema,
    effectiveDate: { ...DateSchema, description: 'Default: today' },
  },
};

export const DryWeightBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['dryWeightKg'],
  properties: {
    dryWeightKg: WeightSchema,
    effectiveDate: { ...DateSchema, description: 'Default: today' },
    prescribedBy: text(150),
    reason: ReasonSchema,
  },
};

export const EndCoverageBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['endDate', 'reason'],
  properties: { endDate: DateSchema, reason: ReasonSchema },
};

export const CreateAccessBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'side', 'site', 'creationDate'],
  properties: {
    type: { enum: [...ACCESS_TYPES] },
    side: { enum: [...ACCESS_SIDES] },
    site: text(100, 'Anatomic site, e.g. radiocephalic, brachiobasilic, internal jugular'),
    creationDate: DateSchema,
    surgeon: text(150),
    institution: text(150),
    firstCannulationDate: DateSchema,
    status: { enum: ['maturing', 'active'], description: 'Default: maturing for AVF/AVG, active for catheters' },
    primary: { type: 'boolean', description: 'Make this (active) access the primary one; default: only when none is' },
  },
};

export const AccessStatusBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'date'],
  description:
    'maturing -> active | failed | removed; active -> failed | removed; failed -> removed. A reason is required for failed and removed.',
  properties: {
    status: { enum: ['active', 'failed', 'removed'] },
    date: DateSchema,
    reason: ReasonSchema,
    firstCannulationDate: { ...DateSchema, description: 'On activation of a fistula or graft; default: date' },
    primary: { type: 'boolean' },
  },
};
