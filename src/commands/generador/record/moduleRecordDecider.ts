// Every rule about a record of a company-defined module. Pure: the module as it is now comes in as the policy, what
// other streams say (the patient, the referenced records) as facts; value bounds are the route's compiled schema.
import type { Decider } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import { FieldChecks } from '../../shared/fieldChecks.js';
import type { FieldValue, ModuleField, RecordValues } from '../shared/definitionTypes.js';
import type { ModuleState } from '../shared/moduleFold.js';
import { canonicalValues } from '../shared/canonicalValues.js';
import { upcastToCurrent } from '../shared/upcast.js';
import { MODULE_RECORD_CATEGORY, type ModuleRecordCommand, type ModuleRecordEvent } from './moduleRecordEvents.js';

export interface ModuleRecordState {
  exists: boolean;
  module: string;
  /** The major version `values` are written in (a record is read through the mapping onto the current one). */
  major: number;
  values: RecordValues;
  patientId: string | null;
  state: string | null;
  archived: boolean;
  /** A signing transition took the record somewhere. */
  signed: boolean;
}

export const initialModuleRecordState: ModuleRecordState = {
  exists: false,
  module: '',
  major: 0,
  values: {},
  patientId: null,
  state: null,
  archived: false,
  signed: false,
};

/** What the writes read from other streams of the company for a command: absent means not found. */
export interface RecordFacts {
  /** The patient named by a create exists in the company. */
  patientExists?: boolean;
  /** By reference field name: the record its new value names exists in the company. */
  references?: Record<string, boolean>;
}

/** The module takes writes: published (draft or unknown: absent; retired: read-only). */
function writable(policy: ModuleState, module: string): void {
  if (!policy.exists || policy.status === 'draft' || policy.code !== module) throw notFound('module');
  if (policy.status === 'retired') throw rule('module-retired', `the module ${module} is retired: its records are read-only`);
}

/** A record of this module that still takes changes. */
function live(state: ModuleRecordState, policy: ModuleState): void {
  if (!state.exists || state.module !== policy.code) throw notFound('record');
  writable(policy, state.module);
  if (state.archived) throw rule('record-archived', 'an archived record is read-only');
}

/** The value is of the JS type its field stores (bounds, formats and choices are the compiled schema's). */
function typeFits(field: ModuleField, value: unknown): boolean {
  switch (field.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'multi-choice':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    default:
      return typeof value === 'string';
  }
}

const same = (a: FieldValue | undefined, b: FieldValue | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Checks one value set by a command: a field of the module, of its type, naming a record that exists. */
function checkValue(checks: FieldChecks, fields: Map<string, ModuleField>, name: string, value: unknown, facts: RecordFacts): void {
  const at = `values/${name}`;
  const field = fields.get(name);
  if (!field) {
    checks.check(false, at, 'not a field of this module');
    return;
  }
  if (!typeFits(field, value)) checks.check(false, at, `must be a ${field.type} value`);
  else if (field.type === 'reference') {
    const target = field.refersTo === 'module' ? `record of the module ${field.module}` : field.refersTo;
    checks.check(facts.references?.[name] === true, at, `no ${target} with this id in the company`);
  }
}

const requiredPresent = (checks: FieldChecks, fields: Iterable<ModuleField>, values: RecordValues): void => {
  for (const field of fields) if (field.required) checks.check(values[field.name] !== undefined, `values/${field.name}`, 'required');
};

function decideCreate(
  command: Extract<ModuleRecordCommand, { type: 'CreateModuleRecord' }>,
  state: ModuleRecordState,
  policy: ModuleState,
  facts: RecordFacts,
): ModuleRecordEvent[] {
  const { module, patientId } = command.data;
  writable(policy, module);
  if (state.exists) throw new DomainError('already-exists', 'a record with this id already exists', 409);
  const { definition } = policy;
  const fields = new Map(definition.fields.map((f) => [f.name, f]));
  const values = canonicalValues(fields, command.data.values);
  const checks = new FieldChecks();
  if (definition.patientLinked) {
    checks.check(patientId !== null, 'patientId', "required: this module's records belong to a patient");
    if (patientId !== null) checks.check(facts.patientExists === true, 'patientId', 'no patient with this id in the company');
  } else checks.check(patientId === null, 'patientId', "this module's records belong to no patient");
  for (const [name, value] of Object.entries(values)) checkValue(checks, fields, name, value, facts);
  const filled: RecordValues = { ...values };
  for (const field of definition.fields)
    if (filled[field.name] === undefined && field.default !== undefined) filled[field.name] = field.default;
  requiredPresent(checks, definition.fields, filled);
  checks.throwIfAny();
  const data = {
    recordId: command.aggregateId,
    module,
    major: policy.version.major,
    minor: policy.version.minor,
    patientId: definition.patientLinked ? patientId : null,
    values: filled,
    state: definition.states?.initial ?? null,
  };
  return [{ type: 'ModuleRecordCreated', data }];
}

/**
 * Sets and clears fields on the record as it reads now. A record of an older major is mapped onto the current one and the
 * amendment carries it whole (`rewritten`), leaving out fields the current major no longer has. Nothing changed: no event.
 */
function decideAmend(
  command: Extract<ModuleRecordCommand, { type: 'AmendModuleRecord' }>,
  state: ModuleRecordState,
  policy: ModuleState,
  facts: RecordFacts,
): ModuleRecordEvent[] {
  live(state, policy);
  if (state.signed)
    throw rule(
      'record-signed',
      'a signed record is not amended: the signature covers its values (a transition back to where it awaits a signature reopens it)',
    );
  const major = policy.version.major;
  const rewritten = state.major !== major;
  const fields = new Map(policy.definition.fields.map((f) => [f.name, f]));
  const current = rewritten ? upcastToCurrent(state.values, state.major, policy.majors) : state.values;
  const next: RecordValues = {};
  for (const [name, value] of Object.entries(current)) if (!rewritten || fields.has(name)) next[name] = value;
  const checks = new FieldChecks();
  const set: RecordValues = {};
  const cleared: string[] = [];
  for (const [name, value] of Object.entries(canonicalValues(fields, command.data.values))) {
    if (value === null) {
      const field = fields.get(name);
      checks.check(field !== undefined, `values/${name}`, 'not a field of this module');
      checks.check(field?.required !== true, `values/${name}`, 'required: it cannot be cleared');
      if (next[name] !== undefined) cleared.push(name);
      delete next[name];
    } else if (!same(next[name], value)) {
      checkValue(checks, fields, name, value, facts);
      set[name] = value;
      next[name] = value;
    } else if (!fields.has(name)) checks.check(false, `values/${name}`, 'not a field of this module');
  }
  requiredPresent(checks, fields.values(), next);
  checks.throwIfAny();
  if (Object.keys(set).length === 0 && cleared.length === 0) return [];
  const data = {
    module: state.module,
    major,
    minor: policy.version.minor,
    values: rewritten ? next : set,
    cleared,
    rewritten,
    patientId: state.patientId,
  };
  return [{ type: 'ModuleRecordAmended', data }];
}

function decideTransition(
  command: Extract<ModuleRecordCommand, { type: 'TransitionModuleRecord' }>,
  state: ModuleRecordState,
  policy: ModuleState,
): ModuleRecordEvent[] {
  live(state, policy);
  const states = policy.definition.states;
  const transitions = states?.transitions ?? [];
  const { transition: name, signed } = command.data;
  const transition = transitions.find((t) => t.name === name);
  if (!transition || !states) {
    const names = transitions.map((t) => t.name);
    throw new DomainError('not-found', `the module ${state.module} has no transition ${name}`, 404, {
      transition: name,
      transitions: names,
    });
  }
  const from = state.state ?? states.initial;
  if (!transition.from.includes(from)) {
    const allowed = transitions.filter((t) => t.from.includes(from)).map((t) => t.name);
    throw rule('transition-not-allowed', `a record in state ${from} cannot take the transition ${name}`, {
      state: from,
      transitions: allowed,
    });
  }
  if (transition.signs) {
    if (command.actor.startsWith('client:'))
      throw new DomainError('people-only', 'a record is signed by a person, never by an API client', 403);
    if (!signed)
      throw new DomainError('signature-required', `the transition ${name} is a signature: it needs a fresh authenticator code`, 403);
  }
  const data = {
    module: state.module,
    transition: name,
    from,
    to: transition.to,
    signed: transition.signs === true,
    // Back where a signature is awaited again (a company's "reopen"): the earlier signature covers nothing that follows.
    ...(state.signed && !transition.signs && transitions.some((t) => t.signs && t.from.includes(transition.to)) ? { reopened: true } : {}),
    patientId: state.patientId,
  };
  return [{ type: 'ModuleRecordTransitioned', data }];
}

export function decideModuleRecord(
  command: ModuleRecordCommand,
  state: ModuleRecordState,
  policy: ModuleState,
  facts: RecordFacts = {},
): ModuleRecordEvent[] {
  switch (command.type) {
    case 'CreateModuleRecord':
      return decideCreate(command, state, policy, facts);
    case 'AmendModuleRecord':
      return decideAmend(command, state, policy, facts);
    case 'TransitionModuleRecord':
      return decideTransition(command, state, policy);
    case 'ArchiveModuleRecord':
      live(state, policy);
      return [{ type: 'ModuleRecordArchived', data: { module: state.module, patientId: state.patientId } }];
  }
}

export function evolveModuleRecord(state: ModuleRecordState, event: ModuleRecordEvent): ModuleRecordState {
  switch (event.type) {
    case 'ModuleRecordCreated': {
      const { module, major, patientId, values, state: initial } = event.data;
      return { ...initialModuleRecordState, exists: true, module, major, values, patientId, state: initial };
    }
    case 'ModuleRecordAmended': {
      const { major, values, cleared, rewritten } = event.data;
      const next: RecordValues = rewritten ? { ...values } : { ...state.values, ...values };
      for (const name of cleared) delete next[name];
      return { ...state, major, values: next };
    }
    case 'ModuleRecordTransitioned':
      return { ...state, state: event.data.to, signed: event.data.signed || (state.signed && event.data.reopened !== true) };
    case 'ModuleRecordArchived':
      return { ...state, archived: true };
  }
}

/** The record decider deciding with the module as it is now and the facts read for this command. */
export const moduleRecordDecider = (
  policy: ModuleState,
  facts: RecordFacts = {},
): Decider<ModuleRecordCommand, ModuleRecordEvent, ModuleRecordState> => ({
  category: MODULE_RECORD_CATEGORY,
  initialState: initialModuleRecordState,
  evolve: evolveModuleRecord,
  decide: (command, state) => decideModuleRecord(command, state, policy, facts),
});
