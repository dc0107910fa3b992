// JSON Schemas of /cargos-laborales: what clients send and what they read.
import type { JsonSchema } from '../../routeTypes.js';
import { POSITION_STATUSES, ROLE_CODE_PATTERN } from '../../../commands/cargos-laborales/jobPositionEvents.js';
import { text, ReasonSchema } from '../shared/fieldSchemas.js';

export const TAG = 'CargosLaborales';
export const READ = 'cargos-laborales:read';
export const WRITE = 'cargos-laborales:write';

const fields: Record<string, JsonSchema> = {
  code: { ...text(40), description: 'Unique within the company, compared trimmed and ignoring case' },
  name: text(120),
  clinical: { type: 'boolean', description: 'Its holders take part in patient care (and may sign clinical records)' },
  licenceRequired: { type: 'boolean', description: 'Its holders need a valid professional licence' },
  licensingBody: text(120, 'Who licenses the holders (e.g. CMP, CEP, RETHUS); required when licenceRequired'),
  suggestedRoles: {
    type: 'array',
    maxItems: 20,
    items: { type: 'string', pattern: ROLE_CODE_PATTERN },
    description: 'Role codes suggested for the user accounts of its staff',
  },
  physician: {
    type: 'boolean',
    description:
      "A physician's position (clinical, licence required; default false): only its holders validate dialysis sessions and issue prescriptions",
  },
};

export const CreatePositionBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'name', 'clinical', 'licenceRequired'],
  properties: fields,
};

export const CorrectPositionBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  minProperties: 2,
  properties: {
    ...fields,
    licensingBody: { anyOf: [fields.licensingBody!, { type: 'null' }], description: 'null clears it' },
    reason: ReasonSchema,
  },
};

export const ReasonBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: { reason: ReasonSchema },
};

export const PositionView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'revision',
    'code',
    'name',
    'clinical',
    'licenceRequired',
    'suggestedRoles',
    'physician',
    'status',
    'createdAt',
    'createdBy',
    'updatedAt',
    'updatedBy',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    revision: { type: 'integer', minimum: 0 },
    code: { type: 'string' },
    name: { type: 'string' },
    clinical: { type: 'boolean' },
    licenceRequired: { type: 'boolean' },
    licensingBody: { type: 'string' },
    suggestedRoles: { type: 'array', items: { type: 'string' } },
    physician: { type: 'boolean', description: 'Its holders validate sessions and issue prescriptions' },
    status: { enum: [...POSITION_STATUSES], description: 'An inactive position stays with its staff but is given to no one new' },
    statusReason: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    createdBy: { type: 'string' },
    updatedAt: { type: 'string', format: 'date-time' },
    updatedBy: { type: 'string' },
  },
};
