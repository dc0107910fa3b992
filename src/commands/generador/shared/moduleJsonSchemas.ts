// JSON Schemas (2020-12, the service's Ajv dialect) of a module's records, derived from its definition: create and
// patch values and bodies, the record view and the list's own query params. Pure: validation and the contract read them.
import type { ModuleDefinition, ModuleField, ModuleVersion, ReferenceTarget } from './definitionTypes.js';
import { GENERATOR_LIMITS } from './definitionTypes.js';

export type Schema = Record<string, unknown>;

/** Same shape as the service's IdSchema (routes/shared/fieldSchemas.ts). */
const ID: Schema = { type: 'string', format: 'uuid' };
const REASON: Schema = {
  type: 'string',
  minLength: 1,
  maxLength: 500,
  description: 'Why: recorded with the event and shown in the history',
};

const REFERS: Record<ReferenceTarget, string> = {
  patient: 'a patient of the company (/pacientes/{id})',
  staff: 'a staff member of the company (/colaboradores/{id})',
  machine: 'a machine of the company (/monitores/{id})',
  product: 'a product of the company (/productos/{id})',
  module: 'a record of another module of the company',
};

function describe(f: ModuleField, extra?: string): string {
  return [f.label, f.description, extra].filter(Boolean).join('. ');
}

/** The schema of one field's value. */
export function fieldSchema(f: ModuleField): Schema {
  switch (f.type) {
    case 'text':
      return {
        type: 'string',
        minLength: f.minLength ?? (f.required ? 1 : 0),
        maxLength: f.maxLength ?? GENERATOR_LIMITS.textMaxLength,
        ...(f.pattern ? { pattern: f.pattern } : {}),
        description: describe(f),
      };
    case 'number':
    case 'integer':
      return {
        type: f.type,
        ...(f.minimum !== undefined ? { minimum: f.minimum } : {}),
        ...(f.maximum !== undefined ? { maximum: f.maximum } : {}),
        description: describe(f, f.unit ? `Unit: ${f.unit}` : undefined),
      };
    case 'boolean':
      return { type: 'boolean', description: describe(f) };
    case 'date':
      return { type: 'string', format: 'date', description: describe(f, 'Calendar date YYYY-MM-DD') };
    case 'date-time':
      return { type: 'string', format: 'date-time', description: describe(f, 'Instant, ISO-8601 with offset') };
    case 'choice':
      return { type: 'string', enum: [...(f.choices ?? [])], description: describe(f) };
    case 'multi-choice':
      return {
        type: 'array',
        items: { type: 'string', enum: [...(f.choices ?? [])] },
        uniqueItems: true,
        ...(f.minItems !== undefined ? { minItems: f.minItems } : {}),
        ...(f.maxItems !== undefined ? { maxItems: f.maxItems } : {}),
        description: describe(f),
      };
    case 'reference': {
      const target =
        f.refersTo === 'module' && f.module
          ? `a record of the module ${f.module} (/generador/m/${f.module}/{id})`
          : REFERS[f.refersTo ?? 'patient'];
      return { ...ID, description: describe(f, `Id of ${target}`) };
    }
  }
}

const withDefault = (f: ModuleField): Schema => ({ ...fieldSchema(f), ...(f.default !== undefined ? { default: f.default } : {}) });

/** The values of a create: required fields (without a default) required, defaults filled in, nothing undeclared. */
export function createValuesSchema(def: ModuleDefinition): Schema {
  const required = def.fields.filter((f) => f.required && f.default === undefined).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(def.fields.map((f) => [f.name, withDefault(f)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** The values of a patch: every field optional; an optional field may be null, which clears it. */
export function patchValuesSchema(def: ModuleDefinition): Schema {
  const prop = (f: ModuleField): Schema =>
    f.required ? fieldSchema(f) : { anyOf: [fieldSchema(f), { type: 'null' }], description: `${f.label}; null clears it` };
  return {
    type: 'object',
    properties: Object.fromEntries(def.fields.map((f) => [f.name, prop(f)])),
    minProperties: 1,
    additionalProperties: false,
  };
}

// Bounds a narrowing major may tighten while older records keep what they were written with.
const NARROWING = ['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems'];
const readSchema = (f: ModuleField): Schema =>
  Object.fromEntries(Object.entries(fieldSchema(f)).filter(([key]) => !NARROWING.includes(key)));

/** The values of a record as read: every field of the current major (list items: the list fields), none required. */
export function viewValuesSchema(def: ModuleDefinition): Schema {
  return { type: 'object', properties: Object.fromEntries(def.fields.map((f) => [f.name, readSchema(f)])), additionalProperties: false };
}

/** The body of a create; `values` may be given as a $ref (the contract names it). */
export function createBodySchema(def: ModuleDefinition, values: Schema = createValuesSchema(def)): Schema {
  return {
    type: 'object',
    properties: {
      ...(def.patientLinked ? { patientId: { ...ID, description: 'The patient the record belongs to' } } : {}),
      values,
      reason: REASON,
    },
    required: def.patientLinked ? ['patientId', 'values'] : ['values'],
    additionalProperties: false,
  };
}

/** The body of a patch: the values changed (at least one) and why. */
export function patchBodySchema(def: ModuleDefinition, values: Schema = patchValuesSchema(def)): Schema {
  return { type: 'object', properties: { values, reason: REASON }, required: ['values', 'reason'], additionalProperties: false };
}

const STAMP: Schema = { type: 'string', format: 'date-time' };
const ACTOR: Schema = { type: 'string', description: 'Who: a user id, or client:<id> for an API client' };

/** A record as the service answers it (DESIGN26 "Record view"). */
export function recordViewSchema(def: ModuleDefinition, code: string, values: Schema = viewValuesSchema(def)): Schema {
  const properties: Schema = {
    id: ID,
    module: { type: 'string', const: code },
    revision: { type: 'integer', minimum: 0, description: 'Send it back in If-Match (the ETag) to change the record' },
    version: {
      type: 'object',
      description: 'The module version the record was written with; values read through the mapping onto the current one',
      properties: { major: { type: 'integer', minimum: 1 }, minor: { type: 'integer', minimum: 0 } },
      required: ['major', 'minor'],
      additionalProperties: false,
    },
    ...(def.patientLinked ? { patientId: ID } : {}),
    ...(def.states ? { state: { type: 'string', enum: def.states.states.map((s) => s.name) } } : {}),
    archived: { type: 'boolean' },
    values,
    ...(def.states?.transitions.some((t) => t.signs) ? { signedAt: STAMP, signedBy: ACTOR } : {}),
    createdAt: STAMP,
    createdBy: ACTOR,
    updatedAt: STAMP,
    updatedBy: ACTOR,
  };
  const required = ['id', 'module', 'revision', 'version', 'archived', 'values', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'];
  if (def.patientLinked) required.push('patientId');
  if (def.states) required.push('state');
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A filter's query param: a value of its field (a multi-choice field filters on one of its choices). */
function filterSchema(f: ModuleField): Schema {
  const { description: _description, ...schema } = fieldSchema(f);
  if (f.type === 'multi-choice')
    return { type: 'string', enum: [...(f.choices ?? [])], description: `Records whose ${f.label} includes this choice` };
  if (f.type === 'text') return { type: 'string', minLength: 1, maxLength: 200, description: `Records whose ${f.label} is exactly this` };
  return { ...schema, description: `Records whose ${f.label} is this${f.unit ? ` (${f.unit})` : ''}` };
}

/** The list's own query params (filters, patientId, state, archived, sort, order); the route adds page and minPosition. */
export function listFilterProperties(def: ModuleDefinition): Record<string, Schema> {
  const byName = new Map(def.fields.map((f) => [f.name, f]));
  const out: Record<string, Schema> = {};
  if (def.patientLinked) out.patientId = { ...ID, description: "Only this patient's records" };
  if (def.states) out.state = { type: 'string', enum: def.states.states.map((s) => s.name), description: 'Only records in this state' };
  out.archived = { type: 'boolean', description: 'true: only archived records; false or absent: the others' };
  for (const name of def.filterFields) {
    const f = byName.get(name);
    if (f && !(name in out)) out[name] = filterSchema(f);
  }
  out.sort = {
    type: 'string',
    enum: [...new Set([...def.sortFields, 'createdAt', 'updatedAt'])],
    description: 'Field to sort on (createdAt when absent)',
  };
  out.order = { type: 'string', enum: ['asc', 'desc'], description: 'Sort order (desc when absent: newest first)' };
  return out;
}

/** The key a compiled validator and a cached schema are kept under. */
export const versionKey = (tenantId: string, code: string, version: ModuleVersion): string =>
  `${tenantId}\u0000${code}\u0000${version.major}.${version.minor}`;
