// The rules of a module definition, every broken one named by its field (`fields/3/maximum`) in one 422: code, field
// names, bounds, patterns, choices, defaults, references, list/filter/sort fields and states. Pure; reserved codes and
// the company's other modules come in as policy.
import { FieldChecks } from '../../shared/fieldChecks.js';
import { isRealDate } from '../../shared/fieldChecks.js';
import {
  FIELD_NAME_PATTERN,
  FIELD_TYPES,
  GENERATOR_LIMITS as L,
  MODULE_CODE_PATTERN,
  REFERENCE_TARGETS,
  STATE_NAME_PATTERN,
  type FieldValue,
  type ModuleDefinition,
  type ModuleField,
} from './definitionTypes.js';

/** What a definition is judged against beyond itself. */
export interface DefinitionPolicy {
  /** Built-in groups' path segments and permission prefixes, and the generator's own words: never a module's code. */
  reservedCodes: readonly string[];
  /** The company's module codes (a reference field's `module` must name one of them or the module itself). */
  moduleCodes: readonly string[];
}

/** Names a field may not take: the record's own members and the list's query names. */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([
  'id',
  'module',
  'patientId',
  'state',
  'archived',
  'revision',
  'version',
  'values',
  'written',
  'signedAt',
  'signedBy',
  'createdAt',
  'createdBy',
  'updatedAt',
  'updatedBy',
  'reason',
  'code',
  'sort',
  'order',
  'limit',
  'cursor',
  'updatedSince',
  'minPosition',
  'asOf',
  'tenantId',
  // Members every object has: `values[name]` would find them on an absent field, so no record could ever be valid.
  ...Object.getOwnPropertyNames(Object.prototype),
]);

const CODE = new RegExp(MODULE_CODE_PATTERN);
const FIELD_NAME = new RegExp(FIELD_NAME_PATTERN);
const STATE_NAME = new RegExp(STATE_NAME_PATTERN);
// A quantified group that itself holds a quantifier ((a+)+, (a|b*)*): the shape of catastrophic backtracking.
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]/;

/** Why `value` does not fit `field`, or null when it does (a default, an upcast step's value). */
export function valueProblem(field: ModuleField, value: FieldValue): string | null {
  switch (field.type) {
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      if (value.length > (field.maxLength ?? L.textMaxLength) || value.length < (field.minLength ?? 0)) return 'length out of bounds';
      if (field.pattern && validPattern(field.pattern) === null && !new RegExp(field.pattern, 'u').test(value))
        return 'does not match the pattern';
      return null;
    }
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be an integer';
      if ((field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum))
        return 'out of bounds';
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDate(value) ? null : 'must be a date YYYY-MM-DD';
    case 'date-time':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value))
        ? null
        : 'must be a date-time';
    case 'choice':
      return typeof value === 'string' && (field.choices ?? []).includes(value) ? null : 'must be one of the choices';
    case 'multi-choice':
      return Array.isArray(value) && value.every((v) => (field.choices ?? []).includes(v)) && new Set(value).size === value.length
        ? null
        : 'must be distinct choices';
    case 'reference':
      return typeof value === 'string' && value.length > 0 ? null : 'must be an id';
  }
}

/** Why a pattern is refused, or null: it must compile (ECMA-262, unicode) and not nest quantifiers. */
export function validPattern(pattern: string): string | null {
  if (pattern.length > L.patternMaxLength) return `at most ${L.patternMaxLength} characters`;
  if (NESTED_QUANTIFIER.test(pattern)) return 'nested quantifiers are refused (catastrophic backtracking)';
  try {
    new RegExp(pattern, 'u');
    return null;
  } catch {
    return 'does not compile as a regular expression';
  }
}

const text = (checks: FieldChecks, value: string | undefined, at: string, max: number, required = false): void => {
  if (value === undefined) return void checks.check(!required, at, 'required');
  checks.check(value.trim().length > 0, at, 'must not be blank').check(value.length <= max, at, `at most ${max} characters`);
};

export function checkModuleCode(checks: FieldChecks, code: string, policy: DefinitionPolicy): void {
  checks.check(CODE.test(code), 'code', `must match ${MODULE_CODE_PATTERN}`);
  checks.check(!policy.reservedCodes.includes(code), 'code', 'reserved: a built-in route or permission uses it');
}

function checkField(checks: FieldChecks, f: ModuleField, at: string, policy: DefinitionPolicy, code: string): void {
  checks.check(FIELD_NAME.test(f.name), `${at}/name`, `must match ${FIELD_NAME_PATTERN}`);
  checks.check(!RESERVED_FIELD_NAMES.has(f.name), `${at}/name`, 'reserved: the record or its list uses this name');
  text(checks, f.label, `${at}/label`, L.labelMaxLength, true);
  text(checks, f.description, `${at}/description`, L.descriptionMaxLength);
  checks.check((FIELD_TYPES as readonly string[]).includes(f.type), `${at}/type`, 'unknown type');
  const only = (present: boolean, member: string, types: string) => checks.check(!present, `${at}/${member}`, `only for ${types}`);
  const isText = f.type === 'text';
  const isNumber = f.type === 'number' || f.type === 'integer';
  const isChoice = f.type === 'choice' || f.type === 'multi-choice';
  only(!isText && (f.minLength !== undefined || false), 'minLength', 'text');
  only(!isText && f.maxLength !== undefined, 'maxLength', 'text');
  only(!isText && f.pattern !== undefined, 'pattern', 'text');
  only(!isNumber && f.minimum !== undefined, 'minimum', 'number and integer');
  only(!isNumber && f.maximum !== undefined, 'maximum', 'number and integer');
  only(f.type !== 'number' && f.unit !== undefined, 'unit', 'number');
  only(!isChoice && f.choices !== undefined, 'choices', 'choice and multi-choice');
  only(
    f.type !== 'multi-choice' && (f.minItems !== undefined || f.maxItems !== undefined),
    f.minItems !== undefined ? 'minItems' : 'maxItems',
    'multi-choice',
  );
  only(f.type !== 'reference' && f.refersTo !== undefined, 'refersTo', 'reference');
  if (isText) {
    checks.check((f.maxLength ?? 0) <= L.textMaxLength, `${at}/maxLength`, `at most ${L.textMaxLength}`);
    checks.check((f.minLength ?? 0) <= (f.maxLength ?? L.textMaxLength), `${at}/minLength`, 'must not exceed maxLength');
    if (f.pattern !== undefined) {
      const problem = validPattern(f.pattern);
      checks.check(problem === null, `${at}/pattern`, problem ?? '');
    }
  }
  if (isNumber) {
    checks.check(
      f.minimum === undefined || f.maximum === undefined || f.minimum <= f.maximum,
      `${at}/maximum`,
      'must not be below minimum',
    );
    if (f.type === 'integer')
      for (const bound of ['minimum', 'maximum'] as const)
        checks.check(f[bound] === undefined || Number.isInteger(f[bound]), `${at}/${bound}`, 'must be an integer');
  }
  if (f.unit !== undefined) text(checks, f.unit, `${at}/unit`, L.unitMaxLength);
  if (isChoice) {
    const choices = f.choices ?? [];
    checks.check(choices.length > 0, `${at}/choices`, 'at least one choice');
    checks.check(choices.length <= L.choices, `${at}/choices`, `at most ${L.choices} choices`);
    checks.check(new Set(choices).size === choices.length, `${at}/choices`, 'choices must be unique');
    choices.forEach((c, j) => text(checks, c, `${at}/choices/${j}`, L.choiceMaxLength, true));
  }
  if (f.type === 'multi-choice') {
    checks.check((f.minItems ?? 0) <= (f.maxItems ?? Infinity), `${at}/maxItems`, 'must not be below minItems');
    // Choices are chosen once each: more than there are could never be met.
    checks.check((f.minItems ?? 0) <= (f.choices ?? []).length, `${at}/minItems`, 'must not exceed the number of choices');
  }
  if (f.type === 'reference') {
    checks.check(
      f.refersTo !== undefined && (REFERENCE_TARGETS as readonly string[]).includes(f.refersTo),
      `${at}/refersTo`,
      'required for a reference',
    );
    if (f.refersTo === 'module')
      checks.check(
        f.module !== undefined && (f.module === code || policy.moduleCodes.includes(f.module)),
        `${at}/module`,
        'must name a module of this company',
      );
  }
  only(f.refersTo !== 'module' && f.module !== undefined, 'module', "references to a module (refersTo 'module')");
  if (f.default !== undefined) {
    const problem = valueProblem(f, f.default);
    checks.check(problem === null, `${at}/default`, problem ?? '');
    checks.check(f.type !== 'reference', `${at}/default`, 'a reference takes no default');
  }
}

function checkStates(checks: FieldChecks, definition: ModuleDefinition): void {
  const states = definition.states;
  if (!states) return;
  const names = states.states.map((s) => s.name);
  checks.check(states.states.length > 0 && states.states.length <= L.states, 'states/states', `1 to ${L.states} states`);
  checks.check(states.transitions.length <= L.transitions, 'states/transitions', `at most ${L.transitions} transitions`);
  checks.check(names.includes(states.initial), 'states/initial', 'must be one of the states');
  states.states.forEach((s, i) => {
    checks.check(STATE_NAME.test(s.name), `states/states/${i}/name`, `must match ${STATE_NAME_PATTERN}`);
    checks.check(names.indexOf(s.name) === i, `states/states/${i}/name`, 'another state has this name');
    text(checks, s.label, `states/states/${i}/label`, L.labelMaxLength, true);
  });
  const transitionNames = states.transitions.map((t) => t.name);
  states.transitions.forEach((t, i) => {
    const at = `states/transitions/${i}`;
    checks.check(STATE_NAME.test(t.name), `${at}/name`, `must match ${STATE_NAME_PATTERN}`);
    checks.check(transitionNames.indexOf(t.name) === i, `${at}/name`, 'another transition has this name');
    text(checks, t.label, `${at}/label`, L.labelMaxLength, true);
    checks.check(t.from.length > 0, `${at}/from`, 'at least one state');
    t.from.forEach((from, j) => checks.check(names.includes(from), `${at}/from/${j}`, 'not a state of the module'));
    checks.check(names.includes(t.to), `${at}/to`, 'not a state of the module');
  });
}

/** Adds every broken rule of `definition` to `checks` (the caller throws); `code` is the module's own. */
export function checkDefinition(checks: FieldChecks, definition: ModuleDefinition, code: string, policy: DefinitionPolicy): void {
  text(checks, definition.name, 'name', L.nameMaxLength, true);
  text(checks, definition.description, 'description', L.descriptionMaxLength);
  const { fields } = definition;
  checks.check(fields.length > 0, 'fields', 'at least one field');
  checks.check(fields.length <= L.fields, 'fields', `at most ${L.fields} fields`);
  const names = fields.map((f) => f.name);
  fields.forEach((f, i) => {
    checks.check(names.indexOf(f.name) === i, `fields/${i}/name`, 'another field has this name');
    checkField(checks, f, `fields/${i}`, policy, code);
  });
  for (const list of ['listFields', 'filterFields', 'sortFields'] as const) {
    const named = definition[list] ?? [];
    named.forEach((name, i) => {
      checks.check(names.includes(name), `${list}/${i}`, 'not a field of the module');
      checks.check(named.indexOf(name) === i, `${list}/${i}`, 'named twice');
    });
  }
  definition.sortFields.forEach((name, i) => {
    const type = fields.find((f) => f.name === name)?.type;
    checks.check(type !== 'multi-choice', `sortFields/${i}`, 'a multiple choice does not sort');
  });
  checkStates(checks, definition);
}

/** DefineModule's data checked whole: throws one 422 naming every broken field. */
export function assertValidModule(code: string, definition: ModuleDefinition, policy: DefinitionPolicy, checkCode: boolean): void {
  const checks = new FieldChecks();
  if (checkCode) checkModuleCode(checks, code, policy);
  checkDefinition(checks, definition, code, policy);
  checks.throwIfAny();
}
