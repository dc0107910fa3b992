// What a proposed definition changes from a published one: the compatible changes (applied as a minor version) and the
// breaking conflicts (a new major with a mapping of older records), and whether that mapping covers every conflict.
import type { FieldChecks } from '../../shared/fieldChecks.js';
import { valueProblem } from './definitionRules.js';
import type { ModuleDefinition, ModuleField, UpcastStep } from './definitionTypes.js';

export type ConflictKind =
  | 'removed'
  | 'retyped'
  | 'required-added'
  | 'narrowed'
  | 'choice-removed'
  | 'unit-changed'
  | 'patient-link-changed'
  | 'state-removed'
  | 'transition-removed';

export interface Conflict {
  field: string;
  kind: ConflictKind;
  detail: string;
}

export interface Comparison {
  changes: string[];
  conflicts: Conflict[];
}

const sameTarget = (a: ModuleField, b: ModuleField): boolean => a.type === b.type && a.refersTo === b.refersTo && a.module === b.module;
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** How each bound moved: [member, true when a higher value narrows]. */
const BOUNDS: [keyof ModuleField, boolean][] = [
  ['minimum', true],
  ['maximum', false],
  ['minLength', true],
  ['maxLength', false],
  ['minItems', true],
  ['maxItems', false],
];

function compareField(before: ModuleField, after: ModuleField, out: Comparison): void {
  const name = after.name;
  const conflict = (kind: ConflictKind, detail: string) => out.conflicts.push({ field: name, kind, detail });
  if (!sameTarget(before, after)) {
    conflict('retyped', `${before.type} becomes ${after.type}`);
    return;
  }
  if (after.required && !before.required) conflict('required-added', 'an optional field becomes required');
  if (before.required && !after.required) out.changes.push(`${name}: no longer required`);
  for (const [member, higherNarrows] of BOUNDS) {
    const was = before[member] as number | undefined;
    const now = after[member] as number | undefined;
    if (was === now) continue;
    const narrowed = now !== undefined && (was === undefined || (higherNarrows ? now > was : now < was));
    if (narrowed) conflict('narrowed', `${member} ${was ?? 'none'} becomes ${now}`);
    else out.changes.push(`${name}: ${member} widened to ${now ?? 'none'}`);
  }
  if (!same(before.pattern, after.pattern)) {
    if (after.pattern !== undefined) conflict('narrowed', 'the pattern is new or changed');
    else out.changes.push(`${name}: pattern removed`);
  }
  if (before.unit !== after.unit) conflict('unit-changed', `unit ${before.unit ?? 'none'} becomes ${after.unit ?? 'none'}`);
  const kept = after.choices ?? [];
  for (const c of before.choices ?? []) if (!kept.includes(c)) conflict('choice-removed', `choice '${c}' removed`);
  for (const c of kept) if (!(before.choices ?? []).includes(c)) out.changes.push(`${name}: choice '${c}' added`);
  for (const member of ['label', 'description', 'default'] as const)
    if (!same(before[member], after[member])) out.changes.push(`${name}: ${member} changed`);
}

/** Compares a published definition with a proposed one. */
export function compareDefinitions(before: ModuleDefinition, after: ModuleDefinition): Comparison {
  const out: Comparison = { changes: [], conflicts: [] };
  for (const member of ['name', 'description', 'listFields', 'filterFields', 'sortFields'] as const)
    if (!same(before[member], after[member])) out.changes.push(`${member} changed`);
  if (before.patientLinked !== after.patientLinked)
    out.conflicts.push({ field: 'patientLinked', kind: 'patient-link-changed', detail: 'whether records belong to a patient changed' });
  for (const old of before.fields) {
    const now = after.fields.find((f) => f.name === old.name);
    if (!now) out.conflicts.push({ field: old.name, kind: 'removed', detail: 'the field is removed' });
    else compareField(old, now, out);
  }
  for (const f of after.fields) {
    if (before.fields.some((old) => old.name === f.name)) continue;
    if (f.required) out.conflicts.push({ field: f.name, kind: 'required-added', detail: 'a new required field' });
    else out.changes.push(`${f.name}: optional field added`);
  }
  const states = { before: before.states, after: after.states };
  for (const s of states.before?.states ?? [])
    if (!states.after?.states.some((n) => n.name === s.name))
      out.conflicts.push({ field: `states/${s.name}`, kind: 'state-removed', detail: `state '${s.name}' removed` });
  for (const t of states.before?.transitions ?? [])
    if (!states.after?.transitions.some((n) => n.name === t.name))
      out.conflicts.push({ field: `transitions/${t.name}`, kind: 'transition-removed', detail: `transition '${t.name}' removed` });
  for (const s of states.after?.states ?? [])
    if (!states.before?.states.some((o) => o.name === s.name)) out.changes.push(`state '${s.name}' added`);
  for (const t of states.after?.transitions ?? []) {
    const old = states.before?.transitions.find((o) => o.name === t.name);
    if (!old) out.changes.push(`transition '${t.name}' added`);
    else if (!same(old, t)) out.changes.push(`transition '${t.name}' changed`);
  }
  if (states.before && states.after && states.before.initial !== states.after.initial) out.changes.push('initial state changed');
  return out;
}

/** Which steps answer a conflict on `field`: the mapping an older record needs to read in the new major. */
function covers(kind: ConflictKind, field: string, steps: readonly UpcastStep[]): boolean {
  const on = (ops: UpcastStep['op'][]) =>
    steps.some((s) => ops.includes(s.op) && ('field' in s ? s.field === field : s.from === field || s.to === field));
  switch (kind) {
    case 'removed':
      return on(['drop', 'rename']);
    case 'retyped':
      return on(['convert', 'drop', 'rename']);
    case 'required-added':
      return on(['default', 'rename']);
    case 'choice-removed':
      return on(['mapChoices', 'drop']);
    case 'unit-changed':
      return on(['scale', 'drop']);
    // Older records keep the values they were written with; the major itself acknowledges a narrower bound or a
    // removed transition (records stay readable, new ones follow the new rules).
    case 'narrowed':
    case 'transition-removed':
      return true;
    // No mapping moves a record to or from a patient (its isolation, access audit and history hang on it), nor out of
    // a state (the contract and the list filter would no longer know the state it is in).
    case 'patient-link-changed':
    case 'state-removed':
      return false;
  }
}

/** Conflicts a major version's mapping leaves uncovered. */
export const uncoveredConflicts = (conflicts: readonly Conflict[], steps: readonly UpcastStep[]): Conflict[] =>
  conflicts.filter((c) => !covers(c.kind, c.field, steps));

/**
 * Adds the broken rules of the mapping to `checks` (pointers `upcast/<i>/...`): each step names a field present at that
 * point (walked from the old fields, in order) and one the new version has, and its value types fit.
 */
export function checkUpcast(checks: FieldChecks, before: ModuleDefinition, after: ModuleDefinition, steps: readonly UpcastStep[]): void {
  const present = new Map(before.fields.map((f) => [f.name, f.type as string]));
  const target = (name: string) => after.fields.find((f) => f.name === name);
  const numeric = (type: string | undefined) => type === 'number' || type === 'integer';
  steps.forEach((step, i) => {
    const at = `upcast/${i}`;
    switch (step.op) {
      case 'rename': {
        const now = target(step.to);
        checks.check(present.has(step.from), `${at}/from`, 'not a field of the older records at this step');
        checks.check(now !== undefined, `${at}/to`, 'not a field of the new version');
        checks.check(!present.has(step.to), `${at}/to`, 'the older records already have this field');
        if (present.has(step.from) && now)
          checks.check(present.get(step.from) === now.type, `${at}/to`, `the field is ${now.type}: convert it`);
        present.set(step.to, present.get(step.from) ?? now?.type ?? '');
        present.delete(step.from);
        break;
      }
      case 'default': {
        const now = target(step.field);
        checks.check(now !== undefined, `${at}/field`, 'not a field of the new version');
        const problem = now ? valueProblem(now, step.value) : null;
        checks.check(problem === null, `${at}/value`, problem ?? '');
        if (now) present.set(step.field, now.type);
        break;
      }
      case 'convert': {
        const now = target(step.field);
        checks.check(present.has(step.field), `${at}/field`, 'not a field of the older records at this step');
        checks.check(now !== undefined && now.type === step.to, `${at}/to`, `the new version's field is ${now?.type ?? 'absent'}`);
        present.set(step.field, step.to);
        break;
      }
      case 'scale':
        checks.check(numeric(present.get(step.field)), `${at}/field`, 'not a number of the older records at this step');
        checks.check(numeric(target(step.field)?.type), `${at}/field`, 'not a number of the new version');
        checks.check(Number.isFinite(step.factor) && step.factor !== 0, `${at}/factor`, 'a finite factor other than 0');
        break;
      case 'mapChoices': {
        const now = target(step.field);
        checks.check(present.has(step.field), `${at}/field`, 'not a field of the older records at this step');
        const choices = now?.type === 'choice' || now?.type === 'multi-choice' ? (now.choices ?? []) : null;
        checks.check(choices !== null, `${at}/field`, 'not a choice of the new version');
        for (const [from, to] of Object.entries(step.map))
          checks.check(choices === null || choices.includes(to), `${at}/map/${from}`, `'${to}' is not a choice of the new version`);
        break;
      }
      case 'drop':
        checks.check(present.has(step.field), `${at}/field`, 'not a field of the older records at this step');
        present.delete(step.field);
        break;
    }
  });
}
