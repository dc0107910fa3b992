// JSON Schemas of /cargos-laborales: what clients send and what they read, declared once with TypeBox.
import Type from 'typebox';
import { POSITION_STATUSES, ROLE_CODE_PATTERN } from '../../../commands/cargos-laborales/jobPositionEvents.js';
import { IdSchema, text } from '../shared/fieldSchemas.js';
import { clearable, correctionBody } from '../shared/correctionBody.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, WRITE } = groupNames('cargos-laborales', 'CargosLaborales');

const licensingBody = text(120, 'Who licenses the holders (e.g. CMP, CEP, RETHUS); required when licenceRequired');
const fields = {
  code: text(40, 'Unique within the company, compared trimmed and ignoring case'),
  name: text(120),
  clinical: Type.Boolean({ description: 'Its holders take part in patient care (and may sign clinical records)' }),
  licenceRequired: Type.Boolean({ description: 'Its holders need a valid professional licence' }),
  suggestedRoles: Type.Array(Type.String({ pattern: ROLE_CODE_PATTERN }), {
    maxItems: 20,
    description: 'Role codes suggested for the user accounts of its staff',
  }),
  physician: Type.Boolean({
    description:
      "A physician's position (clinical, licence required; default false): only its holders validate dialysis sessions and issue prescriptions",
  }),
};

export const CreatePositionBody = Type.Object(
  {
    code: fields.code,
    name: fields.name,
    clinical: fields.clinical,
    licenceRequired: fields.licenceRequired,
    licensingBody: Type.Optional(licensingBody),
    suggestedRoles: Type.Optional(fields.suggestedRoles),
    physician: Type.Optional(fields.physician),
  },
  { additionalProperties: false },
);

export const CorrectPositionBody = correctionBody({ ...fields, licensingBody: clearable(licensingBody) });

export const PositionView = Type.Object(
  {
    id: IdSchema,
    revision: Type.Integer({ minimum: 0 }),
    code: Type.String(),
    name: Type.String(),
    clinical: Type.Boolean(),
    licenceRequired: Type.Boolean(),
    licensingBody: Type.Optional(Type.String()),
    suggestedRoles: Type.Array(Type.String()),
    physician: Type.Boolean({ description: 'Its holders validate sessions and issue prescriptions' }),
    status: Type.Enum(POSITION_STATUSES, { description: 'An inactive position stays with its staff but is given to no one new' }),
    statusReason: Type.Optional(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String(),
  },
  { additionalProperties: false },
);
