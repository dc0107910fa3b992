// JSON Schemas of /colaboradores: what clients send and what they read.
import type { JsonSchema } from '../../routeTypes.js';
import {
  CONTRACT_TYPES,
  STAFF_DOCUMENT_TYPES,
  STAFF_SEROLOGY_RESULTS,
  STAFF_SEROLOGY_TESTS,
  STAFF_STATUSES,
} from '../../../commands/colaboradores/staffTypes.js';
import { SIGNING_REASONS } from '../../../queries/colaboradores/signingRule.js';
import { DateSchema, IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';

export const TAG = 'Colaboradores';
export const READ = 'colaboradores:read';
export const WRITE = 'colaboradores:write';

export const UserIdSchema: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'Id of a user account of the platform',
};

const DocumentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'number'],
  description: 'Identity document: unique within the company, the number compared ignoring case, spaces, dots and dashes',
  properties: {
    type: { enum: [...STAFF_DOCUMENT_TYPES] },
    number: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9 .\\-/]*$' },
  },
};

export const LicenceSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['body', 'number', 'expiresOn'],
  description: 'Professional licence; valid through expiresOn',
  properties: {
    body: text(120, 'Licensing body, e.g. CMP, CEP, RETHUS, cédula profesional'),
    number: text(40),
    expiresOn: DateSchema,
    specialtyRegistry: text(40, 'Specialty registry number, e.g. RNE'),
  },
};

export const SerologySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['test', 'result', 'takenOn'],
  properties: { test: { enum: [...STAFF_SEROLOGY_TESTS] }, result: { enum: [...STAFF_SEROLOGY_RESULTS] }, takenOn: DateSchema },
};

export const DoseSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['dose', 'givenOn'],
  properties: {
    dose: { type: 'integer', minimum: 1, maximum: 10, description: 'Dose number (1, 2, 3, boosters after)' },
    givenOn: DateSchema,
  },
};

const contractType: JsonSchema = {
  enum: [...CONTRACT_TYPES],
  description: 'planilla: payroll employee; honorarios: fees for services; temporal: fixed-term contract; otro: anything else',
};

const personal: Record<string, JsonSchema> = {
  document: DocumentSchema,
  givenNames: text(100),
  familyNames: text(100),
  profession: text(120),
  hireDate: { ...DateSchema, description: 'First day of employment (may be ahead)' },
  contractType,
};

export const HireBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['document', 'givenNames', 'familyNames', 'positionId', 'hireDate', 'contractType'],
  properties: {
    ...personal,
    positionId: { ...IdSchema, description: 'An active job position of the company' },
    licence: { ...LicenceSchema, description: 'Required when the position requires a licence' },
    serology: { type: 'array', maxItems: 50, items: SerologySchema },
    hbvVaccination: { type: 'array', maxItems: 10, items: DoseSchema },
    userId: { ...UserIdSchema, description: 'A member of the company; a user is linked to at most one staff record' },
  },
};

export const CorrectBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  minProperties: 2,
  properties: { ...personal, profession: { anyOf: [personal.profession!, { type: 'null' }] }, reason: ReasonSchema },
};

export const PositionChangeBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['positionId'],
  properties: { positionId: IdSchema, effectiveDate: { ...DateSchema, description: 'Default: today' }, reason: ReasonSchema },
};

export const LinkBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['userId'],
  properties: { userId: UserIdSchema },
};

export const TerminationBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['terminationDate', 'reason'],
  properties: {
    terminationDate: { ...DateSchema, description: 'First day without employment; not in the future, not before the hire date' },
    reason: ReasonSchema,
  },
};

export const RehireBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['hireDate', 'reason'],
  properties: {
    hireDate: { ...DateSchema, description: 'First day of the new employment; not before the termination date' },
    positionId: { ...IdSchema, description: 'An active job position of the company; default: the last one held' },
    reason: ReasonSchema,
  },
};

const instant = { type: 'string', format: 'date-time' };
export const StaffView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'revision',
    'document',
    'givenNames',
    'familyNames',
    'positionId',
    'hireDate',
    'contractType',
    'status',
    'serology',
    'hbvVaccination',
    'serologyCount',
    'vaccinationCount',
    'createdAt',
    'createdBy',
    'updatedAt',
    'updatedBy',
  ],
  properties: {
    id: IdSchema,
    revision: { type: 'integer', minimum: 0 },
    document: DocumentSchema,
    givenNames: { type: 'string' },
    familyNames: { type: 'string' },
    profession: { type: 'string' },
    positionId: IdSchema,
    licence: LicenceSchema,
    serology: { type: 'array', items: SerologySchema, description: 'The latest results; serologyCount tells how many in all' },
    hbvVaccination: { type: 'array', items: DoseSchema, description: 'The latest doses; vaccinationCount tells how many in all' },
    serologyCount: { type: 'integer', minimum: 0 },
    vaccinationCount: { type: 'integer', minimum: 0 },
    hireDate: DateSchema,
    contractType,
    status: { enum: [...STAFF_STATUSES] },
    terminationDate: DateSchema,
    terminationReason: { type: 'string' },
    userId: { type: 'string' },
    createdAt: instant,
    createdBy: { type: 'string' },
    updatedAt: instant,
    updatedBy: { type: 'string' },
  },
};

export const SigningView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['allowed', 'reasons', 'staffId'],
  properties: {
    allowed: { type: 'boolean' },
    reasons: { type: 'array', items: { enum: [...SIGNING_REASONS] }, description: 'Every condition that failed' },
    staffId: { type: ['string', 'null'], description: 'The staff record linked to the user, if any' },
  },
};
