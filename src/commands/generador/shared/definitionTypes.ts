// What a company-defined record module is: its fields, which of them list, filter and sort, whether its records
// belong to a patient, its states and signing step, and how records of an older major version map onto this one.
// Value types both wings read (the module and record events carry them; queries and projections fold them).

/** Field types a module may use; no nesting: a record is one flat object (multiple choice is the only list). */
export const FIELD_TYPES = ['text', 'number', 'integer', 'boolean', 'date', 'date-time', 'choice', 'multi-choice', 'reference'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** What a reference field points at: a record of a built-in group, or of another module of the same company. */
export const REFERENCE_TARGETS = ['patient', 'staff', 'machine', 'product', 'module'] as const;
export type ReferenceTarget = (typeof REFERENCE_TARGETS)[number];

/** A field's value as stored and answered (a date 'YYYY-MM-DD', a date-time ISO-8601 UTC, a reference an id). */
export type FieldValue = string | number | boolean | string[];
export type RecordValues = Record<string, FieldValue>;

export interface ModuleField {
  /** camelCase, unique in the module: the key in `values`, the filter's query name, the schema's property. */
  name: string;
  label: string;
  description?: string;
  type: FieldType;
  required?: boolean;
  /** text: bounds of its length (maxLength defaults to GENERATOR_LIMITS.textMaxLength) and an ECMA-262 pattern. */
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** number and integer: inclusive bounds; number: its unit (UCUM-like text, e.g. 'mUI/mL'). */
  minimum?: number;
  maximum?: number;
  unit?: string;
  /** choice and multi-choice: the allowed codes, in display order. */
  choices?: string[];
  /** multi-choice: bounds of how many are chosen. */
  minItems?: number;
  maxItems?: number;
  /** reference: what it points at; `module` names the other module's code when `refersTo` is 'module'. */
  refersTo?: ReferenceTarget;
  module?: string;
  /** Filled in on create when the field is absent. */
  default?: FieldValue;
}

/** States a record moves through, the transitions between them, and which of them is a signature (a step-up code). */
export interface ModuleStates {
  initial: string;
  states: { name: string; label: string }[];
  transitions: { name: string; label: string; from: string[]; to: string; signs?: boolean }[];
}

/** The definition of one major.minor version of a module (the code never changes; it is the module's id). */
export interface ModuleDefinition {
  name: string;
  description?: string;
  /** Records belong to a patient (`patientId`): they join the patient's isolation, access audit and history. */
  patientLinked: boolean;
  fields: ModuleField[];
  /** Fields shown in list items beside the record's own (id, patientId, state, dates); all fields when absent. */
  listFields?: string[];
  /** Fields a list may filter on (`?<field>=`), and sort on (`?sort=<field>&order=asc|desc`). */
  filterFields: string[];
  sortFields: string[];
  states?: ModuleStates;
}

/**
 * How a record written with the previous major version reads in this one, applied in order: `rename` a field,
 * `default` a value for a field the old record lacks, `convert` a value (to text, number or integer; a unit factor;
 * a map of choices), `drop` a field the new version no longer has.
 */
export type UpcastStep =
  | { op: 'rename'; from: string; to: string }
  | { op: 'default'; field: string; value: FieldValue }
  | { op: 'convert'; field: string; to: 'text' | 'number' | 'integer' }
  | { op: 'scale'; field: string; factor: number }
  | { op: 'mapChoices'; field: string; map: Record<string, string> }
  | { op: 'drop'; field: string };

export interface ModuleVersion {
  major: number;
  minor: number;
}

export const MODULE_STATUSES = ['draft', 'published', 'retired'] as const;
export type ModuleStatus = (typeof MODULE_STATUSES)[number];

export const GENERATOR_LIMITS = {
  fields: 60,
  codeMaxLength: 40,
  nameMaxLength: 120,
  descriptionMaxLength: 2000,
  labelMaxLength: 120,
  textMaxLength: 4000,
  defaultTextMaxLength: 500,
  patternMaxLength: 200,
  choices: 100,
  choiceMaxLength: 80,
  unitMaxLength: 20,
  states: 20,
  transitions: 40,
  upcastSteps: 100,
  modulesPerCompany: 200,
} as const;

/** A module's code: its id, its path segment (`/generador/m/<code>`) and its permissions' prefix (`mod.<code>:read`). */
export const MODULE_CODE_PATTERN = '^[a-z][a-z0-9-]{1,39}$';
export const FIELD_NAME_PATTERN = '^[a-z][a-zA-Z0-9]{0,39}$';
export const STATE_NAME_PATTERN = '^[a-z][a-z0-9-]{0,39}$';

/** What a role may grant on a module; `sign` takes a record through a signing transition. */
export const MODULE_ACTIONS = ['read', 'write', 'sign'] as const;
export type ModuleAction = (typeof MODULE_ACTIONS)[number];
export const modulePermission = (code: string, action: ModuleAction): string => `mod.${code}:${action}`;
export const MODULE_PERMISSION_PATTERN = /^mod\.([a-z][a-z0-9-]{1,39}):(read|write|sign)$/;
/** Held by roles that grant everything (the admin role): every permission of every module of the company. */
export const EVERY_MODULE_PERMISSION = 'mod.*';
