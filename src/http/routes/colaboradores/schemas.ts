// JSON Schemas of /colaboradores: what clients send and what they read, declared once with TypeBox.
import Type from 'typebox';
import {
  CONTRACT_TYPES,
  STAFF_DOCUMENT_TYPES,
  STAFF_SEROLOGY_RESULTS,
  STAFF_SEROLOGY_TESTS,
  STAFF_STATUSES,
} from '../../../commands/colaboradores/staffTypes.js';
import { SIGNING_REASONS } from '../../../queries/colaboradores/signingRule.js';
import { DateSchema, IdSchema, nullable, ReasonSchema, StringOrNull, text } from '../shared/fieldSchemas.js';
import { correctionBody } from '../shared/correctionBody.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, WRITE } = groupNames('colaboradores', 'Colaboradores');

export const UserIdSchema = Type.String({ minLength: 1, maxLength: 64, description: 'Id of a user account of the platform' });

const DocumentSchema = Type.Object(
  {
    type: Type.Enum(STAFF_DOCUMENT_TYPES),
    number: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9 .\\-/]*$' }),
  },
  {
    additionalProperties: false,
    description: 'Identity document: unique within the company, the number compared ignoring case, spaces, dots and dashes',
  },
);

const licenceFields = {
  body: text(120, 'Licensing body, e.g. CMP, CEP, RETHUS, cédula profesional'),
  number: text(40),
  expiresOn: DateSchema,
  specialtyRegistry: Type.Optional(text(40, 'Specialty registry number, e.g. RNE')),
};
const licence = (description: string) => Type.Object(licenceFields, { additionalProperties: false, description });
export const LicenceSchema = licence('Professional licence; valid through expiresOn');

export const SerologySchema = Type.Object(
  { test: Type.Enum(STAFF_SEROLOGY_TESTS), result: Type.Enum(STAFF_SEROLOGY_RESULTS), takenOn: DateSchema },
  { additionalProperties: false },
);

export const DoseSchema = Type.Object(
  {
    dose: Type.Integer({ minimum: 1, maximum: 10, description: 'Dose number (1, 2, 3, boosters after)' }),
    givenOn: DateSchema,
  },
  { additionalProperties: false },
);

const contractType = Type.Enum(CONTRACT_TYPES, {
  description: 'planilla: payroll employee; honorarios: fees for services; temporal: fixed-term contract; otro: anything else',
});

const personal = {
  document: DocumentSchema,
  givenNames: text(100),
  familyNames: text(100),
  hireDate: { ...DateSchema, description: 'First day of employment (may be ahead)' },
  contractType,
};
const profession = text(120);

export const HireBody = Type.Object(
  {
    ...personal,
    profession: Type.Optional(profession),
    positionId: { ...IdSchema, description: 'An active job position of the company' },
    licence: Type.Optional(licence('Required when the position requires a licence')),
    serology: Type.Optional(Type.Array(SerologySchema, { maxItems: 50 })),
    hbvVaccination: Type.Optional(Type.Array(DoseSchema, { maxItems: 10 })),
    userId: Type.Optional({ ...UserIdSchema, description: 'A member of the company; a user is linked to at most one staff record' }),
  },
  { additionalProperties: false },
);

export const CorrectBody = correctionBody({ ...personal, profession: nullable(profession) });

export const PositionChangeBody = Type.Object(
  {
    positionId: IdSchema,
    effectiveDate: Type.Optional({ ...DateSchema, description: 'Default: today' }),
    reason: Type.Optional(ReasonSchema),
  },
  { additionalProperties: false },
);

export const LinkBody = Type.Object({ userId: UserIdSchema }, { additionalProperties: false });

export const TerminationBody = Type.Object(
  {
    terminationDate: { ...DateSchema, description: 'First day without employment; not in the future, not before the hire date' },
    reason: ReasonSchema,
  },
  { additionalProperties: false },
);

export const RehireBody = Type.Object(
  {
    hireDate: { ...DateSchema, description: 'First day of the new employment; not before the termination date' },
    positionId: Type.Optional({ ...IdSchema, description: 'An active job position of the company; default: the last one held' }),
    reason: ReasonSchema,
  },
  { additionalProperties: false },
);

const instant = Type.String({ format: 'date-time' });
export const StaffView = Type.Object(
  {
    id: IdSchema,
    revision: Type.Integer({ minimum: 0 }),
    document: DocumentSchema,
    givenNames: Type.String(),
    familyNames: Type.String(),
    profession: Type.Optional(Type.String()),
    positionId: IdSchema,
    licence: Type.Optional(LicenceSchema),
    serology: Type.Array(SerologySchema, { description: 'The latest results; serologyCount tells how many in all' }),
    hbvVaccination: Type.Array(DoseSchema, { description: 'The latest doses; vaccinationCount tells how many in all' }),
    serologyCount: Type.Integer({ minimum: 0 }),
    vaccinationCount: Type.Integer({ minimum: 0 }),
    hireDate: DateSchema,
    contractType,
    status: Type.Enum(STAFF_STATUSES),
    terminationDate: Type.Optional(DateSchema),
    terminationReason: Type.Optional(Type.String()),
    userId: Type.Optional(Type.String()),
    createdAt: instant,
    createdBy: Type.String(),
    updatedAt: instant,
    updatedBy: Type.String(),
  },
  { additionalProperties: false },
);

export const SigningView = Type.Object(
  {
    allowed: Type.Boolean(),
    reasons: Type.Array(Type.Enum(SIGNING_REASONS), { description: 'Every condition that failed' }),
    staffId: { ...StringOrNull, description: 'The staff record linked to the user, if any' },
  },
  { additionalProperties: false },
);
